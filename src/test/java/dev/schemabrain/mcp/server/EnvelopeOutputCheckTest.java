package dev.schemabrain.mcp.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schemabrain.error.ErrorKind;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.mcp.envelope.EnvelopeSchema;
import dev.schemabrain.mcp.envelope.Recovery;
import dev.schemabrain.mcp.envelope.ToolError;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import io.modelcontextprotocol.json.schema.jackson2.DefaultJsonSchemaValidator;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Our check of answers against the published outputSchema agrees with the SDK's JSON Schema validator on every case. */
class EnvelopeOutputCheckTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void itAgreesWithTheSdksValidatorOnEnvelopesAndOnWhatIsNotOne() throws Exception {
        JsonSchemaValidator sdk = new DefaultJsonSchemaValidator();
        JsonSchemaValidator ours = new EnvelopeOutputCheck();
        Map<String, Object> schema = EnvelopeSchema.published();
        JsonNode success = Envelope.empty(JSON.createObjectNode(), List.of("describe_table")).toTree();
        JsonNode error = Envelope.error(ToolError.of(ErrorKind.UNKNOWN_NAME, "No such table.", Recovery.call("find_relevant_tables",
                Map.of("query", "*"))), List.of("find_relevant_tables")).toTree();
        List<Object> cases = new ArrayList<>(List.of(success, error, JSON.createArrayNode(), JSON.getNodeFactory().textNode("x"),
                JSON.createObjectNode()));
        for (String dropped : List.of("status", "data", "error", "provenance", "charter_version")) {
            ObjectNode without = ((ObjectNode) success.deepCopy());
            without.remove(dropped);
            cases.add(without);
        }
        cases.add(JSON.convertValue(success, LinkedHashMap.class));   // the same answer as a map
        int valid = 0;
        for (Object content : cases) {
            boolean theirs = sdk.validate(schema, content).valid();
            assertEquals(theirs, ours.validate(schema, content).valid(), () -> "disagree on " + content);
            valid += theirs ? 1 : 0;
        }
        assertEquals(3, valid, "the two envelopes and the map are valid, the rest are not");
    }

    @Test
    void aMissingFieldIsNamedAndAnotherSchemaIsNotPassed() {
        ObjectNode partial = (ObjectNode) Envelope.empty(JSON.createObjectNode(), List.of("describe_table")).toTree();
        partial.remove("provenance");
        JsonSchemaValidator.ValidationResponse r = new EnvelopeOutputCheck().validate(EnvelopeSchema.published(), partial);
        assertFalse(r.valid());
        assertEquals("the answer is not an envelope: it lacks provenance", r.errorMessage());
        assertTrue(!new EnvelopeOutputCheck().validate(Map.of("type", "object"), partial).valid());
    }
}
