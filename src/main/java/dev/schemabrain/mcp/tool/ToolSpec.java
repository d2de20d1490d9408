package dev.schemabrain.mcp.tool;

import dev.schemabrain.mcp.args.ArgSchema;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Everything a tool declares about itself: the registry turns it into the MCP tool definition
 * (inputSchema from {@code arguments}, annotations from side effects and idempotency, the latency
 * hint in {@code _meta}).
 *
 * @param touchesSource whether a call can reach the source database (not only the store)
 */
public record ToolSpec(String name, String title, String description, ArgSchema arguments,
                       SideEffects sideEffects, boolean touchesSource, boolean idempotent, LatencyHint latency) {

    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]{0,63}");

    public ToolSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(arguments, "arguments");
        Objects.requireNonNull(sideEffects, "sideEffects");
        Objects.requireNonNull(latency, "latency");
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("tool name '" + name + "' must be snake_case");
        }
    }

    /** A read-only, idempotent tool that only reads the store: every catalog tool. */
    public static ToolSpec storeReader(String name, String title, String description, ArgSchema arguments,
                                       LatencyHint latency) {
        return new ToolSpec(name, title, description, arguments, SideEffects.READ, false, true, latency);
    }

    public ToolHints hints() {
        return ToolHints.of(sideEffects, touchesSource, idempotent);
    }
}
