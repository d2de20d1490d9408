package dev.schemabrain.mcp.server;

import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.mcp.envelope.EnvelopeSchema;
import dev.schemabrain.mcp.tool.Tool;
import dev.schemabrain.mcp.tool.ToolHints;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.mcp.tool.ToolSpec;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Turns the registry's tools into the SDK's tool specifications: definition once, dispatch per call. */
public final class McpToolAdapter {

    private McpToolAdapter() {
    }

    public static List<SyncToolSpecification> specifications(ToolRegistry registry) {
        Map<String, Object> outputSchema = EnvelopeSchema.published();
        List<SyncToolSpecification> specs = new ArrayList<>();
        for (Tool tool : registry.tools()) {
            String name = tool.spec().name();
            specs.add(SyncToolSpecification.builder()
                    .tool(definition(tool.spec(), outputSchema))
                    .callHandler((exchange, request) -> result(registry.call(name, request.arguments(), caller(exchange))))
                    .build());
        }
        return specs;
    }

    /** "name/version" as the client introduced itself at initialize, or null. */
    private static String caller(io.modelcontextprotocol.server.McpSyncServerExchange exchange) {
        McpSchema.Implementation client = exchange.getClientInfo();
        return client == null ? null : client.name() + (client.version() == null ? "" : "/" + client.version());
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
        String text = envelope.toJson();
        return CallToolResult.builder()
                .structuredContent(envelope.toMap())
                .content(List.of(TextContent.builder(text).build()))
                .isError(envelope.isError())
                .build();
    }
}
