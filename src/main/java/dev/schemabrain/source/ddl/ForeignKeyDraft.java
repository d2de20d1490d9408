package dev.schemabrain.source.ddl;

import dev.schemabrain.catalog.QualifiedName;

import java.util.List;

/**
 * A foreign key as written. The target is resolved against the whole script at the end (its spelling
 * may differ in case, it may be a partition, or it may be declared later); empty
 * {@code targetColumns} means "the target's primary key" ({@code REFERENCES t} without a list).
 */
record ForeignKeyDraft(String name, List<String> columns, QualifiedName target, List<String> targetColumns) {

    ForeignKeyDraft {
        columns = List.copyOf(columns);
        targetColumns = List.copyOf(targetColumns);
    }
}
