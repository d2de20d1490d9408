package dev.schemabrain.mcp.tools;

import dev.schemabrain.mcp.tool.Tool;
import dev.schemabrain.mcp.tool.ToolRegistry;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Which groups of the standard tools a server serves ({@code serve --tools}), for clients that want fewer tools in
 * their context. tools/list, the prompts (each needs all its tools) and the instructions follow the tools served.
 */
public record ToolGroups(Set<String> groups) {

    /** Each group's tools, in tools/list's order. */
    public static final Map<String, List<String>> GROUPS;

    static {
        Map<String, List<String>> g = new LinkedHashMap<>();
        g.put("catalog", List.of("list_indexed_schemas", "find_relevant_tables", "describe_table", "describe_column",
                "suggest_joins"));
        g.put("semantic", List.of("list_entities", "find_relevant_entities", "describe_entity", "list_joins",
                "resolve_join", "list_metrics", "find_relevant_metrics", "get_metric"));
        g.put("sql", List.of("validate_query", "execute"));
        g.put("examples", List.of("get_example_queries"));
        GROUPS = java.util.Collections.unmodifiableMap(g);
    }

    public static final ToolGroups ALL = new ToolGroups(GROUPS.keySet());

    public ToolGroups {
        groups = Set.copyOf(groups);
    }

    /** Why a --tools value is refused: one sentence. */
    public static final class Unknown extends IllegalArgumentException {
        Unknown(String message) {
            super(message);
        }
    }

    /**
     * Groups named in a comma-separated list, case and spaces ignored.
     *
     * @throws Unknown naming the groups there are, for an unknown or empty list
     */
    public static ToolGroups parse(String list) {
        Set<String> out = new LinkedHashSet<>();
        for (String part : list.split(",", -1)) {
            String name = part.strip().toLowerCase(Locale.ROOT);
            if (!GROUPS.containsKey(name)) {
                throw new Unknown("--tools " + (name.isEmpty() ? "has an empty group" : "names no group '"
                        + dev.schemabrain.mcp.server.ReadableText.clean(name) + "'") + "; the groups are "
                        + String.join(", ", GROUPS.keySet()) + " (comma-separated, default all).");
            }
            out.add(name);
        }
        return new ToolGroups(out);
    }

    /** The tools of these groups, in {@code all}'s order. */
    public ToolRegistry select(ToolRegistry all) {
        Set<String> names = new LinkedHashSet<>();
        groups.forEach(g -> names.addAll(GROUPS.get(g)));
        List<Tool> kept = new ArrayList<>();
        for (Tool t : all.tools()) {
            if (names.contains(t.spec().name())) {
                kept.add(t);
            }
        }
        return ToolRegistry.of(kept);
    }
}
