package dev.schemabrain.testing;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemabrain.mcp.envelope.EnvelopeSchema;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import io.modelcontextprotocol.json.schema.jackson2.DefaultJsonSchemaValidator;
import io.modelcontextprotocol.spec.McpSchema;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What every tool result must satisfy on the wire: the envelope validates against the tool's
 * published outputSchema (a real JSON Schema validator), content[0].text is the same JSON, isError
 * matches the status, the charter invariants hold and no hint names a tool the server lacks.
 */
public final class EnvelopeChecks {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonSchemaValidator VALIDATOR = new DefaultJsonSchemaValidator();

    private EnvelopeChecks() {
    }

    /** Checks {@code result} and returns its envelope. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> envelope(McpSchema.CallToolResult result, Map<String, Object> outputSchema,
                                               Set<String> toolNames) throws Exception {
        assertNotNull(result.structuredContent(), "structuredContent carries the envelope");
        Map<String, Object> envelope = JSON.convertValue(result.structuredContent(), new TypeReference<>() { });
        JsonSchemaValidator.ValidationResponse valid = VALIDATOR.validate(outputSchema, envelope);
        assertTrue(valid.valid(), () -> "envelope fails the outputSchema: " + valid.errorMessage() + "\n" + envelope);
        JsonSchemaValidator.ValidationResponse strict = VALIDATOR.validate(EnvelopeSchema.strict(toolNames), envelope);
        assertTrue(strict.valid(), () -> "envelope fails the strict envelope schema: " + strict.errorMessage() + "\n" + envelope);
        String text = ((McpSchema.TextContent) result.content().get(0)).text();
        assertEquals(JSON.readTree(text), JSON.valueToTree(envelope), "content[0].text is the envelope");

        String status = (String) envelope.get("status");
        boolean failure = status.equals("error") || status.equals("refused");
        assertEquals(failure, Boolean.TRUE.equals(result.isError()), "isError is true exactly for error and refused");
        assertEquals(failure, envelope.get("error") != null, "error iff error/refused");
        if (failure) {
            assertNull(envelope.get("data"));
            Map<String, Object> recovery = (Map<String, Object>) ((Map<String, Object>) envelope.get("error")).get("recovery");
            Object tool = recovery.get("suggested_tool");
            assertTrue(tool == null || toolNames.contains(tool), "the recovery names a real tool: " + tool);
        } else {
            Map<String, Object> data = (Map<String, Object>) envelope.get("data");
            if (data != null) {
                Map<String, Object> withoutEstimate = new java.util.LinkedHashMap<>(data);
                Object estimate = withoutEstimate.remove("token_estimate");
                assertEquals(JSON.writeValueAsString(withoutEstimate).length() / 4, ((Number) estimate).intValue(),
                        "token_estimate is the payload's serialized length / 4");
            }
        }
        if (status.equals("success")) {
            assertNotNull(envelope.get("data"));
        }
        assertEquals(status.equals("degraded"), envelope.get("degradation_reason") != null);
        List<String> hints = (List<String>) envelope.get("follow_up_hints");
        assertFalse(hints.isEmpty());
        assertTrue(toolNames.containsAll(hints), "hints name real tools: " + hints);
        return envelope;
    }
}
