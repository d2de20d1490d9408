package dev.schemabrain.mcp.server;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ser.DefaultSerializerProvider;
import dev.schemabrain.mcp.envelope.Envelope;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The codec warm-up builds what a session's first tool call would otherwise build: nothing is left for the call. */
class CodecWarmUpTest {

    /** The serializers the mapper has built so far (its cache, shared by every write). */
    private static int serializers(ObjectMapper mapper) {
        return ((DefaultSerializerProvider) mapper.getSerializerProvider()).cachedSerializersCount();
    }

    @Test
    void afterTheWarmUpAToolCallAndItsAnswerNeedNoNewSerializer() throws Exception {
        ObjectMapper mapper = new ObjectMapper();
        JacksonMcpJsonMapper json = new JacksonMcpJsonMapper(mapper);
        int before = serializers(mapper);
        McpToolAdapter.warmCodec(json);   // throws if the warm-up's own answer is not a valid envelope
        int warmed = serializers(mapper);
        assertTrue(warmed > before, "the warm-up built the answer's serializers: " + before + " -> " + warmed);

        McpSchema.CallToolRequest request = json.convertValue(Map.of("name", "describe_table", "arguments",
                Map.of("qualified_name", "public.invoice")), new TypeRef<McpSchema.CallToolRequest>() {
                });
        assertEquals("describe_table", request.name());
        var data = mapper.createObjectNode().put("table", "public.invoice");
        data.putArray("columns").addObject().put("name", "total").put("type", "numeric");
        byte[] answer = json.writeValueAsBytes(new McpSchema.JSONRPCResponse(McpSchema.JSONRPC_VERSION, 7,
                McpToolAdapter.result(Envelope.empty(data, List.of("describe_table"))), null));
        assertTrue(new String(answer, StandardCharsets.UTF_8).contains("public.invoice"));
        assertEquals(warmed, serializers(mapper),
                "a real answer found every serializer it needed already built");
    }
}
