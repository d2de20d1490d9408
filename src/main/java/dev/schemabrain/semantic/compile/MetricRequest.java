package dev.schemabrain.semantic.compile;

import dev.schemabrain.semantic.model.Filter;

import java.util.List;
import java.util.Objects;

/**
 * What a caller asks of get_metric, already shaped but not yet checked against the model: references
 * are {@code entity.column} as written; {@code timeGrain} and {@code timeDimension} may be null.
 *
 * @param segments        named segments to apply ({@code paying}, or {@code customer.paying} on another entity)
 * @param defaultSegments whether each metric entity's default segments apply (they do unless the caller opts out)
 */
public record MetricRequest(String metric, List<String> groupBy, List<Filter> filters, String timeGrain,
                            String timeDimension, List<String> via, List<OrderBy> orderBy, int limit,
                            List<String> segments, boolean defaultSegments) {

    public static final int MAX_LIMIT = 10_000;
    public static final int DEFAULT_LIMIT = 1000;

    public MetricRequest {
        Objects.requireNonNull(metric, "metric");
        groupBy = List.copyOf(groupBy);
        filters = List.copyOf(filters);
        via = List.copyOf(via);
        orderBy = List.copyOf(orderBy);
        segments = List.copyOf(segments);
    }

    /** No named segments; default segments apply. */
    public MetricRequest(String metric, List<String> groupBy, List<Filter> filters, String timeGrain,
                         String timeDimension, List<String> via, List<OrderBy> orderBy, int limit) {
        this(metric, groupBy, filters, timeGrain, timeDimension, via, orderBy, limit, List.of(), true);
    }

    /** The same request for another metric (a component of a ratio, derived or cumulative one). */
    MetricRequest forMetric(String name, List<Filter> withFilters) {
        return new MetricRequest(name, groupBy, withFilters, timeGrain, timeDimension, via, orderBy, limit, segments,
                defaultSegments);
    }

    /** One ordering term: a group_by reference, {@code time_bucket}, or the metric's name. */
    public record OrderBy(String column, boolean descending) {
    }
}
