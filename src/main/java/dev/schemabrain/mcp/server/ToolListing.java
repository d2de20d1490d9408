package dev.schemabrain.mcp.server;

import io.modelcontextprotocol.spec.McpSchema;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How tools/list presents the tools. Compact mode ({@code serve --compact-tools}) is for
 * clients that pay per token: descriptions capped at 140 characters, and the inputSchema keys a client
 * does not need to build a valid call (description, examples, title, default) left out. Validation is
 * unchanged: the server still holds every call to the full declaration.
 */
public enum ToolListing {
    FULL, COMPACT;

    static final int COMPACT_DESCRIPTION_CHARS = 140;
    private static final Set<String> NON_ESSENTIAL = Set.of("description", "examples", "title", "default");

    /** {@code tool} as this listing presents it. */
    public McpSchema.Tool present(McpSchema.Tool tool) {
        if (this == FULL) {
            return tool;
        }
        return McpSchema.Tool.builder(tool.name(), essential(tool.inputSchema()))
                .title(tool.title())
                .description(cap(tool.description()))
                .outputSchema(tool.outputSchema())
                .annotations(tool.annotations())
                .meta(tool.meta())
                .build();
    }

    static String cap(String description) {
        if (description == null || description.length() <= COMPACT_DESCRIPTION_CHARS) {
            return description;
        }
        String head = description.substring(0, COMPACT_DESCRIPTION_CHARS - 1);
        int space = head.lastIndexOf(' ');
        return (space > COMPACT_DESCRIPTION_CHARS / 2 ? head.substring(0, space) : head) + "…";
    }

    /** A schema without its non-essential keys, at every depth; property names are kept whatever they are. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> essential(Map<String, Object> schema) {
        Map<String, Object> out = new LinkedHashMap<>();
        schema.forEach((key, value) -> {
            if (NON_ESSENTIAL.contains(key)) {
                return;
            }
            if ((key.equals("properties") || key.equals("$defs")) && value instanceof Map<?, ?> named) {
                Map<String, Object> kept = new LinkedHashMap<>();
                ((Map<String, Object>) named).forEach((name, sub) -> kept.put(name, subSchema(sub)));
                out.put(key, kept);
            } else {
                out.put(key, subSchema(value));
            }
        });
        return out;
    }

    /** Schemas nest in objects (items, additionalProperties) and lists (anyOf, oneOf, allOf). */
    @SuppressWarnings("unchecked")
    private static Object subSchema(Object value) {
        if (value instanceof Map<?, ?> map) {
            return essential((Map<String, Object>) map);
        }
        if (value instanceof List<?> list) {
            List<Object> out = new ArrayList<>(list.size());
            list.forEach(v -> out.add(subSchema(v)));
            return out;
        }
        return value;
    }
}
