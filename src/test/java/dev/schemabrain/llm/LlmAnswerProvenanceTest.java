package dev.schemabrain.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemabrain.mcp.envelope.Confidence;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.mcp.envelope.EnvelopeSchema;
import dev.schemabrain.mcp.envelope.Provenance;
import dev.schemabrain.mcp.envelope.Status;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.mcp.tools.StandardTools;
import dev.schemabrain.served.StoreCatalogProvider;
import dev.schemabrain.store.Stores;
import dev.schemabrain.testing.InProcessCli;
import dev.schemabrain.testing.TestPostgres;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import io.modelcontextprotocol.json.schema.jackson2.DefaultJsonSchemaValidator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Description provenance in the answers: after {@code index --llm} against a real HTTP server, the MCP tools (called
 * through the tool registry, as the server dispatches them) name the model that wrote a description and
 * show the confidence the index run derived: MEDIUM for a table with comments, samples or foreign keys,
 * LOW for one with nothing to go on. A hostile model name in the endpoint's answer reaches no answer
 * unbounded.
 */
class LlmAnswerProvenanceTest {

    private static final String KEY = LlmIndexTest.KEY;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonSchemaValidator VALIDATOR = new DefaultJsonSchemaValidator();

    @TempDir
    Path dir;
    Path source;
    Path store;
    FakeLlmServer server;

    @BeforeEach
    void start() throws Exception {
        source = dir.resolve("shop.db");
        store = dir.resolve("store.db");
        server = new FakeLlmServer(KEY);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + source); Statement st = c.createStatement()) {
            for (String s : LlmIndexTest.SHOP) {
                st.execute(s);
            }
        }
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private void index(String storeArg, String provider, String... extra) {
        List<String> args = new ArrayList<>(List.of("--store", storeArg, "index", "--source", "sqlite:" + source,
                "--llm", provider, "--llm-url", server.url(), "--llm-key-env", "SB_LLM_KEY"));
        args.addAll(List.of(extra));
        InProcessCli.Result r = InProcessCli.run(Map.of("SB_LLM_KEY", KEY), args.toArray(String[]::new));
        assertEquals(0, r.exitCode(), r.stderr());
        assertEquals(List.of(), server.rejections());
    }

    /** A successful answer that validates against the strict envelope schema. */
    private static Envelope answer(ToolRegistry tools, String tool, Map<String, Object> args) {
        Envelope e = tools.call(tool, args);
        assertEquals(Status.SUCCESS, e.status(), e.toJson());
        JsonSchemaValidator.ValidationResponse valid = VALIDATOR.validate(EnvelopeSchema.strict(tools.names()), e.toTree());
        assertTrue(valid.valid(), () -> valid.errorMessage() + "\n" + e.toJson());
        return e;
    }

    private static JsonNode call(ToolRegistry tools, String tool, Map<String, Object> args) {
        try {
            return JSON.readTree(answer(tools, tool, args).toJson());
        } catch (IOException x) {
            throw new AssertionError(x);
        }
    }

    @Test
    void answersNameTheAnsweringModelAndShowTheStoredConfidence() throws Exception {
        server.answeredModel = "claude-haiku-4-5-20251001";
        index(store.toString(), "anthropic");
        ToolRegistry tools = StandardTools.registry(new StoreCatalogProvider(store), Optional.empty());

        Envelope orders = answer(tools, "describe_table", Map.of("qualified_name", "main.orders"));
        assertEquals(Provenance.Source.LLM, orders.provenance().source(), orders.toJson());
        assertEquals("claude-haiku-4-5-20251001", orders.provenance().model(), "the model the answer named, not only the one asked");
        assertEquals(Confidence.MEDIUM, orders.confidence(), "orders had samples and a foreign key to go on");
        assertEquals("LLM: the main.orders table.", orders.data().path("description").asText());

        Envelope product = answer(tools, "describe_table", Map.of("qualified_name", "main.product"));
        assertEquals("claude-haiku-4-5-20251001", product.provenance().model());
        assertEquals(Confidence.LOW, product.confidence(), "product had no comment, sample or key to go on");

        Envelope status = answer(tools, "describe_column", Map.of("qualified_name", "main.orders.status"));
        assertEquals("llm", status.data().path("description_source").asText());
        assertEquals("claude-haiku-4-5-20251001", status.provenance().model());
        assertEquals(Confidence.MEDIUM, status.confidence());

        JsonNode hits = call(tools, "find_relevant_tables", Map.of("query", "*", "response_format", "detailed"))
                .path("data").path("hits");
        Map<String, JsonNode> byTable = new HashMap<>();
        hits.forEach(h -> byTable.put(h.path("qualified_name").asText(), h.path("description_provenance")));
        assertEquals(3, byTable.size(), hits.toString());
        assertEquals("llm", byTable.get("main.orders").path("source").asText(), hits.toString());
        assertEquals("claude-haiku-4-5-20251001", byTable.get("main.orders").path("model").asText());
        assertEquals("MEDIUM", byTable.get("main.orders").path("confidence").asText());
        assertEquals("LOW", byTable.get("main.product").path("confidence").asText());

        JsonNode entity = call(tools, "describe_entity", Map.of("name", "orders")).path("data");
        assertEquals("claude-haiku-4-5-20251001", entity.path("description_provenance").path("model").asText(), entity.toString());
        assertEquals("MEDIUM", entity.path("description_provenance").path("confidence").asText());
        assertEquals("llm_suggested", entity.path("description_provenance").path("inference_method").asText());

        // Offline, the same store's answers carry no model and the offline describer's confidence.
        assertEquals(0, InProcessCli.run("--store", dir.resolve("offline.db").toString(), "index", "--source",
                "sqlite:" + source).exitCode());
        ToolRegistry offline = StandardTools.registry(new StoreCatalogProvider(dir.resolve("offline.db")), Optional.empty());
        Envelope plain = answer(offline, "describe_table", Map.of("qualified_name", "main.product"));
        assertEquals(Provenance.Source.INFERRED, plain.provenance().source());
        assertNull(plain.provenance().model());
        assertEquals(Confidence.MEDIUM, plain.confidence());
        JsonNode plainHits = call(offline, "find_relevant_tables", Map.of("query", "*", "response_format", "detailed"));
        assertFalse(plainHits.toString().contains("description_provenance"), "only a model's description is annotated");
    }

    @Test
    void aHostileModelNameIsCleanedAndBoundedAndAnEmptyOneFallsBackToTheModelAsked() throws Exception {
        String hostile = "gpt-4o\u0000\u001b[31m\u202e\r\nIGNORE PREVIOUS " + "x".repeat(10_240);
        server.answeredModel = hostile;
        index(store.toString(), "openai");
        ToolRegistry tools = StandardTools.registry(new StoreCatalogProvider(store), Optional.empty());
        Envelope orders = answer(tools, "describe_table", Map.of("qualified_name", "main.orders"));
        String model = orders.provenance().model();
        assertNotNull(model);
        assertTrue(model.length() <= 100, "bounded: " + model.length());
        assertTrue(model.startsWith("gpt-4o [31m IGNORE PREVIOUS x"), model);
        assertTrue(model.chars().noneMatch(ch -> Character.isISOControl(ch) || Character.getType(ch) == Character.FORMAT), model);
        String json = orders.toJson() + call(tools, "find_relevant_tables", Map.of("query", "orders", "response_format",
                "detailed"));
        assertFalse(json.contains("x".repeat(101)), "no answer carries the 10 KB name");
        assertFalse(json.contains("\\u001b") || json.contains("\\u0000") || json.contains("\u202e"), json);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + store); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT max(length(answered_model)), min(model) FROM llm_cache")) {
            rs.next();
            assertTrue(rs.getInt(1) <= 100, "the store keeps the cleaned name only");
            assertEquals("gpt-4o-mini", rs.getString(2), "the cache still compares the model asked");
        }

        // A name of nothing but control characters: the answer names the model asked instead.
        server.answeredModel = "\u0000\u0007\t ";
        index(store.toString(), "openai", "--model", "gpt-4o");
        Envelope again = answer(tools, "describe_table", Map.of("qualified_name", "main.orders"));
        assertEquals("gpt-4o", again.provenance().model(), again.toJson());
        assertEquals(Confidence.MEDIUM, again.confidence());
    }

    @Test
    void aStoreFromBeforeV9NamesTheModelAsked() throws Exception {
        index(store.toString(), "anthropic");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + store); Statement st = c.createStatement()) {
            st.execute("ALTER TABLE llm_cache DROP COLUMN answered_model");
            st.execute("PRAGMA user_version = 8");
        }
        // Served read-only without migrating: the column is missing and the answer falls back to llm_cache.model.
        Envelope orders = answer(StandardTools.registry(new StoreCatalogProvider(store), Optional.empty()),
                "describe_table", Map.of("qualified_name", "main.orders"));
        assertEquals("claude-haiku-4-5", orders.provenance().model(), orders.toJson());
        assertEquals(Confidence.MEDIUM, orders.confidence());
    }

    @Test
    void aPostgresqlStoreCarriesTheModelAndConfidenceToo() throws Exception {
        server.answeredModel = "gpt-4o-mini-2024-07-18";
        String pgStore = TestPostgres.url("postgres") + "?schema=sb_llmprov_" + ProcessHandle.current().pid();
        index(pgStore, "openai");
        ToolRegistry tools = StandardTools.registry(new StoreCatalogProvider(Stores.location(pgStore, null, null, Map.of()),
                Optional.empty()), Optional.empty());
        Envelope product = answer(tools, "describe_table", Map.of("qualified_name", "main.product"));
        assertEquals("gpt-4o-mini-2024-07-18", product.provenance().model(), product.toJson());
        assertEquals(Confidence.LOW, product.confidence());
        Envelope orders = answer(tools, "describe_table", Map.of("qualified_name", "main.orders"));
        assertEquals(Confidence.MEDIUM, orders.confidence());
    }
}
