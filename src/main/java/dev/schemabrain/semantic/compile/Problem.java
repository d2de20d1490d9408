package dev.schemabrain.semantic.compile;

/** Why a metric request cannot be compiled; each is an error kind of the charter with the same name. */
public enum Problem {
    UNKNOWN_METRIC, UNREACHABLE_ENTITY, AMBIGUOUS_PATH, UNKNOWN_VIA_JOIN, UNKNOWN_ORDER_BY_COLUMN,
    UNKNOWN_GROUP_BY_COLUMN, UNKNOWN_FILTER_COLUMN, UNKNOWN_MEASURE_COLUMN, INVALID_TIME_GRAIN, GRAIN_MISMATCH,
    AMBIGUOUS_TIME_DIMENSION, SCHEMA_DRIFT, INVALID_ARGUMENT
}
