package dev.schemabrain.describe;

import java.util.Locale;

/** Where a description came from; shown in the order database comment, semantic YAML, LLM, offline. */
public enum DescriptionOrigin {
    /** The database's own COMMENT. */
    DB_COMMENT,
    /** The LLM enricher: a draft, suggested by a model. */
    LLM,
    /** The offline describer, from names, types, keys and sample shapes. */
    HEURISTIC;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static DescriptionOrigin fromWire(String name) {
        return valueOf(name.toUpperCase(Locale.ROOT));
    }
}
