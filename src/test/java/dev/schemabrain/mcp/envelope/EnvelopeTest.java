package dev.schemabrain.mcp.envelope;

import dev.schemabrain.error.DegradationReason;
import dev.schemabrain.error.ErrorKind;
import dev.schemabrain.catalog.ValidationState;
import dev.schemabrain.catalog.InferenceMethod;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EnvelopeTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static final List<String> HINTS = List.of("describe_table");

    static ObjectNode data() {
        ObjectNode data = JSON.createObjectNode();
        data.putArray("hits").add("public.invoice");
        return data;
    }

    static ToolError unknownName() {
        return ToolError.of(ErrorKind.UNKNOWN_NAME, "No table named public.invoices.",
                Recovery.call("describe_table", Map.of("qualified_name", "public.invoice")).withFuzzyMatches(List.of("public.invoice")));
    }

    @Test
    void successSerializesEveryKeyInSnakeCase() throws Exception {
        Envelope e = Envelope.success(data(), Confidence.HIGH, Provenance.schema(InferenceMethod.FK_CONSTRAINT), HINTS);
        JsonNode json = JSON.readTree(e.toJson());
        assertEquals(List.of("status", "data", "error", "confidence", "provenance", "follow_up_hints",
                "degradation_reason", "charter_version"), iterator(json));
        assertEquals("success", json.get("status").asText());
        assertTrue(json.get("error").isNull());
        assertTrue(json.get("degradation_reason").isNull());
        assertEquals("1.4", json.get("charter_version").asText());
        assertEquals("fk_constraint", json.get("provenance").get("inference_method").asText());
        assertEquals("applied", json.get("provenance").get("validation_state").asText());
        assertEquals("HIGH", json.get("confidence").asText());
        int estimate = json.get("data").get("token_estimate").asInt();
        assertEquals("{\"hits\":[\"public.invoice\"]}".length() / 4, estimate);
        assertFalse(e.isError());
    }

    @Test
    void errorsCarryARecoveryAndNoData() throws Exception {
        Envelope e = Envelope.error(unknownName(), HINTS);
        assertEquals(Status.ERROR, e.status());
        assertTrue(e.isError());
        JsonNode json = JSON.readTree(e.toJson());
        assertTrue(json.get("data").isNull());
        JsonNode error = json.get("error");
        assertEquals("unknown_name", error.get("kind").asText());
        assertEquals("describe_table", error.get("recovery").get("suggested_tool").asText());
        assertEquals("public.invoice", error.get("recovery").get("fuzzy_matches").get(0).asText());
        assertTrue(error.get("recovery").get("suggested_rewrite").isNull());
        assertEquals(0, error.get("pii_categories").size());
    }

    @Test
    void refusalKindsGoWithRefused() {
        ToolError pii = new ToolError(ErrorKind.PII_BLOCKED, "The metric would reveal payment card data.",
                Recovery.call("describe_entity", Map.of("name", "payment")), List.of("payment_card"));
        Envelope e = Envelope.error(pii, HINTS);
        assertEquals(Status.REFUSED, e.status());
        assertTrue(e.isError());
        assertThrows(IllegalArgumentException.class,
                () -> new Envelope(Status.ERROR, null, pii, null, null, HINTS, null));
        assertThrows(IllegalArgumentException.class,
                () -> new Envelope(Status.REFUSED, null, unknownName(), null, null, HINTS, null));
    }

    @Test
    void invariantsHold() {
        assertThrows(IllegalArgumentException.class, () -> new Envelope(Status.ERROR, null, null, null, null, HINTS, null));
        assertThrows(IllegalArgumentException.class, () -> new Envelope(Status.ERROR, data(), unknownName(), null, null, HINTS, null));
        assertThrows(IllegalArgumentException.class, () -> new Envelope(Status.SUCCESS, null, null, null, null, HINTS, null));
        assertThrows(IllegalArgumentException.class, () -> new Envelope(Status.SUCCESS, data(), unknownName(), null, null, HINTS, null));
        assertThrows(IllegalArgumentException.class,
                () -> new Envelope(Status.SUCCESS, data(), null, null, null, HINTS, DegradationReason.FAN_OUT_JOIN));
        assertThrows(IllegalArgumentException.class, () -> new Envelope(Status.DEGRADED, data(), null, null, null, HINTS, null));
        assertThrows(IllegalArgumentException.class, () -> new Envelope(Status.EMPTY, data(), null, null, null, List.of(), null));
        assertThrows(IllegalArgumentException.class, () -> new Envelope(Status.EMPTY, data(), null, null, null,
                List.of("a", "b", "c", "d"), null));
        assertThrows(IllegalArgumentException.class, () -> new ToolError(ErrorKind.UNKNOWN_NAME, "x",
                new Recovery("describe_table", Map.of(), List.of(), "SELECT 1", null), List.of()));
        assertThrows(IllegalArgumentException.class, () -> ToolError.of(ErrorKind.UNKNOWN_NAME, " ", Recovery.call("t", Map.of())));
        Envelope degraded = new Envelope(Status.DEGRADED, data(), null, Confidence.MEDIUM, null, HINTS, DegradationReason.FAN_OUT_JOIN);
        assertEquals("fan_out_join", JSON.valueToTree(degraded).get("degradation_reason").asText());
    }

    @Test
    void confidenceIsDerivedFromTheTwoAxes() {
        for (InferenceMethod m : InferenceMethod.values()) {
            assertEquals(Confidence.HIGH, Confidence.derive(ValidationState.CONFIRMED, m));
        }
        assertEquals(Confidence.HIGH, Confidence.derive(ValidationState.APPLIED, InferenceMethod.MANUALLY_AUTHORED));
        assertEquals(Confidence.HIGH, Confidence.derive(ValidationState.APPLIED, InferenceMethod.DB_COMMENT));
        assertEquals(Confidence.MEDIUM, Confidence.derive(ValidationState.APPLIED, InferenceMethod.LLM_SUGGESTED));
        assertEquals(Confidence.MEDIUM, Confidence.derive(ValidationState.DRAFT, InferenceMethod.FK_CONSTRAINT));
        assertEquals(Confidence.MEDIUM, Confidence.derive(ValidationState.DRAFT, InferenceMethod.DBT_IMPORT));
        assertEquals(Confidence.LOW, Confidence.derive(ValidationState.DRAFT, InferenceMethod.HEURISTIC));
        assertEquals(Confidence.LOW, Confidence.derive(ValidationState.DRAFT, InferenceMethod.OBSERVED_IN_QUERY_LOG));

        assertEquals(Confidence.HIGH, Confidence.fromScore(0.8));
        assertEquals(Confidence.MEDIUM, Confidence.fromScore(0.79));
        assertEquals(Confidence.MEDIUM, Confidence.fromScore(0.5));
        assertEquals(Confidence.LOW, Confidence.fromScore(0.49));
        assertEquals(Confidence.LOW, Confidence.worst(List.of(Confidence.HIGH, Confidence.LOW, Confidence.MEDIUM)).orElseThrow());
        assertTrue(Confidence.worst(List.of()).isEmpty());
    }

    static List<String> iterator(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    @Test
    void aWholeDecimalStaysPlainInTheTreeAndItsText() {
        // MariaDB's SUM of cents is a DECIMAL: 66900 was sent as 6.69E+4 once the tree stripped its zeros.
        ObjectNode data = new ObjectMapper().createObjectNode();
        data.putPOJO("sum", new BigDecimal("66900"));
        data.putPOJO("avg", new BigDecimal("112.3"));
        String text = Envelope.success(data, Confidence.HIGH, Provenance.schema(InferenceMethod.FK_CONSTRAINT),
                List.of("get_metric")).toTree().toString();
        Assertions.assertTrue(text.contains("\"sum\":66900,") && text.contains("\"avg\":112.3"), text);
    }
}
