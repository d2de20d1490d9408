package dev.schemabrain.mcp.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.mcp.envelope.EnvelopeSchema;
import dev.schemabrain.mcp.tool.Tool;
import dev.schemabrain.mcp.tool.ToolHints;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.mcp.tool.ToolSpec;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What both transports give the SDK for the registry's tools: each tool's definition, and an answer as a result. */
public final class McpToolAdapter {

    private McpToolAdapter() {
    }

    /** Every tool's definition, in the registry's order: what tools/list returns. */
    public static List<McpSchema.Tool> definitions(ToolRegistry registry, ToolListing listing) {
        Map<String, Object> outputSchema = EnvelopeSchema.published();
        List<McpSchema.Tool> out = new ArrayList<>();
        for (Tool tool : registry.tools()) {
            out.add(listing.present(definition(tool.spec(), outputSchema)));
        }
        return out;
    }

    /** The MCP tool definition: the same one every tools/list returns. */
    public static McpSchema.Tool definition(ToolSpec spec, Map<String, Object> outputSchema) {
        ToolHints hints = spec.hints();
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("latency_hint", spec.latency().wireName());
        meta.put("side_effects", spec.sideEffects().wireName());
        return McpSchema.Tool.builder(spec.name(), spec.arguments().toInputSchema())
                .title(spec.title())
                .description(spec.description())
                .outputSchema(outputSchema)
                .annotations(McpSchema.ToolAnnotations.builder()
                        .readOnlyHint(hints.readOnly())
                        .destructiveHint(hints.destructive())
                        .idempotentHint(hints.idempotent())
                        .openWorldHint(hints.openWorld())
                        .build())
                .meta(meta)
                .build();
    }

    /** The envelope as structuredContent, the same JSON as content[0].text, isError for error and refused. */
    public static CallToolResult result(Envelope envelope) {
        JsonNode tree = envelope.toTree();
        // The one way out of every tool over stdio and HTTP: no answer echoes control or bidi characters.
        ReadableText.cleanEnvelope(tree);
        // One serialisation: the text is the content, and the response writes the same characters as structuredContent.
        String text = tree.toString();
        return CallToolResult.builder()
                .structuredContent(new SerializedEnvelope(tree, text))
                .content(List.of(TextContent.builder(text).build()))
                .isError(envelope.isError())
                .build();
    }

    /**
     * Builds {@code json}'s deserializer of a tools/call and serializers of its answer (an envelope as
     * {@link #result}), writing nothing: Jackson makes them on first use, which a session's first tool call
     * otherwise paid (about 15 ms with C1, most of it reflection over the SDK's records).
     */
    public static void warmCodec(McpJsonMapper json) throws IOException {
        json.convertValue(Map.of("name", "warm_up", "arguments", Map.of("query", "warm up")),
                new TypeRef<McpSchema.CallToolRequest>() {
                });
        CallToolResult answer = result(Envelope.empty(JsonNodeFactory.instance.objectNode().put("warm", "up"),
                List.of("warm_up")));
        json.writeValueAsBytes(new McpSchema.JSONRPCResponse(McpSchema.JSONRPC_VERSION, 0, answer, null));
    }

    /** {@link #warmCodec} on its own thread, beside the server's start; a failure only costs the first call its time. */
    public static void warmCodecAside(McpJsonMapper json) {
        Thread warm = new Thread(() -> {
            try {
                warmCodec(json);
            } catch (IOException | RuntimeException e) {
                LoggerFactory.getLogger(McpToolAdapter.class).debug("warming the JSON codec: {}", e.toString());
            }
        }, "schemabrain-codec");
        warm.setDaemon(true);
        warm.start();
    }
}
