package dev.schemabrain.access;

import dev.schemabrain.catalog.QualifiedName;

/** One allow entry: {@code schema.table}, or {@code schema.*} for every table of a schema. */
public record TablePattern(String schema, String table) {

    public static final String ANY = "*";

    public boolean matches(QualifiedName name) {
        return schema.equals(name.schema()) && (ANY.equals(table) || table.equals(name.table()));
    }

    @Override
    public String toString() {
        return schema + "." + table;
    }
}
