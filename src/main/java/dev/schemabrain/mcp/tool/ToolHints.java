package dev.schemabrain.mcp.tool;

/**
 * The MCP tool annotations a tool's declared side effects map to, with one
 * refinement: {@code openWorldHint} is true only for tools that reach the source database.
 */
public record ToolHints(boolean readOnly, boolean destructive, boolean idempotent, boolean openWorld) {

    public static ToolHints of(SideEffects sideEffects, boolean touchesSource, boolean idempotent) {
        return switch (sideEffects) {
            case NONE -> new ToolHints(true, false, idempotent, false);
            case READ -> new ToolHints(true, false, idempotent, touchesSource);
            case WRITE -> new ToolHints(false, true, idempotent, true);
        };
    }
}
