package dev.schemabrain.mcp.tool;

import java.util.Locale;

/** Expected latency of one call: fast &lt; 100 ms, moderate 100 ms – 1 s, slow ≥ 1 s. */
public enum LatencyHint {
    FAST, MODERATE, SLOW;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
