package dev.schemabrain.semantic.model;

import java.util.List;
import java.util.Objects;

/**
 * A named filter on an entity's rows ("paying customers"). A default segment (not test, not deleted)
 * applies to every metric over the entity unless the caller opts out; the others apply when named.
 */
public record Segment(String name, String description, List<Filter> filters, boolean isDefault) {

    public Segment {
        Objects.requireNonNull(name, "name");
        filters = List.copyOf(filters);
        if (filters.isEmpty()) {
            throw new IllegalArgumentException("segment " + name + " needs at least one filter");
        }
    }
}
