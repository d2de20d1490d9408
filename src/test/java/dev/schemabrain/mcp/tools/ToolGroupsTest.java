package dev.schemabrain.mcp.tools;

import dev.schemabrain.mcp.server.Prompts;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** serve --tools: the groups, what each serves, and the prompts that follow. */
class ToolGroupsTest {

    static final List<String> ALL = StandardTools.registry(Optional::empty, Optional.empty()).names();

    @Test
    void everyStandardToolIsInExactlyOneGroupBesideCore() {
        // A new tool not put in a group would silently vanish from a server started with --tools.
        List<String> grouped = new ArrayList<>();
        ToolGroups.GROUPS.forEach((group, tools) -> {
            if (!group.equals("core")) {
                grouped.addAll(tools);
            }
        });
        assertEquals(ALL.stream().sorted().toList(), grouped.stream().sorted().toList());
        assertEquals(ALL, ToolGroups.ALL.select(StandardTools.registry(Optional::empty, Optional.empty())).names());
    }

    @Test
    void aSubsetKeepsTheListsOrderAndIgnoresCaseAndSpaces() {
        assertEquals(List.of("list_indexed_schemas", "find_relevant_tables", "describe_table", "describe_column",
                        "suggest_joins", "validate_query", "execute"),
                ToolGroups.parse(" SQL,catalog ").select(StandardTools.registry(Optional::empty, Optional.empty())).names());
    }

    @Test
    void thePromptsFollowTheToolsServed() {
        List<String> catalogOnly = Prompts.forTools(ToolGroups.parse("catalog").select(StandardTools.registry(Optional::empty, Optional.empty()))
                .names()).definitions().stream().map(p -> p.name()).toList();
        assertEquals(List.of("whats_in_this_database", "tell_me_about_a_domain", "how_do_these_tables_relate"), catalogOnly);
        List<String> semantic = Prompts.forTools(ToolGroups.parse("semantic").select(StandardTools.registry(Optional::empty, Optional.empty()))
                .names()).definitions().stream().map(p -> p.name()).toList();
        assertEquals(List.of("aggregate_something"), semantic);
    }

    @Test
    void theDefaultIsTheCoreAndAllIsEveryTool() {
        assertEquals(List.of("find_relevant_tables", "describe_table", "suggest_joins", "describe_entity", "list_metrics",
                "find_relevant_metrics", "get_metric", "execute"), ToolGroups.DEFAULT.select(StandardTools.registry(Optional::empty, Optional.empty())).names());
        assertEquals(ALL, ToolGroups.parse("all").select(StandardTools.registry(Optional::empty, Optional.empty())).names());
        assertEquals(ALL, ToolGroups.parse("core,all").select(StandardTools.registry(Optional::empty, Optional.empty())).names());
    }

    @Test
    void theDefaultServesFourOfTheFivePromptsAndExamplesAddTheFifth() {
        List<String> core = Prompts.forTools(ToolGroups.DEFAULT.select(StandardTools.registry(Optional::empty, Optional.empty())).names())
                .definitions().stream().map(p -> p.name()).toList();
        assertEquals(List.of("whats_in_this_database", "tell_me_about_a_domain", "how_do_these_tables_relate",
                "aggregate_something"), core);
        assertEquals(5, Prompts.forTools(ToolGroups.parse("core,examples").select(StandardTools.registry(Optional::empty, Optional.empty()))
                .names()).definitions().size());
    }

    @Test
    void anUnknownOrEmptyGroupIsOneSentenceNamingTheGroups() {
        assertEquals("--tools names no group 'tables'; the groups are catalog, semantic, sql, examples, core and all"
                + " (comma-separated, default core).", assertThrows(ToolGroups.Unknown.class, () -> ToolGroups.parse("catalog,tables")).getMessage());
        assertEquals("--tools has an empty group; the groups are catalog, semantic, sql, examples, core and all"
                + " (comma-separated, default core).", assertThrows(ToolGroups.Unknown.class, () -> ToolGroups.parse("catalog,")).getMessage());
    }
}
