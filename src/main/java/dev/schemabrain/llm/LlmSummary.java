package dev.schemabrain.llm;

import java.util.List;

/**
 * What the enricher did in one run, for the index summary. {@code left}: tables the cap kept from
 * being asked (the next run asks them); {@code estimated*}: a dry run's projection.
 */
public record LlmSummary(boolean asked, boolean dryRun, String provider, String model, int tables, int requests,
                         int cached, int failed, int left, int unreachable, long inputTokens, long outputTokens,
                         double usd, double cap, long estimatedInput, long estimatedOutput, double estimatedUsd,
                         List<String> warnings) {

    public static final LlmSummary NONE = new LlmSummary(false, false, null, null, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
            List.of());

    public LlmSummary {
        warnings = List.copyOf(warnings);
    }
}
