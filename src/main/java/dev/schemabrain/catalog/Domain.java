package dev.schemabrain.catalog;

import java.util.List;
import java.util.Objects;

/**
 * The values a column may hold, as its database declares them (SPEC §11.2): a PostgreSQL ENUM or a
 * domain over one, a MySQL/MariaDB {@code ENUM}/{@code SET}, a {@code tinyint(1)} boolean, or a
 * {@code CHECK (x IN (…))} list. A column with a domain is a categorical (or yes/no) dimension, never a
 * number, and a filter value outside it is the caller's error.
 *
 * @param kind     where the domain comes from
 * @param typeName the engine's own type a bound value must be cast to (PostgreSQL {@code "schema"."type"}
 *                 parts as {@code schema.type}), or null when the engine compares plain text
 * @param values   the allowed values in declared order; empty for {@link Kind#BOOLEAN}
 */
public record Domain(Kind kind, String typeName, List<String> values) {

    public enum Kind {
        ENUM, SET, BOOLEAN, CHECK;

        public String wireName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    public Domain {
        Objects.requireNonNull(kind, "kind");
        values = values == null ? List.of() : List.copyOf(values);
    }

    /** A yes/no column that its engine stores as a small integer (MySQL {@code tinyint(1)}). */
    public static final Domain BOOLEAN = new Domain(Kind.BOOLEAN, null, List.of());

    public boolean categorical() {
        return kind != Kind.BOOLEAN;
    }
}
