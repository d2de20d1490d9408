package dev.schemabrain.semantic.compile;

import dev.schemabrain.semantic.model.Filter;
import dev.schemabrain.semantic.model.Segment;

import java.util.List;
import java.util.Optional;

/**
 * What one simple metric of a compiled answer took for granted, for the answer to say (its {@code assumptions}): the
 * rows its definition counts, the default segments that left rows out, how its amounts handle currency, and the time
 * axis it is dated by.
 *
 * @param counted      the metric's own filters (the statuses it counts)
 * @param segments     the segments applied: its entity's defaults unless the caller opted out, then those named
 * @param currency     how amounts and currency were handled, when the measure is money in a row's currency
 * @param timeAxis     {@code entity.column} the metric is dated by in this call, or null when it has none
 * @param statuses     which values of its entity's status column the rows were counted at, when it has one
 */
public record Assumed(String metric, String entity, List<Filter> counted, List<Segment> segments, Optional<String> currency,
                      String timeAxis, Optional<String> statuses) {

    public Assumed {
        counted = List.copyOf(counted);
        segments = List.copyOf(segments);
    }
}
