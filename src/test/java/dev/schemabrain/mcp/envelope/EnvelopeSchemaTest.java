package dev.schemabrain.mcp.envelope;

import dev.schemabrain.error.DegradationReason;
import dev.schemabrain.error.ErrorKind;
import dev.schemabrain.catalog.InferenceMethod;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.json.schema.jackson2.DefaultJsonSchemaValidator;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The published and strict envelope schemas accept real envelopes and reject broken ones. */
class EnvelopeSchemaTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> TOOLS = List.of("describe_table", "find_relevant_tables");
    private final DefaultJsonSchemaValidator validator = new DefaultJsonSchemaValidator();

    private static Map<String, Object> map(Envelope envelope) throws Exception {
        return JSON.readValue(envelope.toJson(), new TypeReference<LinkedHashMap<String, Object>>() { });
    }

    private boolean strict(Map<String, Object> envelope) {
        return validator.validate(EnvelopeSchema.strict(TOOLS), envelope).valid();
    }

    private boolean published(Map<String, Object> envelope) {
        return validator.validate(EnvelopeSchema.published(), envelope).valid();
    }

    private Map<String, Object> broken(Envelope envelope, Consumer<Map<String, Object>> change) throws Exception {
        Map<String, Object> m = map(envelope);
        change.accept(m);
        return m;
    }

    @Test
    void realEnvelopesPassBoth() throws Exception {
        Envelope success = Envelope.success(JSON.createObjectNode().put("x", 1), Confidence.HIGH,
                Provenance.schema(InferenceMethod.FK_CONSTRAINT), List.of("describe_table"));
        Envelope error = Envelope.error(ToolError.of(ErrorKind.UNKNOWN_NAME, "No such table.",
                Recovery.call("find_relevant_tables", Map.of("query", "x"))), List.of("find_relevant_tables"));
        Envelope degraded = new Envelope(Status.DEGRADED, JSON.createObjectNode(), null, null, null,
                List.of("describe_table"), DegradationReason.FAN_OUT_JOIN);
        for (Envelope e : List.of(success, error, degraded)) {
            assertTrue(strict(map(e)), e.toJson());
            assertTrue(published(map(e)), e.toJson());
        }
    }

    @Test
    void theStrictSchemaCatchesBrokenInvariantsAndUnknownNames() throws Exception {
        Envelope success = Envelope.success(JSON.createObjectNode(), null, null, List.of("describe_table"));
        Envelope error = Envelope.error(ToolError.of(ErrorKind.UNKNOWN_NAME, "No such table.",
                Recovery.call("describe_table", Map.of())), List.of("describe_table"));
        assertFalse(strict(broken(success, m -> m.put("follow_up_hints", List.of("drop_table")))));
        assertFalse(strict(broken(success, m -> m.put("follow_up_hints", List.of()))));
        assertFalse(strict(broken(success, m -> m.put("degradation_reason", "fan_out_join"))), "reason without degraded");
        assertFalse(strict(broken(success, m -> m.put("data", null))), "success without data");
        assertFalse(strict(broken(error, m -> m.put("data", Map.of("token_estimate", 1)))), "error with data");
        assertFalse(strict(broken(error, m -> ((Map<String, Object>) m.get("error")).put("kind", "oops"))));
        assertFalse(strict(broken(error, m -> ((Map<String, Object>) ((Map<String, Object>) m.get("error"))
                .get("recovery")).put("suggested_tool", "drop_table"))));
        assertFalse(strict(broken(success, m -> m.put("status", "ok"))));
        // The published schema (every tool's outputSchema, 13 times in tools/list) holds the shape only.
        assertFalse(published(broken(success, m -> m.remove("status"))));
        assertFalse(published(broken(success, m -> m.remove("charter_version"))));
    }
}
