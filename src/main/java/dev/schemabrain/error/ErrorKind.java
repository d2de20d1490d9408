package dev.schemabrain.error;

import com.fasterxml.jackson.annotation.JsonValue;

import java.util.Locale;

/**
 * The closed set of error kinds an answer can carry (charter 1.3): the one list every layer raises from (the
 * compiler, the executor, the edge), so no layer keeps a copy in step by hand.
 */
public enum ErrorKind {
    UNKNOWN_NAME, MALFORMED_NAME, MISSING_CREDENTIAL, INDEX_NOT_READY, SCHEMA_DRIFT, COST_CAP_EXCEEDED,
    INTERNAL_ERROR,
    PII_BLOCKED, POLICY_BLOCKED, ALLOWLIST_VIOLATION,
    NO_CANONICAL_JOIN, AMBIGUOUS_JOIN, UNKNOWN_JOIN_NAME, JOIN_NAME_MISMATCH,
    UNKNOWN_METRIC, UNREACHABLE_ENTITY, AMBIGUOUS_PATH, UNKNOWN_VIA_JOIN, UNKNOWN_ORDER_BY_COLUMN,
    UNKNOWN_GROUP_BY_COLUMN, UNKNOWN_FILTER_COLUMN, UNKNOWN_MEASURE_COLUMN,
    INVALID_TIME_GRAIN, GRAIN_MISMATCH, AMBIGUOUS_TIME_DIMENSION,
    INVALID_ARGUMENT,
    SOURCE_UNAVAILABLE, STATEMENT_TIMEOUT, SOURCE_BUSY, STATEMENT_FAILED;

    @JsonValue
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Kinds that go with status {@code refused}; all others go with {@code error}. */
    public boolean isRefusal() {
        return this == PII_BLOCKED || this == POLICY_BLOCKED || this == ALLOWLIST_VIOLATION;
    }
}
