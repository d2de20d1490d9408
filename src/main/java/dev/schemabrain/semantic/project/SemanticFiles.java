package dev.schemabrain.semantic.project;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

import java.util.List;

/**
 * The shape of each semantic object's file (SPEC §7) as Jackson binds it, keys in snake_case; the
 * store keeps the same shape as JSON. Values stay text here: {@link SemanticCodec} checks them and
 * maps them to the model, so a bad value gets a message that says what to write.
 */
final class SemanticFiles {

    private SemanticFiles() {
    }

    /** What every object file has: its format version and its name. */
    interface ObjectFile {
        Object version();

        String name();
    }

    // version is Object so that 'version: two' says "must be 1" rather than a type error.
    @JsonPropertyOrder({"version", "name", "description", "table", "identity", "group", "origin"})
    record EntityFile(Object version, String name, String description, String table, List<String> identity,
                      String group, String origin) implements ObjectFile {
    }

    @JsonPropertyOrder({"version", "name", "source_entity", "target_entity", "on", "through", "through_on",
            "cardinality", "origin"})
    record JoinFile(Object version, String name, String sourceEntity, String targetEntity, List<PairFile> on,
                    String through, List<PairFile> throughOn, String cardinality, String origin) implements ObjectFile {
    }

    @JsonPropertyOrder({"version", "name", "description", "entity", "measure", "time_dimension", "time_grains",
            "filters", "origin"})
    record MetricFile(Object version, String name, String description, String entity, MeasureFile measure,
                      String timeDimension,
                      @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> timeGrains,
                      @JsonInclude(JsonInclude.Include.NON_EMPTY) List<FilterFile> filters,
                      String origin) implements ObjectFile {
    }

    @JsonPropertyOrder({"source", "target"})
    record PairFile(String source, String target) {
    }

    @JsonPropertyOrder({"agg", "column", "expression"})
    record MeasureFile(String agg, String column, String expression) {
    }

    /** {@code value} is bound as Jackson reads it: a scalar, a list, or (refused later) a mapping. */
    @JsonPropertyOrder({"column", "op", "value"})
    record FilterFile(String column, String op, Object value) {
    }
}
