package dev.schemabrain.mcp.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.mcp.envelope.EnvelopeSchema;
import dev.schemabrain.mcp.tool.Tool;
import dev.schemabrain.mcp.tool.ToolHints;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.mcp.tool.ToolSpec;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;

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
}
