package dev.schemabrain.catalog;

import java.util.Locale;

/** What kind of relation a catalog entry is. {@code PARTITIONED} is a partition parent. */
public enum TableKind {
    TABLE, VIEW, MATERIALIZED_VIEW, PARTITIONED;

    /** The lower-case name used in the store and in tool payloads. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static TableKind fromWireName(String name) {
        return valueOf(name.toUpperCase(Locale.ROOT));
    }
}
