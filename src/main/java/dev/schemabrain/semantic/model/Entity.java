package dev.schemabrain.semantic.model;

import dev.schemabrain.catalog.QualifiedName;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A business entity: one table and the columns that identify a row of it, with its named
 * segments.
 *
 * @param group optional grouping for listings (for example the schema); may be null
 */
public record Entity(String name, String description, QualifiedName table, List<String> identity, String group,
                     Origin origin, List<Segment> segments) {

    public Entity {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(origin, "origin");
        identity = List.copyOf(identity);
        segments = List.copyOf(segments);
        if (identity.isEmpty()) {
            throw new IllegalArgumentException("entity " + name + " needs at least one identity column");
        }
    }

    public Entity(String name, String description, QualifiedName table, List<String> identity, String group,
                  Origin origin) {
        this(name, description, table, identity, group, origin, List.of());
    }

    public Optional<Segment> segment(String name) {
        return segments.stream().filter(s -> s.name().equals(name)).findFirst();
    }

    public List<Segment> defaultSegments() {
        return segments.stream().filter(Segment::isDefault).toList();
    }

    /** The same entity, from another origin. */
    public Entity withOrigin(Origin origin) {
        return new Entity(name, description, table, identity, group, origin, segments);
    }
}
