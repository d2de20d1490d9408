package dev.schemabrain.llm;

/** One table's request failed; {@code unreachable} means the endpoint itself is down, so no other table should try. */
public final class LlmException extends Exception {

    private final boolean unreachable;

    LlmException(String message, boolean unreachable) {
        super(message, null, false, false);
        this.unreachable = unreachable;
    }

    public boolean unreachable() {
        return unreachable;
    }
}
