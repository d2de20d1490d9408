package dev.schemabrain.source.ddl;

import dev.schemabrain.catalog.Domain;

/** A column while the script is being read: later statements may still set its default or comment. */
final class ColumnDraft {

    final String name;
    String dataType;
    boolean notNull;
    String defaultValue;
    String comment;
    /** A CHECK (column IN (…)) list, when the table declares one. */
    Domain domain;

    ColumnDraft(String name, String dataType) {
        this.name = name;
        this.dataType = dataType;
    }

    /** An inherited copy: PostgreSQL passes type, NOT NULL and default down, not the comment. */
    ColumnDraft inherited() {
        ColumnDraft copy = new ColumnDraft(name, dataType);
        copy.notNull = notNull;
        copy.defaultValue = defaultValue;
        copy.domain = domain;
        return copy;
    }
}
