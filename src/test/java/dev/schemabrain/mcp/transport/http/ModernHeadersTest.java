package dev.schemabrain.mcp.transport.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schemabrain.audit.AuditLog;
import dev.schemabrain.audit.AuditRecord;
import dev.schemabrain.mcp.server.ModernEra;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The 2026-07-28 routing headers over HTTP (SEP-2243): a gateway routes on Mcp-Method and Mcp-Name, so a body
 * saying otherwise must never reach a tool (400 and -32020, no audit row of a call that ran).
 */
class ModernHeadersTest extends HttpEdgeContractTest {

    @Test
    void aMethodHeaderDisagreeingWithTheBodyIsRefused() throws Exception {
        assertMismatch(h -> h.put("Mcp-Method", "tools/list"));
    }

    @Test
    void aNameHeaderNamingAnotherToolIsRefusedBeforeTheTool() throws Exception {
        long baseline = lastRow();
        assertMismatch(h -> h.put("Mcp-Name", "describe_table"));
        Thread.sleep(150);
        assertEquals(baseline, lastRow(), "a refused call leaves no row of a tool that ran");
    }

    @Test
    void aMissingMethodOrNameHeaderIsRefused() throws Exception {
        assertMismatch(h -> h.remove("Mcp-Method"));
        assertMismatch(h -> h.remove("Mcp-Name"));
        assertMismatch(h -> h.remove("MCP-Protocol-Version"));
    }

    @Test
    void aVersionHeaderDisagreeingWithTheBodyIsRefused() throws Exception {
        assertMismatch(h -> h.put("MCP-Protocol-Version", "2025-11-25"));
    }

    @Test
    void aBase64NameHeaderIsReadAsTheName() throws Exception {
        ObjectNode message = modern(call(4, "list_metrics", JSON.createObjectNode()));
        Map<String, String> headers = routing(message);
        headers.put("Mcp-Name", "=?base64?" + Base64.getEncoder().encodeToString("list_metrics".getBytes(StandardCharsets.UTF_8)) + "?=");
        JsonNode reply = reply(HTTP.send(modernPost(message, headers).build(), HttpResponse.BodyHandlers.ofString()));
        assertEquals("success", reply.path("result").path("structuredContent").path("status").asText(), reply::toString);
    }

    private void assertMismatch(Consumer<Map<String, String>> change) throws Exception {
        ObjectNode message = modern(call(3, "list_metrics", JSON.createObjectNode()));
        Map<String, String> headers = routing(message);
        change.accept(headers);
        HttpResponse<String> r = HTTP.send(modernPost(message, headers).build(), HttpResponse.BodyHandlers.ofString());
        JsonNode reply = JSON.readTree(r.body());
        assertEquals(400, r.statusCode(), r::body);
        assertEquals(ModernEra.HEADER_MISMATCH, reply.path("error").path("code").asInt(), r::body);
        assertEquals(3, reply.path("id").asInt(), r::body);
        assertTrue(reply.path("error").path("message").asText().endsWith("."), r::body);
    }

    private static long lastRow() throws Exception {
        try (AuditLog log = AuditLog.openExisting(fixture.store())) {
            return log.list(1, OptionalLong.empty()).stream().mapToLong(AuditRecord::id).max().orElse(0);
        }
    }
}
