package dev.schemabrain.mcp.envelope;

import dev.schemabrain.error.DegradationReason;
import dev.schemabrain.error.ErrorKind;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The one shape every tool answers with (charter 1.3). Construction enforces the
 * invariants, so an envelope that exists is a valid one:
 * <ul>
 *   <li>{@code error} is set iff status is error or refused, and then {@code data} is null;</li>
 *   <li>refused goes with a refusal kind, error with any other;</li>
 *   <li>success carries data;</li>
 *   <li>{@code degradation_reason} is set iff status is degraded;</li>
 *   <li>{@code follow_up_hints} names one to three tools.</li>
 * </ul>
 * Data payloads get {@code token_estimate} (serialized length / 4) added.
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
@JsonPropertyOrder({"status", "data", "error", "confidence", "provenance", "follow_up_hints", "degradation_reason",
        "charter_version"})
public record Envelope(@JsonProperty("status") Status status,
                       @JsonProperty("data") ObjectNode data,
                       @JsonProperty("error") ToolError error,
                       @JsonProperty("confidence") Confidence confidence,
                       @JsonProperty("provenance") Provenance provenance,
                       @JsonProperty("follow_up_hints") List<String> followUpHints,
                       @JsonProperty("degradation_reason") DegradationReason degradationReason) {

    public static final String CHARTER_VERSION = "1.4";
    // Exact decimals: the default node factory strips a decimal's trailing zeros, turning a sum of 66900 into 6.69E+4.
    private static final ObjectMapper JSON = new ObjectMapper()
            .setNodeFactory(JsonNodeFactory.withExactBigDecimals(true));

    /**
     * Builds one answer with a row of each value type a query returns (Long, BigDecimal, Double, Boolean, text, null):
     * Jackson builds those serializers at their first use, which was about a sixth of a session's first get_metric.
     */
    public static void warmUp() {
        ObjectNode rows = JSON.createObjectNode();
        ArrayNode row = rows.putArray("rows").addArray();
        List.<Object>of(1L, BigDecimal.ONE, 1.5d, true, "x").forEach(row::addPOJO);
        row.addNull();
        success(rows, null, null, List.of("execute"));
    }

    public Envelope {
        Objects.requireNonNull(status, "status");
        followUpHints = followUpHints == null ? List.of() : List.copyOf(followUpHints);
        if (followUpHints.isEmpty() || followUpHints.size() > 3) {
            throw new IllegalArgumentException("follow_up_hints must name 1 to 3 tools, got " + followUpHints.size());
        }
        if (status.isFailure()) {
            if (error == null) {
                throw new IllegalArgumentException("status " + status.wireName() + " needs an error");
            }
            if (data != null) {
                throw new IllegalArgumentException("status " + status.wireName() + " carries no data");
            }
            if ((status == Status.REFUSED) != error.kind().isRefusal()) {
                throw new IllegalArgumentException("kind " + error.kind().wireName() + " does not go with status "
                        + status.wireName());
            }
        } else if (error != null) {
            throw new IllegalArgumentException("status " + status.wireName() + " carries no error");
        }
        if (status == Status.SUCCESS && data == null) {
            throw new IllegalArgumentException("status success needs data");
        }
        if ((status == Status.DEGRADED) != (degradationReason != null)) {
            throw new IllegalArgumentException("degradation_reason goes with status degraded, and only with it");
        }
        if (data != null) {
            data = withTokenEstimate(data);
        }
    }

    @JsonProperty("charter_version")
    public String charterVersion() {
        return CHARTER_VERSION;
    }

    public static Envelope success(ObjectNode data, Confidence confidence, Provenance provenance, List<String> hints) {
        return new Envelope(Status.SUCCESS, data, null, confidence, provenance, hints, null);
    }

    public static Envelope empty(ObjectNode data, List<String> hints) {
        return new Envelope(Status.EMPTY, data, null, null, null, hints, null);
    }

    public static Envelope error(ToolError error, List<String> hints) {
        return new Envelope(error.kind().isRefusal() ? Status.REFUSED : Status.ERROR, null, error, null, null, hints, null);
    }

    /**
     * A call that came too early (the server still starting, its catalog still loading), saying {@code why}:
     * index_not_ready, with the same call again as the recovery.
     */
    public static Envelope notReadyYet(String why, String tool, Map<String, Object> arguments) {
        return error(ToolError.of(ErrorKind.INDEX_NOT_READY, why, Recovery.call(tool, arguments)), List.of(tool));
    }

    /** The MCP {@code isError} flag: true for error and refused. */
    public boolean isError() {
        return status.isFailure();
    }

    public String toJson() {
        try {
            return JSON.writeValueAsString(this);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("an envelope always serializes", e);
        }
    }

    /**
     * The same JSON as {@link #toJson()} as a tree: an answer is serialized into it once, and both its text and
     * its structuredContent come from it.
     */
    public JsonNode toTree() {
        return JSON.valueToTree(this);
    }

    private static ObjectNode withTokenEstimate(ObjectNode data) {
        ObjectNode copy = data.deepCopy();
        copy.remove("token_estimate");
        // The estimate describes the payload it sits in; its own few characters are left out.
        copy.put("token_estimate", copy.toString().length() / 4);
        return copy;
    }
}
