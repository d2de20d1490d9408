package dev.schemabrain.mcp.tool;

import java.util.Locale;

/** What a tool touches (charter "per-tool metadata"); only NONE and READ are on the MCP surface. */
public enum SideEffects {
    /** Pure computation. */
    NONE,
    /** Reads the store, and the source database when the tool says it touches it. */
    READ,
    /** Mutates the store; reserved for operator-side surfaces. */
    WRITE;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
