package dev.schemabrain.semantic.model;

import java.util.List;
import java.util.Objects;

/**
 * A named filter on an entity's rows ("paying customers"). A default segment (not test, not deleted)
 * applies to every metric over the entity unless the caller opts out; the others apply when named.
 *
 * @param observed where a segment drafted from the query log came from; null for any other segment
 */
public record Segment(String name, String description, List<Filter> filters, boolean isDefault, Observed observed) {

    public Segment {
        Objects.requireNonNull(name, "name");
        filters = List.copyOf(filters);
        if (filters.isEmpty()) {
            throw new IllegalArgumentException("segment " + name + " needs at least one filter");
        }
        if (observed != null && isDefault) {
            throw new IllegalArgumentException("segment " + name + " was observed in the query log; only an operator makes a segment the default");
        }
    }

    public Segment(String name, String description, List<Filter> filters, boolean isDefault) {
        this(name, description, filters, isDefault, null);
    }

    /**
     * A draft proposed by query-log mining: the filter is used in {@code statements} distinct statements, observed
     * {@code observations} times in all, last on {@code lastSeen} (ISO-8601).
     */
    public record Observed(int statements, long observations, String lastSeen) {
    }
}
