package dev.schemabrain.store;

import dev.schemabrain.catalog.QualifiedName;

import java.util.Objects;

/** A table's document ({@code column} null) or one of its columns'. */
public record DocumentKey(QualifiedName table, String column) {

    public DocumentKey {
        Objects.requireNonNull(table, "table");
    }

    public static DocumentKey table(QualifiedName table) {
        return new DocumentKey(table, null);
    }

    public static DocumentKey column(QualifiedName table, String column) {
        return new DocumentKey(table, Objects.requireNonNull(column, "column"));
    }
}
