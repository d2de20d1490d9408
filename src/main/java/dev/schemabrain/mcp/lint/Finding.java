package dev.schemabrain.mcp.lint;

/** One broken charter rule: which tool, which rule, what is wrong. */
public record Finding(String tool, String rule, String message) {

    @Override
    public String toString() {
        return tool + ": " + rule + ": " + message;
    }
}
