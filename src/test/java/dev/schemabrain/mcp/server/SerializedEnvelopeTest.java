package dev.schemabrain.mcp.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.mcp.envelope.EnvelopeSchema;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** An answer is serialised once: the response carries the content's text as structuredContent, on every path out. */
class SerializedEnvelopeTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static CallToolResult answer() {
        ObjectNode data = JSON.createObjectNode();
        data.put("table", "main.invoices").put("note", "a \"quoted\" value, a tab\t, é and a line\nbreak");
        data.putArray("amounts").add(new BigDecimal("66900")).add(0.5);
        return McpToolAdapter.result(Envelope.empty(data, List.of("describe_table")));
    }

    @Test
    void theSdksWriterAndTheTreePathBothCarryTheTextAsStructuredContent() throws Exception {
        CallToolResult result = answer();
        String text = ((McpSchema.TextContent) result.content().get(0)).text();
        // The stdio and HTTP transports write the result with the SDK's mapper.
        String written = new JacksonMcpJsonMapper(JSON).writeValueAsString(result);
        JsonNode parsed = JSON.readTree(written);
        assertEquals(JSON.readTree(text), parsed.get("structuredContent"));
        assertEquals(text, parsed.get("content").get(0).get("text").asText());
        assertTrue(written.contains("\"structuredContent\":" + text), "written as it is, not re-serialised");
        // The 2026-07-28 path turns the result into a tree first, then stamps and writes it.
        ObjectNode tree = JSON.valueToTree(result);
        JsonNode reparsed = JSON.readTree(JSON.writeValueAsBytes(tree));
        assertEquals(JSON.readTree(text), reparsed.get("structuredContent"));
    }

    @Test
    void theOutputCheckReadsTheTreeBehindTheText() {
        CallToolResult result = answer();
        assertTrue(new EnvelopeOutputCheck().validate(EnvelopeSchema.published(), result.structuredContent()).valid());
        ObjectNode partial = (ObjectNode) ((SerializedEnvelope) result.structuredContent()).tree().deepCopy();
        partial.remove("status");
        assertFalse(new EnvelopeOutputCheck().validate(EnvelopeSchema.published(),
                new SerializedEnvelope(partial, partial.toString())).valid());
    }
}
