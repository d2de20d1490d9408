package dev.schemabrain.mcp.server;

/**
 * The per-caller budgets the dispatcher keeps: one for calls that query the source (get_metric), one
 * for catalog calls (describe, search, list). They are separate buckets, so an agent exploring the
 * catalog never spends its metric allowance, and a catalog probe (does this value exist?) has a ceiling.
 */
public record CallerRates(RateLimit metric, RateLimit catalog) {

    /** Neither is limited: for benchmarks and for tests of something else. */
    public static final CallerRates OFF = new CallerRates(RateLimit.OFF, RateLimit.OFF);

    /** The catalog default: an agent's discovery burst fits; a sustained probe runs at 10 calls a second at most. */
    public static final String DEFAULT_CATALOG_RATE = "10/s";
    public static final int DEFAULT_CATALOG_BURST = 200;

    /** A metric budget with catalog calls unlimited. */
    public static CallerRates metricOnly(RateLimit metric) {
        return new CallerRates(metric, RateLimit.OFF);
    }
}
