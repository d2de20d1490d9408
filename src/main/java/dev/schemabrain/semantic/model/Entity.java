package dev.schemabrain.semantic.model;

import dev.schemabrain.catalog.QualifiedName;

import java.util.List;
import java.util.Objects;

/**
 * A business entity: one table and the columns that identify a row of it (SPEC §7).
 *
 * @param group optional grouping for listings (for example the schema); may be null
 */
public record Entity(String name, String description, QualifiedName table, List<String> identity, String group,
                     Origin origin) {

    public Entity {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(origin, "origin");
        identity = List.copyOf(identity);
        if (identity.isEmpty()) {
            throw new IllegalArgumentException("entity " + name + " needs at least one identity column");
        }
    }
}
