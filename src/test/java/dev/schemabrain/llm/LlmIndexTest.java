package dev.schemabrain.llm;

import dev.schemabrain.testing.InProcessCli;
import dev.schemabrain.testing.TestPostgres;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code index --llm} against a real HTTP server speaking both vendors' wire formats, on a
 * real SQLite source and store: descriptions and provenance land in the store, unchanged tables are never
 * asked again, the cap holds across runs, workers overlap, PII samples never leave, and a dead or
 * misbehaving endpoint never fails the run.
 */
class LlmIndexTest {

    static final String KEY = "sk-test-0123456789-secret";
    /** orders has samples and a foreign key (confidence medium); product has no rows, keys out or comments (low). */
    static final List<String> SHOP = List.of("CREATE TABLE customer (id INTEGER PRIMARY KEY, name TEXT NOT NULL, country TEXT)",
            "CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customer(id), status TEXT)",
            "CREATE TABLE product (id INTEGER PRIMARY KEY, title TEXT)",
            "INSERT INTO customer VALUES (1, 'Ann', 'France'), (2, 'Bob', 'Peru')",
            "INSERT INTO orders VALUES (1, 1, 'shipped'), (2, 2, 'pending')");

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
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private void sql(String... statements) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + source); Statement st = c.createStatement()) {
            for (String s : statements) {
                st.execute(s);
            }
        }
    }

    private void shop() throws SQLException {
        sql(SHOP.toArray(String[]::new));
    }

    private InProcessCli.Result index(String provider, String... extra) {
        List<String> args = new ArrayList<>(List.of("--store", store.toString(), "index", "--source", "sqlite:" + source,
                "--llm", provider, "--llm-url", server.url(), "--llm-key-env", "SB_LLM_KEY", "--llm-backoff-ms", "10"));
        args.addAll(List.of(extra));
        InProcessCli.Result r = InProcessCli.run(Map.of("SB_LLM_KEY", KEY), args.toArray(String[]::new));
        assertEquals(0, r.exitCode(), r.stderr());
        assertFalse((r.stdout() + r.stderr()).contains(KEY), "the key never reaches output");
        return r;
    }

    /** origin and description of every table ("t") and column ("t.c") in the store. */
    private Map<String, String[]> stored() throws SQLException {
        Map<String, String[]> docs = new HashMap<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + store); Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery("SELECT table_name, description_origin, description FROM catalog_tables")) {
                while (rs.next()) {
                    docs.put(rs.getString(1), new String[]{rs.getString(2), rs.getString(3)});
                }
            }
            try (ResultSet rs = st.executeQuery("""
                    SELECT t.table_name || '.' || k.column_name, k.description_origin, k.description
                      FROM catalog_columns k JOIN catalog_tables t ON t.table_id = k.table_id""")) {
                while (rs.next()) {
                    docs.put(rs.getString(1), new String[]{rs.getString(2), rs.getString(3)});
                }
            }
        }
        return docs;
    }

    private int count(String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + store); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getInt(1);
        }
    }

    @Test
    void anthropicDescribesEachTableOnceAndAnUnchangedReindexCostsNothing() throws Exception {
        shop();
        InProcessCli.Result first = index("anthropic");
        assertEquals(List.of(), server.rejections());
        assertEquals(3, server.requests());
        assertTrue(first.stdout().contains("3 requests to anthropic (claude-haiku-4-5)"), first.stdout());
        Map<String, String[]> docs = stored();
        assertEquals("llm", docs.get("orders")[0]);
        assertEquals("LLM: the main.orders table.", docs.get("orders")[1]);
        assertEquals("llm", docs.get("orders.status")[0]);
        assertEquals("LLM: status of main.orders.", docs.get("orders.status")[1], "control characters stripped");
        assertEquals(3, count("SELECT count(*) FROM llm_cache WHERE model = 'claude-haiku-4-5'"));
        assertEquals(1, count("SELECT count(*) FROM llm_cache WHERE table_name = 'orders' AND confidence = 'medium'"));
        assertEquals(1, count("SELECT count(*) FROM llm_cache WHERE table_name = 'product' AND confidence = 'low'"));
        assertEquals(3, count("SELECT count(*) FROM llm_ledger WHERE input_tokens = 1000 AND output_tokens = 100"));

        InProcessCli.Result again = index("anthropic");
        assertEquals(3, server.requests(), "an unchanged re-index asks nothing");
        assertTrue(again.stdout().contains("0 requests to anthropic (claude-haiku-4-5), 0 input and 0 output tokens, $0.00;"
                + " 3 tables unchanged"), again.stdout());
        assertEquals("llm", stored().get("orders.status")[0], "a cached description stands");

        InProcessCli.Result offline = InProcessCli.run("--store", store.toString(), "index", "--source", "sqlite:" + source);
        assertEquals(0, offline.exitCode(), offline.stderr());
        assertEquals("llm", stored().get("orders.status")[0], "--no-llm keeps the descriptions of unchanged tables");

        sql("ALTER TABLE product ADD COLUMN price REAL");
        assertEquals(0, InProcessCli.run("--store", store.toString(), "index", "--source", "sqlite:" + source).exitCode());
        assertEquals("heuristic", stored().get("product.title")[0], "a changed table's stale sentence gives way offline");
        assertEquals("llm", stored().get("orders.status")[0]);
        index("anthropic");
        assertEquals(4, server.requests(), "only the changed table is asked again");
        assertEquals("llm", stored().get("product.price")[0]);

        index("anthropic", "--model", "claude-sonnet-4-5");
        assertEquals(7, server.requests(), "another model describes every table again");

        InProcessCli.Result ledger = InProcessCli.run("--store", store.toString(), "llm", "ledger");
        assertEquals(0, ledger.exitCode(), ledger.stderr());
        assertTrue(ledger.stdout().contains("claude-sonnet-4-5"), ledger.stdout());
        assertTrue(ledger.stdout().contains("total"), ledger.stdout());
        assertFalse(new String(Files.readAllBytes(store), StandardCharsets.ISO_8859_1).contains(KEY));
    }

    @Test
    void aPostgresqlStoreKeepsTheCacheAndTheLedger() throws Exception {
        shop();
        String pgStore = TestPostgres.url("postgres") + "?schema=sb_llm_" + ProcessHandle.current().pid();
        String[] args = {"--store", pgStore, "index", "--source", "sqlite:" + source, "--llm", "openai", "--llm-url",
                server.url(), "--llm-key-env", "SB_LLM_KEY"};
        for (int run = 0; run < 2; run++) {
            InProcessCli.Result r = InProcessCli.run(Map.of("SB_LLM_KEY", KEY), args);
            assertEquals(0, r.exitCode(), r.stderr());
        }
        assertEquals(3, server.requests(), "the second run reads the cache from the PostgreSQL store");
        InProcessCli.Result ledger = InProcessCli.run("--store", pgStore, "llm", "ledger");
        assertEquals(0, ledger.exitCode(), ledger.stderr());
        assertTrue(ledger.stdout().lines().anyMatch(l -> l.startsWith("total") && l.contains(" 3 ")), ledger.stdout());
    }

    @Test
    void openAiWorkersOverlapAndOneWorkerDoesNot() throws Exception {
        for (int i = 0; i < 8; i++) {
            sql("CREATE TABLE t" + i + " (id INTEGER PRIMARY KEY, label TEXT)");
        }
        server.delayMs = 150;
        index("openai", "--workers", "4");
        assertEquals(List.of(), server.rejections());
        assertEquals(8, server.requests());
        assertTrue(server.maxInFlight() > 1, "requests overlapped: " + server.maxInFlight());
        assertEquals("llm", stored().get("t3.label")[0]);

        FakeLlmServer serial = new FakeLlmServer(KEY);
        try {
            serial.delayMs = 50;
            InProcessCli.Result r = InProcessCli.run(Map.of("SB_LLM_KEY", KEY), "--store", dir.resolve("serial.db").toString(),
                    "index", "--source", "sqlite:" + source, "--llm", "openai", "--llm-url", serial.url(),
                    "--llm-key-env", "SB_LLM_KEY", "--workers", "1");
            assertEquals(0, r.exitCode(), r.stderr());
            assertEquals(8, serial.requests());
            assertEquals(1, serial.maxInFlight());
        } finally {
            serial.close();
        }
    }

    @Test
    void theCapStopsRequestsAndTheNextRunGoesOn() throws Exception {
        for (int i = 0; i < 5; i++) {
            sql("CREATE TABLE t" + i + " (id INTEGER PRIMARY KEY, label TEXT)");
        }
        server.inputTokens = 10_000;   // $0.01 a request at $1 per million input tokens
        server.outputTokens = 0;
        String[] capped = {"--workers", "1", "--price-in", "1", "--price-out", "0", "--max-cost", "0.025"};
        InProcessCli.Result first = index("anthropic", capped);
        assertEquals(2, server.requests(), "the third request would cross the cap");
        assertTrue(first.stdout().contains("3 tables left by the $0.03 cap (the next run goes on)"), first.stdout());
        assertEquals(2, count("SELECT count(*) FROM llm_cache"));
        index("anthropic", capped);
        assertEquals(4, server.requests());
        InProcessCli.Result third = index("anthropic", capped);
        assertEquals(5, server.requests());
        assertFalse(third.stdout().contains("left by"), third.stdout());
        index("anthropic", capped);
        assertEquals(5, server.requests());
        assertEquals(5, count("SELECT count(*) FROM llm_ledger"));
    }

    @Test
    void aMisbehavingServerNeverFailsTheRunAndBadAnswersAreValidated() throws Exception {
        for (String t : List.of("rate", "overload", "flaky", "garbled", "partial", "extra", "verbose", "sleepy")) {
            sql("CREATE TABLE " + t + " (id INTEGER PRIMARY KEY, label TEXT, amount REAL)");
        }
        InProcessCli.Result r = index("anthropic", "--llm-timeout-ms", "300");
        assertEquals(List.of(), server.rejections());
        Map<String, String[]> docs = stored();
        for (String t : List.of("rate", "overload", "flaky")) {
            assertEquals(2, server.attempts("main." + t), t + " is retried once");
            assertEquals("llm", docs.get(t + ".label")[0], t);
        }
        assertEquals("heuristic", docs.get("garbled.label")[0], "malformed JSON keeps the offline text");
        assertEquals(1, server.attempts("main.garbled"), "malformed JSON is not retried");
        assertEquals("llm", docs.get("partial.label")[0]);
        assertEquals("heuristic", docs.get("partial.amount")[0], "a missing column keeps the offline text");
        assertEquals("llm", docs.get("extra.amount")[0]);
        assertFalse(docs.containsKey("extra.no_such_column"));
        assertTrue(docs.get("verbose.id")[1].length() <= 300, "a 10 KB description is cut");
        assertEquals("heuristic", docs.get("sleepy.label")[0], "a table that times out keeps the offline text");
        List<String> warnings = r.stderr().lines().filter(l -> l.startsWith("warning:")).toList();
        assertEquals(1, warnings.size(), r.stderr());
        assertTrue(warnings.get(0).contains("2 tables keep their offline descriptions"), warnings.get(0));
        assertTrue(r.stdout().contains("2 kept offline"), r.stdout());
    }

    @Test
    void samplesOfPiiColumnsAreNeverSent() throws Exception {
        sql("CREATE TABLE person (id INTEGER PRIMARY KEY, email TEXT, full_name TEXT, phone_number TEXT, status TEXT)",
                "INSERT INTO person VALUES (1, 'zeb@example.org', 'Zebulon Quartermaine', '+1 555 867 5309', 'active')");
        index("openai");
        assertEquals(1, server.requests());
        String body = server.bodies().get(0);
        assertTrue(body.contains("active"), "other samples are sent: " + body);
        for (String secret : List.of("Zebulon", "Quartermaine", "867", "zeb@")) {
            assertFalse(body.contains(secret), secret + " in " + body);
        }
    }

    @Test
    void aServerThatIsDownLeavesTheIndexOfflineWithOneWarning() throws Exception {
        shop();
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        InProcessCli.Result r = InProcessCli.run(Map.of("SB_LLM_KEY", KEY), "--store", store.toString(), "index",
                "--source", "sqlite:" + source, "--llm", "anthropic", "--llm-url", "http://127.0.0.1:" + port,
                "--llm-key-env", "SB_LLM_KEY");
        assertEquals(0, r.exitCode(), r.stderr());
        List<String> warnings = r.stderr().lines().filter(l -> l.startsWith("warning:")).toList();
        assertEquals(1, warnings.size(), r.stderr());
        assertTrue(warnings.get(0).contains("could not be reached; 3 tables keep their offline descriptions"), warnings.get(0));
        assertEquals("heuristic", stored().get("orders.status")[0]);
    }

    @Test
    void crypticTablesGoToTheStrongModel() throws Exception {
        shop();
        sql("CREATE TABLE xq_tbl (zq_id INTEGER PRIMARY KEY, xq_flg TEXT, cst_nm TEXT, zzv_cd TEXT)");
        index("anthropic", "--strong-model", "claude-sonnet-4-5");
        assertEquals(1, count("SELECT count(*) FROM llm_cache WHERE model = 'claude-sonnet-4-5' AND table_name = 'xq_tbl'"));
        assertEquals(3, count("SELECT count(*) FROM llm_cache WHERE model = 'claude-haiku-4-5'"));
        assertEquals(1, server.bodies().stream().filter(b -> b.contains("\"model\":\"claude-sonnet-4-5\"")).count());
    }

    @Test
    void aDryRunEstimatesAndSendsNothing() throws Exception {
        shop();
        InProcessCli.Result r = index("anthropic", "--dry-run");
        assertEquals(0, server.requests());
        assertTrue(r.stdout().contains("3 of 3 tables to describe with claude-haiku-4-5"), r.stdout());
        assertTrue(r.stdout().contains("estimated $0.00"), r.stdout());
    }

    @Test
    void withoutAKeyTheIndexIsOfflineAndAnUnknownPriceIsRefused() throws Exception {
        shop();
        InProcessCli.Result noKey = InProcessCli.run("--store", store.toString(), "index", "--source", "sqlite:" + source,
                "--llm", "anthropic");
        assertEquals(0, noKey.exitCode(), noKey.stderr());
        assertTrue(noKey.stderr().contains("warning: no API key in $ANTHROPIC_API_KEY"), noKey.stderr());
        assertEquals("heuristic", stored().get("orders.status")[0]);

        InProcessCli.Result unknown = InProcessCli.run(Map.of("OPENAI_API_KEY", KEY), "--store", store.toString(), "index",
                "--source", "sqlite:" + source, "--llm", "openai", "--model", "mystery-7b");
        assertEquals(2, unknown.exitCode(), unknown.stderr());
        assertTrue(unknown.stderr().contains("The price of model mystery-7b is unknown"), unknown.stderr());

        InProcessCli.Result badKey = InProcessCli.run(Map.of("OPENAI_API_KEY", "sk-one two"), "--store", store.toString(),
                "index", "--source", "sqlite:" + source, "--llm", "openai");
        assertEquals(2, badKey.exitCode(), badKey.stderr());
        assertTrue(badKey.stderr().contains("The key in $OPENAI_API_KEY holds spaces"), badKey.stderr());
        assertFalse(badKey.stderr().contains("sk-one"), badKey.stderr());
        assertEquals(0, server.requests());
    }
}
