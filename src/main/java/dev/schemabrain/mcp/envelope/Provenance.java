package dev.schemabrain.mcp.envelope;

import dev.schemabrain.catalog.ValidationState;
import dev.schemabrain.catalog.InferenceMethod;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonValue;

import java.util.Locale;
import java.util.Objects;

/**
 * Where a fact came from, on two axes: how it was derived and how validated it is. The envelope's
 * confidence is derived from these two, never set separately.
 *
 * @param model      the LLM that wrote it, when {@code source} is llm
 * @param observedIn where it was observed (e.g. the query log), when inferred from traffic
 */
public record Provenance(@JsonProperty("source") Source source,
                         @JsonProperty("model") String model,
                         @JsonProperty("observed_in") String observedIn,
                         @JsonProperty("inference_method") InferenceMethod inferenceMethod,
                         @JsonProperty("validation_state") ValidationState validationState) {

    public Provenance {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(inferenceMethod, "inferenceMethod");
        Objects.requireNonNull(validationState, "validationState");
    }

    /** A fact read from the database's own catalog (keys, comments). */
    public static Provenance schema(InferenceMethod method) {
        return new Provenance(Source.SCHEMA, null, null, method, ValidationState.APPLIED);
    }

    public Confidence confidence() {
        return Confidence.derive(validationState, inferenceMethod);
    }

    /** What produced the fact. */
    public enum Source {
        SCHEMA, LLM, INFERRED;

        @JsonValue
        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }
}
