package dev.schemabrain.describe;

import java.util.Locale;

/** Where a description came from, in order of trust (SPEC §3); an LLM enricher adds its own later. */
public enum DescriptionOrigin {
    /** The database's own COMMENT. */
    DB_COMMENT,
    /** The offline describer, from names, types, keys and sample shapes. */
    HEURISTIC;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static DescriptionOrigin fromWire(String name) {
        return valueOf(name.toUpperCase(Locale.ROOT));
    }
}
