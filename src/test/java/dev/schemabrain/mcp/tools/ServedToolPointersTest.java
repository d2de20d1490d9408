package dev.schemabrain.mcp.tools;

import dev.schemabrain.served.StoreCatalogProvider;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.mcp.envelope.Recovery;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.testing.InProcessCli;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A server of some tools never points an agent at one it does not serve: the follow-up hints and the recovery of
 * every answer name served tools, an absent one replaced by its stand-in (a call to it would be "unknown tool").
 */
class ServedToolPointersTest {

    @TempDir
    static Path dir;
    static ToolRegistry core;
    static ToolRegistry all;

    @BeforeAll
    static void demo() {
        Path store = dir.resolve("demo.db");
        InProcessCli.Result demo = InProcessCli.run("--store", store.toString(), "demo", "--events", "none", "--database",
                dir.resolve("demo.sqlite").toString());
        assertEquals(0, demo.exitCode(), demo.stderr());
        ToolRegistry every = StandardTools.registry(new StoreCatalogProvider(store), Optional.empty());
        core = ToolGroups.DEFAULT.select(every);
        all = ToolGroups.ALL.select(every);
    }

    @Test
    void hintsToAbsentToolsBecomeTheirStandInsOrGo() {
        Envelope full = all.call("describe_table", Map.of("qualified_name", "main.invoices"));
        assertEquals(List.of("describe_column", "suggest_joins", "get_example_queries"), full.followUpHints());
        Envelope lean = core.call("describe_table", Map.of("qualified_name", "main.invoices"));
        // describe_column's stand-in is describe_table (detailed); examples have none in the core.
        assertEquals(List.of("describe_table", "suggest_joins"), lean.followUpHints());
        assertEquals(full.data(), lean.data());
    }

    @Test
    void aRecoveryToAnAbsentToolTakesItsStandInWithArgumentsThatFitIt() {
        Recovery full = all.call("describe_entity", Map.of("name", "warehouse_bins")).error().recovery();
        Recovery lean = core.call("describe_entity", Map.of("name", "warehouse_bins")).error().recovery();
        assertTrue(List.of("find_relevant_entities", "list_entities").contains(full.suggestedTool()), full.toString());
        assertEquals("find_relevant_tables", lean.suggestedTool(), lean.toString());
        assertTrue(core.tool("find_relevant_tables").orElseThrow().spec().arguments().validate(lean.suggestedArgs()).isValid(),
                lean.toString());
        assertEquals(full.fuzzyMatches(), lean.fuzzyMatches());
    }

    @Test
    void everyAnswerOfTheCorePointsOnlyAtServedTools() {
        List<Envelope> answers = List.of(
                core.call("describe_table", Map.of("qualified_name", "nope")),
                core.call("describe_entity", Map.of("name", "nope")),
                core.call("describe_entity", Map.of("name", "invoices")),
                core.call("find_relevant_tables", Map.of("query", "revenue")),
                core.call("list_metrics", Map.of()),
                core.call("find_relevant_metrics", Map.of("query", "zzzz qqqq")),
                core.call("get_metric", Map.of("name", "nope")),
                core.call("get_metric", Map.of("name", "revenue", "grup_by", List.of("x"))),
                core.call("suggest_joins", Map.of("tables", List.of("main.invoices", "main.nope"))),
                core.call("execute", Map.of("sql", "SELECT 1")));
        for (Envelope answer : answers) {
            answer.followUpHints().forEach(h -> assertTrue(core.names().contains(h), h + " in " + answer.followUpHints()));
            assertEquals(List.of(), absentToolsNamed(core, answer), answer.toString());
            if (answer.error() != null && answer.error().recovery().suggestedTool() != null) {
                assertTrue(core.names().contains(answer.error().recovery().suggestedTool()), answer.error().toString());
            }
        }
    }

    /** Every standard tool's name that {@code registry} does not serve and {@code answer} mentions, in any field. */
    private static List<String> absentToolsNamed(ToolRegistry registry, Envelope answer) {
        String text = answer.toJson();
        return ToolGroups.GROUPS.values().stream().flatMap(List::stream).distinct()
                .filter(t -> !registry.names().contains(t))
                .filter(t -> Pattern.compile("\\b" + t + "\\b").matcher(text).find()).toList();
    }

    @Test
    void beforeAnythingIsIndexedEveryToolOfTheDefaultSetNamesOnlyServedTools() {
        ToolRegistry empty = ToolGroups.DEFAULT.select(StandardTools.registry(new StoreCatalogProvider(dir.resolve("none.db")), Optional.empty()));
        Map<String, Map<String, Object>> calls = Map.of(
                "find_relevant_tables", Map.of("query", "invoices"),
                "describe_table", Map.of("qualified_name", "main.invoices"),
                "suggest_joins", Map.of("tables", List.of("main.invoices", "main.customers")),
                "list_metrics", Map.of(),
                "find_relevant_metrics", Map.of("query", "revenue"),
                "describe_entity", Map.of("name", "invoices"),
                "get_metric", Map.of("name", "revenue"),
                "execute", Map.of("sql", "SELECT 1"));
        assertEquals(Set.copyOf(empty.names()), calls.keySet());
        calls.forEach((tool, arguments) -> {
            Envelope answer = empty.call(tool, arguments);
            assertEquals("index_not_ready", answer.error().kind().wireName(), tool + ": " + answer);
            assertEquals(List.of(), absentToolsNamed(empty, answer), tool + ": " + answer);
        });
    }

    @Test
    void aRecoveryToATableToolOnAServerOfSqlAloneKeepsItsMessageAndNamesNoTool() {
        ToolRegistry sqlOnly = ToolGroups.parse("sql").select(StandardTools.registry(new StoreCatalogProvider(dir.resolve("demo.db")), Optional.empty()));
        Envelope full = all.call("validate_query", Map.of("sql", "SELECT * FROM main.invoicez"));
        Envelope lean = sqlOnly.call("validate_query", Map.of("sql", "SELECT * FROM main.invoicez"));
        assertEquals(new Recovery("describe_table", Map.of("qualified_name", "main.invoices"),
                List.of("main.invoices", "main.invoice_line_items"), null, null), full.error().recovery());
        assertEquals(full.error().message(), lean.error().message());
        assertEquals(full.error().recovery().fuzzyMatches(), lean.error().recovery().fuzzyMatches());
        lean.followUpHints().forEach(h -> assertTrue(sqlOnly.names().contains(h), h));
        // describe_table has no stand-in among validate_query and execute: the recovery names no tool.
        assertEquals(new Recovery(null, Map.of(), List.of("main.invoices", "main.invoice_line_items"), null, null),
                lean.error().recovery());
        assertEquals(List.of("validate_query"), lean.followUpHints());
    }
}
