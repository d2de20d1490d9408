package dev.schemabrain.catalog;

import com.fasterxml.jackson.annotation.JsonValue;

import java.util.Locale;

/**
 * How a fact was derived (charter 1.2, plus db_comment and heuristic in 1.3, and caller_sql: rows of SQL the caller
 * wrote, which no person reviewed as a metric).
 */
public enum InferenceMethod {
    MANUALLY_AUTHORED(true), LLM_SUGGESTED(false), FK_CONSTRAINT(true), DBT_IMPORT(true),
    OBSERVED_IN_QUERY_LOG(false), DB_COMMENT(true), HEURISTIC(false), CALLER_SQL(false);

    private final boolean trusted;

    InferenceMethod(boolean trusted) {
        this.trusted = trusted;
    }

    /** Methods that lift confidence a bucket: the fact was declared by a person or the database. */
    public boolean trusted() {
        return trusted;
    }

    @JsonValue
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
