package dev.schemabrain.semantic.compile;

import dev.schemabrain.semantic.model.Filter;

import java.util.List;
import java.util.Objects;

/**
 * What a caller asks of get_metric, already shaped but not yet checked against the model: references
 * are {@code entity.column} as written; {@code timeGrain} and {@code timeDimension} may be null.
 */
public record MetricRequest(String metric, List<String> groupBy, List<Filter> filters, String timeGrain,
                            String timeDimension, List<String> via, List<OrderBy> orderBy, int limit) {

    public static final int MAX_LIMIT = 10_000;
    public static final int DEFAULT_LIMIT = 1000;

    public MetricRequest {
        Objects.requireNonNull(metric, "metric");
        groupBy = List.copyOf(groupBy);
        filters = List.copyOf(filters);
        via = List.copyOf(via);
        orderBy = List.copyOf(orderBy);
    }

    /** One ordering term: a group_by reference, {@code time_bucket}, or the metric's name. */
    public record OrderBy(String column, boolean descending) {
    }
}
