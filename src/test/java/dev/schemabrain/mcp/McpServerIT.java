package dev.schemabrain.mcp;

import dev.schemabrain.index.IndexListener;
import dev.schemabrain.index.Indexer;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.source.Sources;
import dev.schemabrain.testing.EnvelopeChecks;
import dev.schemabrain.testing.McpStdio;
import dev.schemabrain.testing.TestPostgres;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The MCP server end to end: the SDK's McpSyncClient starts {@code schemabrain serve} from the packaged
 * jar over stdio, on a store indexed from Chinook in a real PostgreSQL; every tool, every status it can
 * produce, every envelope validated against the tool's published outputSchema.
 */
@SuppressWarnings("unchecked")
class McpServerIT {

    @TempDir
    static Path dir;
    static McpSyncClient client;
    static final StringBuffer stderr = new StringBuffer();
    static Map<String, McpSchema.Tool> tools;

    @BeforeAll
    static void indexChinookAndConnect() throws Exception {
        TestPostgres.loadSample("chinook", "chinook.sql");
        SourceUrl url = SourceUrl.parse(TestPostgres.url("chinook"));
        try (SchemaSource source = Sources.open(url)) {
            new Indexer().run(url, source, dir.resolve("chinook.db"), false, IndexListener.SILENT);
        }
        // The source reaches the server the preferred way: by the name of an environment variable.
        client = McpStdio.client(dir.resolve("chinook.db"), stderr, Map.of("SB_IT_SOURCE", TestPostgres.url("chinook")),
                "--url-env", "SB_IT_SOURCE");
        tools = client.listTools().tools().stream().collect(Collectors.toMap(McpSchema.Tool::name, t -> t));
    }

    @AfterAll
    static void close() {
        if (client != null) {
            client.closeGracefully();
        }
    }

    static Map<String, Object> call(String tool, Map<String, Object> arguments) throws Exception {
        McpSchema.CallToolResult result = McpStdio.call(client, tool, arguments);
        return EnvelopeChecks.envelope(result, tools.get(tool).outputSchema(), tools.keySet());
    }

    static Map<String, Object> data(Map<String, Object> envelope) {
        return (Map<String, Object>) envelope.get("data");
    }

    static Map<String, Object> error(Map<String, Object> envelope) {
        return (Map<String, Object>) envelope.get("error");
    }

    static Map<String, Object> recovery(Map<String, Object> envelope) {
        return (Map<String, Object>) error(envelope).get("recovery");
    }

    static void assertError(Map<String, Object> envelope, String kind) {
        assertEquals("error", envelope.get("status"), () -> envelope.toString());
        assertEquals(kind, error(envelope).get("kind"), () -> envelope.toString());
    }

    // ------------------------------------------------------------------ protocol and tools/list

    @Test
    void initializeNegotiatesTheCurrentProtocolAndNamesTheWorkflows() {
        McpSchema.InitializeResult init = client.getCurrentInitializationResult();
        assertEquals("2025-11-25", init.protocolVersion());
        assertEquals("schemabrain", init.serverInfo().name());
        assertEquals(System.getProperty("schemabrain.version"), init.serverInfo().version());
        assertTrue(init.instructions().contains("find_relevant_tables") && init.instructions().contains("suggest_joins"));
        assertTrue(init.instructions().contains("list_metrics, then describe_entity for the metric's entity, then get_metric"),
                "the aggregating workflow, now that its tools are offered");
    }

    @Test
    void everyToolPublishesTheEnvelopeSchemaInputsAndReadOnlyAnnotations() {
        assertEquals(Set.of("list_indexed_schemas", "find_relevant_tables", "describe_table", "describe_column",
                "suggest_joins", "get_example_queries", "list_entities", "find_relevant_entities", "describe_entity",
                "list_joins", "resolve_join", "list_metrics", "find_relevant_metrics", "get_metric", "validate_query", "execute"), tools.keySet());
        Map<String, Object> first = null;
        for (McpSchema.Tool tool : tools.values()) {
            assertTrue(tool.description().startsWith("Use this when") && tool.description().length() <= 500, tool.name());
            // The published form: the validator holds unknown arguments and lengths (ArgSchema.toInputSchema).
            assertFalse(tool.inputSchema().containsKey("additionalProperties"), tool.name());
            assertEquals("object", tool.inputSchema().get("type"));
            Map<String, Object> output = tool.outputSchema();
            assertEquals(List.of("status", "data", "error", "confidence", "provenance", "follow_up_hints",
                    "degradation_reason", "charter_version"), output.get("required"));
            if (first != null) {
                assertEquals(first, output, "one envelope schema for every tool");
            }
            first = output;
            McpSchema.ToolAnnotations a = tool.annotations();
            // get_metric, validate_query (its EXPLAIN) and execute reach the source database; the others read the store.
            boolean source = List.of("get_metric", "validate_query", "execute").contains(tool.name());
            assertEquals(List.of(true, false, true, source),
                    List.of(a.readOnlyHint(), a.destructiveHint(), a.idempotentHint(), a.openWorldHint()), tool.name());
            boolean slow = source && !tool.name().equals("validate_query");
            assertEquals(slow ? "slow" : "fast", tool.meta().get("latency_hint"), tool.name());
        }
        Map<String, Object> describe = (Map<String, Object>) tools.get("describe_table").inputSchema().get("properties");
        assertEquals(List.of("concise", "detailed"), ((Map<String, Object>) describe.get("response_format")).get("enum"));
        assertEquals(List.of("qualified_name"), tools.get("describe_table").inputSchema().get("required"));
    }

    /** One declaration: what tools/list publishes for a filter is what the server holds a call to. */
    @Test
    void getMetricPublishesItsFilterFieldsAndAnswersABadOneWithTheirPath() throws Exception {
        Map<String, Object> properties = (Map<String, Object>) tools.get("get_metric").inputSchema().get("properties");
        Map<String, Object> filter = (Map<String, Object>) ((Map<String, Object>) properties.get("filters")).get("items");
        assertEquals("object", filter.get("type"));
        assertEquals(List.of("column", "op", "value", "other_column"), List.copyOf(((Map<String, Object>) filter.get("properties")).keySet()));
        assertEquals(List.of("column", "op"), filter.get("required"));
        assertFalse(filter.containsKey("additionalProperties"), "the validator refuses an unknown field, with its path");
        Map<String, Object> op = (Map<String, Object>) ((Map<String, Object>) filter.get("properties")).get("op");
        assertEquals(List.of("eq", "ne", "lt", "lte", "gt", "gte", "in", "not_in", "is_null", "not_null"), op.get("enum"));
        Map<String, Object> order = (Map<String, Object>) ((Map<String, Object>) properties.get("order_by")).get("items");
        assertEquals(List.of("asc", "desc"), ((Map<String, Object>) ((Map<String, Object>) order.get("properties")).get("direction")).get("enum"));

        Map<String, Object> bad = call("get_metric", Map.of("name", "invoice_total_sum", "filters", List.of(
                Map.of("column", "invoice.total", "op", "gt", "value", 1), Map.of("column", "invoice.total", "op", "between", "value", 1))));
        assertError(bad, "invalid_argument");
        assertTrue(((String) error(bad).get("message")).startsWith("Invalid arguments for get_metric: argument 'filters[1].op' "
                + "must be one of the enum values: eq, ne, lt, lte, gt, gte, in, not_in, is_null, not_null."), () -> bad.toString());
        // The bad filter cannot be kept, and a retry without it would be another question's number.
        assertEquals("list_metrics", recovery(bad).get("suggested_tool"));
        assertEquals(Map.of(), recovery(bad).get("suggested_args"));
    }

    @Test
    void anUnknownToolIsAProtocolErrorNamingTheClosestTool() {
        McpError e = assertThrows(McpError.class, () -> McpStdio.call(client, "describe_tabel", Map.of()));
        assertTrue(e.getMessage().contains("did you mean describe_table?"), e.getMessage());
    }

    // ------------------------------------------------------------------ list_indexed_schemas

    @Test
    void listIndexedSchemasShowsChinook() throws Exception {
        Map<String, Object> env = call("list_indexed_schemas", Map.of());
        assertEquals("success", env.get("status"));
        List<Map<String, Object>> schemas = (List<Map<String, Object>>) data(env).get("schemas");
        assertEquals(1, schemas.size());
        assertEquals("public", schemas.get(0).get("schema"));
        assertEquals(11, schemas.get(0).get("tables"));
        assertEquals(64, schemas.get(0).get("columns"));
        assertEquals(11, data(env).get("total_tables"));
    }

    // ------------------------------------------------------------------ find_relevant_tables

    @Test
    void findRelevantTablesRanksByKeywords() throws Exception {
        Map<String, Object> env = call("find_relevant_tables", Map.of("query", "invoice lines", "limit", 3));
        assertEquals("success", env.get("status"));
        List<Map<String, Object>> hits = (List<Map<String, Object>>) data(env).get("hits");
        assertEquals("public.invoice_line", hits.get(0).get("qualified_name"));
        assertTrue(hits.size() <= 3);
        assertEquals("HIGH", env.get("confidence"), "both words match the table's own name");
        double previous = 2;
        for (Map<String, Object> hit : hits) {
            double score = ((Number) hit.get("score")).doubleValue();
            assertTrue(score <= previous && score > 0 && score <= 1);
            previous = score;
        }
        Map<String, Object> byColumn = call("find_relevant_tables", Map.of("query", "billing country"));
        Map<String, Object> top = ((List<Map<String, Object>>) data(byColumn).get("hits")).get(0);
        assertEquals("public.invoice", top.get("qualified_name"));
        assertEquals("billing_country", top.get("best_column"));
    }

    @Test
    void findRelevantTablesListsEverythingForStarAndShowsDetailsOnRequest() throws Exception {
        Map<String, Object> all = call("find_relevant_tables", Map.of("query", "*", "limit", 50, "response_format", "detailed"));
        List<Map<String, Object>> hits = (List<Map<String, Object>>) data(all).get("hits");
        assertEquals(11, hits.size());
        assertEquals("public.album", hits.get(0).get("qualified_name"), "ties are broken by qualified name");
        assertTrue(hits.get(0).containsKey("row_estimate") && hits.get(0).containsKey("kind"));
        Map<String, Object> concise = call("find_relevant_tables", Map.of("query", "*"));
        assertFalse(((List<Map<String, Object>>) data(concise).get("hits")).get(0).containsKey("kind"));
        assertEquals(10, ((List<?>) data(concise).get("hits")).size(), "limit defaults to 10");
    }

    @Test
    void findRelevantTablesEmptyUnknownSchemaAndBadArguments() throws Exception {
        // Never empty while the store has tables: the best guess, scored low and marked LOW.
        Map<String, Object> guess = call("find_relevant_tables", Map.of("query", "zebra giraffe"));
        assertEquals("success", guess.get("status"));
        assertFalse(((List<?>) data(guess).get("hits")).isEmpty());
        assertEquals("low", String.valueOf(guess.get("confidence")).toLowerCase(Locale.ROOT));

        Map<String, Object> inSchema = call("find_relevant_tables", Map.of("query", "track", "schema", "public"));
        assertEquals("success", inSchema.get("status"));
        Map<String, Object> unknown = call("find_relevant_tables", Map.of("query", "track", "schema", "publik"));
        assertError(unknown, "unknown_name");
        assertEquals(List.of("public"), recovery(unknown).get("fuzzy_matches"));
        assertEquals(Map.of("query", "track", "schema", "public"), recovery(unknown).get("suggested_args"));

        Map<String, Object> bad = call("find_relevant_tables", Map.of("query", "track", "limit", 0, "colour", "red"));
        assertError(bad, "invalid_argument");
        String message = (String) error(bad).get("message");
        assertTrue(message.contains("argument 'limit' value must be >= 1"), message);
        assertTrue(message.contains("unknown argument 'colour'"), message);
        assertTrue(message.contains("Allowed arguments: query (string, required)"), message);
        assertEquals("find_relevant_tables", recovery(bad).get("suggested_tool"));
        assertEquals(Map.of("query", "track"), recovery(bad).get("suggested_args"), "the valid arguments are kept");

        Map<String, Object> wrongType = call("find_relevant_tables", Map.of("query", 42));
        assertError(wrongType, "invalid_argument");
        assertTrue(((String) error(wrongType).get("message")).contains("argument 'query' must be a string"));
    }

    // ------------------------------------------------------------------ describe_table

    @Test
    void describeTableShowsColumnsKeysAndBothDirectionsOfForeignKeys() throws Exception {
        Map<String, Object> env = call("describe_table", Map.of("qualified_name", "public.track"));
        assertEquals("success", env.get("status"));
        Map<String, Object> d = data(env);
        assertEquals("public.track", d.get("qualified_name"));
        assertEquals(List.of("track_id"), d.get("primary_key"));
        List<Map<String, Object>> columns = (List<Map<String, Object>>) d.get("columns");
        assertEquals(9, columns.size());
        assertEquals(Map.of("name", "track_id", "type", "integer", "nullable", false, "primary_key", true,
                "description", "The track id uniquely identifies each track.", "pii_sensitivity", "public",
                "pii_categories", List.of()), withoutNulls(columns.get(0)));
        assertEquals("The album id of the track; refers to an album (album id).", columns.get(2).get("description"));
        assertEquals("MEDIUM", env.get("confidence"), "offline descriptions are applied heuristics");
        assertEquals("heuristic", ((Map<String, Object>) env.get("provenance")).get("inference_method"));
        Set<String> out = ((List<Map<String, Object>>) d.get("foreign_keys_out")).stream()
                .map(fk -> (String) fk.get("references")).collect(Collectors.toSet());
        assertEquals(Set.of("public.album", "public.genre", "public.media_type"), out);
        Set<String> in = ((List<Map<String, Object>>) d.get("foreign_keys_in")).stream()
                .map(fk -> (String) fk.get("from")).collect(Collectors.toSet());
        assertEquals(Set.of("public.invoice_line", "public.playlist_track"), in);
        assertEquals(false, d.get("is_junction"));
        assertFalse(columns.get(0).containsKey("samples"), "concise leaves samples out");

        Map<String, Object> junction = call("describe_table", Map.of("qualified_name", "playlist_track", "response_format", "detailed"));
        assertEquals(true, data(junction).get("is_junction"), "a bare unique name resolves");
        assertTrue(((List<Map<String, Object>>) data(junction).get("columns")).get(0).containsKey("samples"));
    }

    @Test
    void describeTableAnswersUnknownAndMalformedNamesWithARecovery() throws Exception {
        Map<String, Object> unknown = call("describe_table", Map.of("qualified_name", "public.albums"));
        assertError(unknown, "unknown_name");
        List<String> fuzzy = (List<String>) recovery(unknown).get("fuzzy_matches");
        assertEquals("public.album", fuzzy.get(0));
        assertTrue(fuzzy.size() <= 3);
        assertEquals("describe_table", recovery(unknown).get("suggested_tool"));
        assertEquals(Map.of("qualified_name", "public.album"), recovery(unknown).get("suggested_args"));

        Map<String, Object> caseless = call("describe_table", Map.of("qualified_name", "PUBLIC.Album"));
        assertEquals("success", caseless.get("status"), "names resolve case-insensitively when unique");

        Map<String, Object> nothingClose = call("describe_table", Map.of("qualified_name", "public.zzqqxx"));
        assertError(nothingClose, "unknown_name");
        assertEquals("find_relevant_tables", recovery(nothingClose).get("suggested_tool"));

        Map<String, Object> malformed = call("describe_table", Map.of("qualified_name", "public.track; DROP TABLE track"));
        assertError(malformed, "malformed_name");
        Map<String, Object> tooMany = call("describe_table", Map.of("qualified_name", "a.b.c.d"));
        assertError(tooMany, "malformed_name");
    }

    @Test
    void aFiveMegabyteArgumentIsRefusedWithoutBeingEchoed() throws Exception {
        String huge = "x".repeat(5 * 1024 * 1024);
        Map<String, Object> env = call("describe_table", Map.of("qualified_name", huge));
        assertError(env, "invalid_argument");
        assertTrue(((String) error(env).get("message")).contains("string length must be <= 512"));
        assertTrue(env.toString().length() < 2000, "the argument is never echoed back whole");
        Map<String, Object> still = call("list_indexed_schemas", Map.of());
        assertEquals("success", still.get("status"), "the server keeps serving");
    }

    // ------------------------------------------------------------------ describe_column

    @Test
    void describeColumnShowsItsForeignKeysAndSamples() throws Exception {
        Map<String, Object> env = call("describe_column", Map.of("qualified_name", "public.track.album_id"));
        assertEquals("success", env.get("status"));
        List<Map<String, Object>> refs = (List<Map<String, Object>>) data(env).get("references");
        assertEquals("public.album.album_id", refs.get(0).get("column"));
        assertEquals("many_to_one", refs.get(0).get("cardinality"));

        Map<String, Object> key = call("describe_column", Map.of("qualified_name", "album.album_id"));
        Set<String> referencedBy = ((List<Map<String, Object>>) data(key).get("referenced_by")).stream()
                .map(r -> (String) r.get("column")).collect(Collectors.toSet());
        assertEquals(Set.of("public.track.album_id"), referencedBy);
        assertEquals(true, data(key).get("unique"));

        Map<String, Object> name = call("describe_column", Map.of("qualified_name", "public.genre.name"));
        assertFalse(((List<?>) data(name).get("samples")).isEmpty(), "sample values are shown");
    }

    @Test
    void describeColumnPointsAtTheParentTableWhenTheColumnIsUnknown() throws Exception {
        Map<String, Object> env = call("describe_column", Map.of("qualified_name", "public.track.albumid"));
        assertError(env, "unknown_name");
        assertEquals("describe_table", recovery(env).get("suggested_tool"));
        assertEquals(Map.of("qualified_name", "public.track"), recovery(env).get("suggested_args"));
        assertTrue(((List<String>) recovery(env).get("fuzzy_matches")).contains("public.track.album_id"));
        assertError(call("describe_column", Map.of("qualified_name", "track")), "malformed_name");
    }

    // ------------------------------------------------------------------ suggest_joins

    @Test
    void suggestJoinsCrossesTheJunctionAndReportsEveryPair() throws Exception {
        Map<String, Object> env = call("suggest_joins", Map.of("tables", List.of("public.track", "public.playlist")));
        assertEquals("success", env.get("status"));
        assertEquals("HIGH", env.get("confidence"), "declared foreign keys");
        Map<String, Object> provenance = (Map<String, Object>) env.get("provenance");
        assertEquals("fk_constraint", provenance.get("inference_method"));
        Map<String, Object> path = ((List<Map<String, Object>>) data(env).get("paths")).get(0);
        assertEquals(2, path.get("hops"));
        assertEquals(true, path.get("crosses_junction"));
        List<Map<String, Object>> steps = (List<Map<String, Object>>) path.get("steps");
        assertTrue(steps.stream().allMatch(s -> "junction".equals(s.get("via")) && "public.playlist_track".equals(s.get("junction"))));

        Map<String, Object> three = call("suggest_joins", Map.of("tables", List.of("artist", "genre", "customer")));
        assertEquals(3, ((List<?>) data(three).get("paths")).size());
        Map<String, Object> artistGenre = ((List<Map<String, Object>>) data(three).get("paths")).get(0);
        assertEquals(3, artistGenre.get("hops"), "artist → album → track → genre");
    }

    @Test
    void suggestJoinsIsPartialOrEmptyWhenPairsAreOutOfReach() throws Exception {
        Map<String, Object> partial = call("suggest_joins",
                Map.of("tables", List.of("public.album", "public.artist", "public.track"), "max_hops", 1));
        assertEquals("partial", partial.get("status"));
        List<Map<String, Object>> unreachable = (List<Map<String, Object>>) data(partial).get("unreachable");
        assertEquals(1, unreachable.size());
        assertEquals(Map.of("from", "public.artist", "to", "public.track", "reason", "too_many_hops", "hops_needed", 2),
                unreachable.get(0));

        Map<String, Object> empty = call("suggest_joins", Map.of("tables", List.of("public.artist", "public.genre"), "max_hops", 1));
        assertEquals("empty", empty.get("status"));
        assertEquals(1, ((List<?>) data(empty).get("unreachable")).size());
    }

    @Test
    void suggestJoinsNeedsTwoKnownTables() throws Exception {
        Map<String, Object> one = call("suggest_joins", Map.of("tables", List.of("public.track")));
        assertError(one, "malformed_name");
        assertEquals(Map.of("qualified_name", "public.track"), recovery(one).get("suggested_args"));
        Map<String, Object> unknown = call("suggest_joins", Map.of("tables", List.of("public.track", "public.playlists")));
        assertError(unknown, "unknown_name");
        assertEquals(Map.of("tables", List.of("public.track", "public.playlist")), recovery(unknown).get("suggested_args"),
                "a ready call with the name corrected");
        assertError(call("suggest_joins", Map.of("tables", "public.track")), "invalid_argument");
        assertError(call("suggest_joins", Map.of("tables", List.of("public.track", "public.album"), "max_hops", "two")),
                "invalid_argument");
    }

    // ------------------------------------------------------------------ get_example_queries

    @Test
    void getExampleQueriesIsEmptyUntilTheQueryLogIsMined() throws Exception {
        Map<String, Object> env = call("get_example_queries", Map.of("qualified_name", "public.invoice"));
        assertEquals("empty", env.get("status"));
        assertEquals(List.of(), data(env).get("queries"));
        assertEquals(Map.of("tool", "describe_table", "args", Map.of("qualified_name", "public.invoice")),
                data(env).get("suggested_call"));
        Map<String, Object> column = call("get_example_queries", Map.of("qualified_name", "public.invoice.total"));
        assertEquals("empty", column.get("status"));
        assertError(call("get_example_queries", Map.of("qualified_name", "public.invoices")), "unknown_name");
    }

    // ------------------------------------------------------------------ semantic layer and get_metric

    @Test
    void theInferredSemanticLayerIsListedAndDescribed() throws Exception {
        Map<String, Object> entities = call("list_entities", Map.of());
        assertEquals("success", entities.get("status"));
        List<Map<String, Object>> rows = (List<Map<String, Object>>) data(entities).get("entities");
        assertTrue(rows.stream().anyMatch(e -> e.get("name").equals("invoice") && e.get("table").equals("public.invoice")));
        assertTrue(rows.stream().noneMatch(e -> e.get("name").equals("playlist_track")), "a link table is a bridge");
        assertEquals("LOW", entities.get("confidence"), "inferred drafts");

        Map<String, Object> invoice = call("describe_entity", Map.of("name", "invoice"));
        List<Map<String, Object>> columns = (List<Map<String, Object>>) data(invoice).get("columns");
        assertTrue(columns.stream().anyMatch(c -> c.get("reference").equals("invoice.billing_country")));
        assertTrue(((List<String>) data(invoice).get("metrics")).contains("invoice_total_sum"));
        assertError(call("describe_entity", Map.of("name", "invoices")), "unknown_name");
        assertEquals("invoice", ((List<String>) recovery(call("describe_entity", Map.of("name", "invoices"))).get("fuzzy_matches")).get(0));

        Map<String, Object> join = call("resolve_join", Map.of("entity_a", "customer", "entity_b", "invoice"));
        assertEquals("success", join.get("status"));
        assertEquals("one_to_many", data(join).get("cardinality_from_a"));
        assertEquals("HIGH", join.get("confidence"), "a foreign key, applied");
        assertError(call("resolve_join", Map.of("entity_a", "artist", "entity_b", "invoice")), "no_canonical_join");
        assertError(call("resolve_join", Map.of("entity_a", "customer", "entity_b", "invoice", "name", "track_album")),
                "join_name_mismatch");
        List<Map<String, Object>> found = (List<Map<String, Object>>) data(call("find_relevant_entities",
                Map.of("query", "music genres"))).get("hits");
        assertEquals("genre", found.get(0).get("name"));
    }

    @Test
    void getMetricAnswersRowsKeyedAsWrittenWithItsSqlAndParameters() throws Exception {
        Map<String, Object> env = call("get_metric", Map.of("name", "invoice_total_sum", "group_by", List.of("customer.country"),
                "filters", List.of(Map.of("column", "invoice.total", "op", "gt", "value", 1)),
                "order_by", List.of(Map.of("column", "invoice_total_sum", "direction", "desc")), "limit", 2));
        // 24 countries, 2 asked for; the countries of fewer than five customers are left out, and saying so wins.
        assertEquals("degraded", env.get("status"));
        assertEquals("small_groups_suppressed", env.get("degradation_reason"));
        Map<String, Object> data = data(env);
        assertEquals(true, data.get("truncated"));
        assertTrue(((Number) data.get("suppressed_groups")).intValue() > 0, data.toString());
        List<Map<String, Object>> rows = (List<Map<String, Object>>) data.get("rows");
        assertEquals(2, rows.size());
        assertEquals("USA", rows.get(0).get("customer.country"));
        assertEquals(Set.of("customer.country", "invoice_total_sum"), rows.get(0).keySet());
        assertEquals(List.of("customer.country", "invoice_total_sum"), data.get("columns"));
        assertTrue(((String) data.get("sql")).contains("> ?") && !((String) data.get("sql")).contains(";"));
        assertEquals(List.of(1, 3), data.get("params"));
        assertEquals(List.of("invoice_customer"), data.get("required_joins"));

        Map<String, Object> monthly = call("get_metric", Map.of("name", "invoice_total_sum", "time_grain", "month"));
        assertEquals("success", monthly.get("status"));
        Map<String, Object> first = ((List<Map<String, Object>>) data(monthly).get("rows")).get(0);
        assertEquals("2021-01-01", first.get("time_bucket"));

        Map<String, Object> dry = call("get_metric", Map.of("name", "invoice_total_sum", "dry_run", true));
        assertFalse(data(dry).containsKey("rows"));
        // A cost class only: the plan's row estimate would reveal what a real run suppresses.
        assertEquals(Map.of("cost_class", "low"), data(dry).get("explain"));
    }

    @Test
    void getMetricFailuresCarryTheirKindAndRecovery() throws Exception {
        Map<String, Object> unknown = call("get_metric", Map.of("name", "invoice_totals_sum"));
        assertError(unknown, "unknown_metric");
        assertEquals("invoice_total_sum", ((Map<String, Object>) recovery(unknown).get("suggested_args")).get("name"));
        assertError(call("get_metric", Map.of("name", "invoice_total_sum", "group_by", List.of("customer.contry"))),
                "unknown_group_by_column");
        assertError(call("get_metric", Map.of("name", "invoice_total_sum", "time_grain", "fortnight")), "invalid_time_grain");
        Map<String, Object> fanOut = call("get_metric", Map.of("name", "invoice_total_sum", "group_by", List.of("genre.name")));
        // Across a join that repeats invoices, each invoice is counted once per genre: answered, not flagged fan_out_join.
        assertNotEquals("fan_out_join", fanOut.get("degradation_reason"), fanOut.toString());
        assertEquals(List.of("invoice_line_invoice"), ((Map<String, Object>) fanOut.get("data")).get("fan_out_joins"), fanOut.toString());
        assertError(call("get_metric", Map.of("name", "invoice_total_sum", "filters", List.of(Map.of("column", "invoice.total",
                "op", "between", "value", 1)))), "invalid_argument");

        StringBuffer err = new StringBuffer();
        try (McpSyncClient withoutSource = McpStdio.client(dir.resolve("chinook.db"), err)) {
            Map<String, Object> missing = EnvelopeChecks.envelope(McpStdio.call(withoutSource, "get_metric",
                    Map.of("name", "invoice_total_sum")), tools.get("get_metric").outputSchema(), tools.keySet());
            assertError(missing, "missing_credential");
            assertTrue(((String) error(missing).get("message")).contains("--url-env"));
        }
    }

    // ------------------------------------------------------------------ index_not_ready

    @Test
    void everyToolAnswersIndexNotReadyBeforeAnythingIsIndexed() throws Exception {
        StringBuffer err = new StringBuffer();
        try (McpSyncClient empty = McpStdio.client(dir.resolve("missing.db"), err)) {
            Map<String, McpSchema.Tool> listed = empty.listTools().tools().stream()
                    .collect(Collectors.toMap(McpSchema.Tool::name, t -> t));
            Map<String, Map<String, Object>> calls = Map.ofEntries(
                    Map.entry("list_indexed_schemas", Map.of()),
                    Map.entry("find_relevant_tables", Map.of("query", "track")),
                    Map.entry("describe_table", Map.of("qualified_name", "public.track")),
                    Map.entry("describe_column", Map.of("qualified_name", "public.track.name")),
                    Map.entry("suggest_joins", Map.of("tables", List.of("public.track", "public.album"))),
                    Map.entry("get_example_queries", Map.of("qualified_name", "public.track")),
                    Map.entry("list_entities", Map.of()),
                    Map.entry("find_relevant_entities", Map.of("query", "track")),
                    Map.entry("describe_entity", Map.of("name", "track")),
                    Map.entry("list_joins", Map.of()),
                    Map.entry("resolve_join", Map.of("entity_a", "track", "entity_b", "album")),
                    Map.entry("list_metrics", Map.of()),
                    Map.entry("find_relevant_metrics", Map.of("query", "tracks sold")),
                    Map.entry("get_metric", Map.of("name", "track_count")),
                    Map.entry("validate_query", Map.of("sql", "SELECT name FROM public.track")),
                    Map.entry("execute", Map.of("sql", "SELECT name FROM public.track")));
            assertEquals(listed.keySet(), calls.keySet());
            for (var entry : calls.entrySet()) {
                Map<String, Object> env = EnvelopeChecks.envelope(McpStdio.call(empty, entry.getKey(), entry.getValue()),
                        listed.get(entry.getKey()).outputSchema(), new HashSet<>(listed.keySet()));
                assertError(env, "index_not_ready");
                assertEquals("list_indexed_schemas", recovery(env).get("suggested_tool"));
            }
        }
        assertFalse(dir.resolve("missing.db").toFile().exists(), "serving never creates a store");
    }

    private static Map<String, Object> withoutNulls(Map<String, Object> map) {
        Map<String, Object> copy = new LinkedHashMap<>(map);
        copy.values().removeIf(Objects::isNull);
        return copy;
    }
}
