package dev.schemabrain.mcp.tools;

import dev.schemabrain.audit.ClientText;
import dev.schemabrain.mcp.tool.Tool;
import dev.schemabrain.mcp.tool.ToolRegistry;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Which groups of the standard tools a server serves ({@code serve --tools}). The default, {@code core}, is the
 * find → describe → compute path an agent needs for most questions, in a tools/list of at most 8,000 bytes; the
 * other tools are groups to add ({@code all} serves every tool). tools/list, the prompts (each needs all its tools),
 * the instructions and the tools an answer points to follow the tools served.
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
        // The default: search, describe, relate, compute a governed metric, and SQL when no metric answers.
        g.put("core", List.of("find_relevant_tables", "describe_table", "suggest_joins", "list_metrics",
                "find_relevant_metrics", "describe_entity", "get_metric", "execute"));
        GROUPS = Collections.unmodifiableMap(g);
    }

    /** Every group: each of the standard tools. */
    public static final ToolGroups ALL = new ToolGroups(GROUPS.keySet());

    /** What {@code serve} serves without {@code --tools}. */
    public static final ToolGroups DEFAULT = new ToolGroups(Set.of("core"));

    /**
     * The tool an answer points to instead of one that is not served, and the arguments it needs when the answer's
     * own do not fit it: a hint or recovery naming an absent tool would send the agent to "unknown tool".
     */
    static final Map<String, StandIn> STAND_INS = Map.of(
            "list_indexed_schemas", new StandIn("find_relevant_tables", Map.of("query", "*")),
            "describe_column", new StandIn("describe_table", Map.of()),
            "list_entities", new StandIn("find_relevant_entities", Map.of("query", "*")),
            "find_relevant_entities", new StandIn("find_relevant_tables", Map.of()),
            "list_joins", new StandIn("describe_entity", Map.of()),
            "resolve_join", new StandIn("describe_entity", Map.of()),
            "list_metrics", new StandIn("find_relevant_metrics", Map.of("query", "*")),
            "find_relevant_metrics", new StandIn("list_metrics", Map.of()),
            "validate_query", new StandIn("execute", Map.of()));

    /** {@code tool}, and the arguments to suggest with it when the original's do not fit. */
    record StandIn(String tool, Map<String, Object> arguments) {
    }

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
            if (name.equals("all")) {
                out.addAll(GROUPS.keySet());
                continue;
            }
            if (!GROUPS.containsKey(name)) {
                throw new Unknown("--tools " + (name.isEmpty() ? "has an empty group" : "names no group '"
                        + ClientText.clean(name, 80) + "'") + "; the groups are "
                        + String.join(", ", GROUPS.keySet()) + " and all (comma-separated, default core).");
            }
            out.add(name);
        }
        return new ToolGroups(out);
    }

    /** The names of these groups' tools: what is served, known before any tool is built. */
    public Set<String> names() {
        Set<String> names = new LinkedHashSet<>();
        groups.forEach(g -> names.addAll(GROUPS.get(g)));
        return names;
    }

    /** The tools of these groups, in {@code all}'s order. */
    public ToolRegistry select(ToolRegistry all) {
        Set<String> names = names();
        List<Tool> kept = new ArrayList<>();
        for (Tool t : all.tools()) {
            if (names.contains(t.spec().name())) {
                kept.add(t);
            }
        }
        return ToolRegistry.of(kept).pointingWithin(ToolGroups::standIn);
    }

    /** The served tool that stands in for {@code absent}, following stand-ins until one is served; empty if none. */
    public static Optional<ToolRegistry.Pointer> standIn(String absent, Predicate<String> served) {
        String name = absent;
        Map<String, Object> arguments = null;
        for (int hop = 0; hop < STAND_INS.size() && !served.test(name); hop++) {
            StandIn next = STAND_INS.get(name);
            if (next == null) {
                return Optional.empty();
            }
            name = next.tool();
            // A hop without arguments of its own keeps the last ones (list_entities' query "*" fits find_relevant_tables).
            arguments = next.arguments().isEmpty() && arguments != null ? arguments : next.arguments();
        }
        return served.test(name) ? Optional.of(new ToolRegistry.Pointer(name, arguments)) : Optional.empty();
    }
}
