package dev.schemabrain.semantic.project;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

import java.util.List;

/**
 * The shape of each semantic object's file as Jackson binds it, keys in snake_case; the
 * store keeps the same shape as JSON. Values stay text here: {@link SemanticCodec} checks them and
 * maps them to the model, so a bad value gets a message that says what to write.
 */
final class SemanticFiles {

    private SemanticFiles() {
    }

    /**
     * What every object file has: its format version and its name, and where it came from as export wrote it
     * ({@code origin}, the inference method, and {@code validation_state}). Of the two, apply reads only a
     * {@code validation_state} of confirmed; the store decides the rest by comparing the definition with its own.
     */
    interface ObjectFile {
        Object version();

        String name();

        String validationState();
    }

    // version is Object so that 'version: two' says "must be 1" rather than a type error.
    @JsonPropertyOrder({"version", "name", "description", "table", "identity", "group", "segments", "origin",
            "validation_state"})
    record EntityFile(Object version, String name, String description, String table, List<String> identity,
                      String group, @JsonInclude(JsonInclude.Include.NON_EMPTY) List<SegmentFile> segments,
                      String origin, String validationState) implements ObjectFile {
    }

    /**
     * {@code default} is Object so that 'default: maybe' says "must be true or false". {@code origin} and
     * {@code observed} say where a draft segment came from (the query log, how often); a file's are only checked:
     * apply keeps the store's while the entity is unchanged, and editing or confirming it makes the segment the operator's.
     */
    @JsonPropertyOrder({"name", "description", "default", "filters", "origin", "observed"})
    record SegmentFile(String name, @JsonInclude(JsonInclude.Include.NON_NULL) String description,
                       @JsonProperty("default") @JsonInclude(JsonInclude.Include.NON_NULL) Object isDefault,
                       List<FilterFile> filters, @JsonInclude(JsonInclude.Include.NON_NULL) String origin,
                       @JsonInclude(JsonInclude.Include.NON_NULL) ObservedFile observed) {
    }

    /** How often the query log used a draft segment's filter: distinct statements, observations, last seen. */
    @JsonPropertyOrder({"statements", "observations", "last_seen"})
    record ObservedFile(Object statements, Object observations, @JsonInclude(JsonInclude.Include.NON_NULL) String lastSeen) {
    }

    @JsonPropertyOrder({"version", "name", "source_entity", "target_entity", "on", "through", "through_on",
            "cardinality", "origin", "validation_state"})
    record JoinFile(Object version, String name, String sourceEntity, String targetEntity, List<PairFile> on,
                    String through, List<PairFile> throughOn, String cardinality, String origin,
                    String validationState) implements ObjectFile {
    }

    @JsonPropertyOrder({"version", "name", "description", "type", "entity", "measure", "numerator", "denominator",
            "expression", "metric", "window", "grain_to_date", "time_dimension", "time_grains", "filters", "origin",
            "validation_state"})
    record MetricFile(Object version, String name, String description,
                      @JsonInclude(JsonInclude.Include.NON_NULL) String type, String entity,
                      @JsonInclude(JsonInclude.Include.NON_NULL) MeasureFile measure,
                      @JsonInclude(JsonInclude.Include.NON_NULL) String numerator,
                      @JsonInclude(JsonInclude.Include.NON_NULL) String denominator,
                      @JsonInclude(JsonInclude.Include.NON_NULL) String expression,
                      @JsonInclude(JsonInclude.Include.NON_NULL) String metric,
                      @JsonInclude(JsonInclude.Include.NON_NULL) WindowFile window,
                      @JsonInclude(JsonInclude.Include.NON_NULL) String grainToDate, String timeDimension,
                      @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> timeGrains,
                      @JsonInclude(JsonInclude.Include.NON_EMPTY) List<FilterFile> filters,
                      String origin, String validationState) implements ObjectFile {
    }

    /** A cumulative metric's trailing window: the last {@code count} buckets of {@code grain}. */
    @JsonPropertyOrder({"count", "grain"})
    record WindowFile(Object count, String grain) {
    }

    /** A semi-additive measure's snapshot column, which end of each bucket counts, and per what. */
    @JsonPropertyOrder({"column", "window", "groupings"})
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    record NonAdditiveFile(String column, String window, List<String> groupings) {
    }

    @JsonPropertyOrder({"source", "target"})
    record PairFile(String source, String target) {
    }

    @JsonPropertyOrder({"agg", "column", "expression", "non_additive"})
    record MeasureFile(String agg, String column, String expression,
                       @JsonInclude(JsonInclude.Include.NON_NULL) NonAdditiveFile nonAdditive) {
    }

    /** {@code value} is bound as Jackson reads it: a scalar, a list, or (refused later) a mapping. */
    @JsonPropertyOrder({"column", "op", "value", "other_column"})
    record FilterFile(String column, String op, Object value,
                      @JsonInclude(JsonInclude.Include.NON_NULL) String otherColumn) {
    }
}
