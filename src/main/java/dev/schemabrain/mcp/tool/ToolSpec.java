package dev.schemabrain.mcp.tool;

import dev.schemabrain.mcp.args.ArgSchema;

import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Everything a tool declares about itself: the registry turns it into the MCP tool definition
 * (inputSchema from {@code arguments}, annotations from side effects and idempotency, the latency
 * hint in {@code _meta}).
 *
 * @param touchesSource whether a call can reach the source database (not only the store)
 * @param retry         which arguments a suggested retry of an invalid call must keep
 */
public record ToolSpec(String name, String title, String description, ArgSchema arguments,
                       SideEffects sideEffects, boolean touchesSource, boolean idempotent, LatencyHint latency,
                       RetryRule retry) {

    /**
     * A retry that drops one of {@code kept} answers a different question with the same look (a metric without the
     * caller's filter is a plausible, wrong number), so an invalid call that loses one points at {@code otherwise}.
     */
    public record RetryRule(Set<String> kept, String otherwise) {
        public static final RetryRule ANY = new RetryRule(Set.of(), null);

        public RetryRule {
            kept = Set.copyOf(kept);
        }
    }

    public ToolSpec(String name, String title, String description, ArgSchema arguments,
                    SideEffects sideEffects, boolean touchesSource, boolean idempotent, LatencyHint latency) {
        this(name, title, description, arguments, sideEffects, touchesSource, idempotent, latency, RetryRule.ANY);
    }

    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]{0,63}");

    public ToolSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(arguments, "arguments");
        Objects.requireNonNull(sideEffects, "sideEffects");
        Objects.requireNonNull(latency, "latency");
        retry = retry == null ? RetryRule.ANY : retry;
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
