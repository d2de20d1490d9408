package dev.schemabrain.semantic.model;

import java.util.List;
import java.util.Objects;

/**
 * A named aggregate over an entity (SPEC §7).
 *
 * @param timeDimension {@code entity.column} of the default time axis, or null
 * @param filters       default filters, always applied
 */
public record Metric(String name, String description, String entity, Measure measure, String timeDimension,
                     List<TimeGrain> timeGrains, List<Filter> filters, Origin origin) {

    public Metric {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(entity, "entity");
        Objects.requireNonNull(measure, "measure");
        Objects.requireNonNull(origin, "origin");
        timeGrains = List.copyOf(timeGrains);
        filters = List.copyOf(filters);
    }
}
