package dev.schemabrain.llm;

import java.util.Comparator;
import java.util.Map;
import java.util.Optional;

/** USD per million input and output tokens: defaults for known models; local endpoints cost nothing. */
public record PriceTable(double inPerMTok, double outPerMTok) {

    private static final Map<String, PriceTable> KNOWN = Map.ofEntries(
            Map.entry("claude-haiku-4-5", new PriceTable(1.00, 5.00)),
            Map.entry("claude-3-5-haiku-latest", new PriceTable(0.80, 4.00)),
            Map.entry("claude-sonnet-4-5", new PriceTable(3.00, 15.00)),
            Map.entry("claude-sonnet-4-6", new PriceTable(3.00, 15.00)),
            Map.entry("claude-opus-4-1", new PriceTable(15.00, 75.00)),
            Map.entry("gpt-4o-mini", new PriceTable(0.15, 0.60)),
            Map.entry("gpt-4o", new PriceTable(2.50, 10.00)),
            Map.entry("gpt-4.1-mini", new PriceTable(0.40, 1.60)),
            Map.entry("gpt-4.1", new PriceTable(2.00, 8.00)));

    public static final PriceTable FREE = new PriceTable(0, 0);

    /**
     * Explicit prices win; then the known model (a dated id such as claude-haiku-4-5-20251001 matches its
     * family); then a local endpoint is free; else empty: the caller must ask for --price-in/--price-out.
     */
    public static Optional<PriceTable> of(String model, boolean localEndpoint, Double priceIn, Double priceOut) {
        if (priceIn != null || priceOut != null) {
            return Optional.of(new PriceTable(priceIn == null ? 0 : priceIn, priceOut == null ? 0 : priceOut));
        }
        PriceTable known = KNOWN.get(model);
        if (known == null) {
            known = KNOWN.entrySet().stream().filter(e -> model.startsWith(e.getKey() + "-"))
                    .max(Map.Entry.comparingByKey(Comparator.comparingInt(String::length)))
                    .map(Map.Entry::getValue).orElse(null);
        }
        if (known != null) {
            return Optional.of(known);
        }
        return localEndpoint ? Optional.of(FREE) : Optional.empty();
    }

    public double usd(long inputTokens, long outputTokens) {
        return inputTokens / 1e6 * inPerMTok + outputTokens / 1e6 * outPerMTok;
    }
}
