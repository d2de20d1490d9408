package dev.schemabrain.semantic.model;

import java.util.List;
import java.util.Objects;

/**
 * A named number over an entity. A simple metric aggregates its {@code measure}; a
 * ratio, derived or cumulative one combines other metrics ({@link MetricKind}) and has no measure of its
 * own. {@code entity} is where the metric is listed and whose columns it is grouped and filtered by.
 *
 * @param timeDimension {@code entity.column} of the default time axis, or null
 * @param filters       default filters, always applied
 */
public record Metric(String name, String description, String entity, Measure measure, String timeDimension,
                     List<TimeGrain> timeGrains, List<Filter> filters, Origin origin, MetricKind kind) {

    public Metric {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(entity, "entity");
        Objects.requireNonNull(origin, "origin");
        Objects.requireNonNull(kind, "kind");
        if (kind.isSimple() != (measure != null)) {
            throw new IllegalArgumentException("metric " + name + ": a simple metric has a measure, a "
                    + kind.wireName() + " one has none");
        }
        timeGrains = List.copyOf(timeGrains);
        filters = List.copyOf(filters);
    }

    /** A simple metric. */
    public Metric(String name, String description, String entity, Measure measure, String timeDimension,
                  List<TimeGrain> timeGrains, List<Filter> filters, Origin origin) {
        this(name, description, entity, measure, timeDimension, timeGrains, filters, origin, MetricKind.SIMPLE);
    }

    public boolean isSimple() {
        return kind.isSimple();
    }

    /** The same metric, from another origin. */
    public Metric withOrigin(Origin origin) {
        return new Metric(name, description, entity, measure, timeDimension, timeGrains, filters, origin, kind);
    }
}
