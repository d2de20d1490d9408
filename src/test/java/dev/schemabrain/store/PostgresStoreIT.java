package dev.schemabrain.store;

import dev.schemabrain.demo.DemoDatabase;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.testing.Cli;
import dev.schemabrain.testing.McpStdio;
import dev.schemabrain.testing.ServedJar;
import dev.schemabrain.testing.TestPostgres;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The shared store end to end, through the built jar: index the demo database into a PostgreSQL schema,
 * serve from it over stdio (and pick up a re-index without restart), refuse a second index run of the
 * same source while one writes, and copy stores between SQLite and PostgreSQL with equal digests.
 */
class PostgresStoreIT {

    private static final AtomicInteger SCHEMAS = new AtomicInteger();

    @TempDir
    Path work;
    Path demo;
    String source;

    @BeforeEach
    void demo() {
        demo = DemoDatabase.ensure(work.resolve("demo.sqlite"));
        source = "sqlite:" + demo;
    }

    static String freshSchema() {
        return "it_" + ProcessHandle.current().pid() + "_" + SCHEMAS.incrementAndGet();
    }

    static String storeUrl(String schema) {
        return TestPostgres.url("postgres") + "?schema=" + schema;
    }

    Cli.Result cli(String... args) throws Exception {
        return Cli.run(work, args);
    }

    @Test
    void indexIntoPostgresThenServeDescribeTableAndFollowAReindex() throws Exception {
        String store = storeUrl(freshSchema());
        Cli.Result indexed = cli("--store", store, "index", "--source", source);
        assertEquals(0, indexed.exitCode(), indexed.stderr());
        assertFalse(indexed.stdout().contains("password") || indexed.stderr().contains("password"));

        StringBuffer stderr = new StringBuffer();
        McpSyncClient client = serve(store, stderr);
        try {
            String users = describe(client, "main.users");
            assertTrue(users.contains("email"), users);
            assertFalse(users.contains("nickname"));

            try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + demo); Statement st = c.createStatement()) {
                st.execute("ALTER TABLE users ADD COLUMN nickname TEXT");
            }
            Cli.Result again = cli("--store", store, "index", "--source", source);
            assertEquals(0, again.exitCode(), again.stderr());
            // The serving instance polls the version row; a new catalog shows within its interval.
            String after = "";
            for (int i = 0; i < 100 && !after.contains("nickname"); i++) {
                Thread.sleep(100);
                after = describe(client, "main.users");
            }
            assertTrue(after.contains("nickname"), "the served catalog follows the re-index without a restart: " + after);
        } finally {
            client.closeGracefully();
        }
    }

    /**
     * Over HTTP the catalog loads after the listener answers: initialize is answered while the catalog cannot be read
     * (a transaction holds one of its tables), and a call made then waits for the load and answers from the catalog.
     */
    @Test
    void overHttpInitializeIsAnsweredWhileTheCatalogLoadsAndACallMadeThenWaitsForIt() throws Exception {
        String schema = freshSchema();
        String store = storeUrl(schema);
        Cli.Result indexed = cli("--store", store, "index", "--source", source);
        assertEquals(0, indexed.exitCode(), indexed.stderr());
        HttpClient http = HttpClient.newHttpClient();
        try (Connection holder = TestPostgres.connect("postgres"); Statement st = holder.createStatement()) {
            holder.setAutoCommit(false);
            st.execute("LOCK TABLE " + schema + ".catalog_foreign_keys IN ACCESS EXCLUSIVE MODE");
            try (ServedJar served = ServedJar.start(store, work, Map.of(), List.of(), false)) {
                HttpResponse<String> init = http.send(post(served, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":"
                        + "\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
                        + "\"clientInfo\":{\"name\":\"it\",\"version\":\"1\"}}}"), HttpResponse.BodyHandlers.ofString());
                assertEquals(200, init.statusCode(), init.body());
                assertTrue(init.body().contains("\"serverInfo\":{\"name\":\"schemabrain\""), init.body());
                CompletableFuture<HttpResponse<String>> call = http.sendAsync(post(served, "{\"jsonrpc\":\"2.0\",\"id\":2,"
                        + "\"method\":\"tools/call\",\"params\":{\"name\":\"describe_table\",\"arguments\":"
                        + "{\"qualified_name\":\"main.users\"}}}"), HttpResponse.BodyHandlers.ofString());
                Thread.sleep(1500);
                assertFalse(call.isDone(), "the call waits while the catalog cannot be read");
                holder.rollback();
                HttpResponse<String> answered = call.get(30, java.util.concurrent.TimeUnit.SECONDS);
                assertEquals(200, answered.statusCode(), answered.body());
                assertTrue(answered.body().contains("\\\"status\\\":\\\"success\\\""), answered.body());
                assertTrue(answered.body().contains("email"), answered.body());
            }
        }
    }

    private static HttpRequest post(ServedJar served, String body) {
        return HttpRequest.newBuilder(URI.create(served.url + "/mcp"))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", "2025-06-18")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }

    @Test
    void aServingRoleWithSelectAndAuditInsertServesTheStore() throws Exception {
        String schema = freshSchema();
        assertEquals(0, cli("--store", storeUrl(schema), "index", "--source", source).exitCode());
        String role = "sb_serve_" + schema;
        try (Connection c = TestPostgres.connect("postgres"); Statement st = c.createStatement()) {
            st.execute("CREATE ROLE " + role + " LOGIN");
            // The grants docs/deployment.md gives a serving role, and nothing more.
            st.execute("GRANT USAGE ON SCHEMA " + schema + " TO " + role);
            st.execute("GRANT SELECT ON ALL TABLES IN SCHEMA " + schema + " TO " + role);
            st.execute("GRANT INSERT ON " + schema + ".audit_log, " + schema + ".audit_meta TO " + role);
            st.execute("GRANT INSERT, UPDATE ON " + schema + ".audit_witness TO " + role);
        }
        String asServer = "postgresql://" + role + "@localhost:" + TestPostgres.port() + "/postgres?schema=" + schema;
        McpSyncClient client = serve(asServer, new StringBuffer());
        try {
            assertTrue(describe(client, "main.users").contains("email"));
            describe(client, "main.plans");
        } finally {
            client.closeGracefully();
        }
        assertEquals(2, TestPostgres.count("postgres", "SELECT count(*) FROM " + schema + ".audit_log"),
                "the serving role recorded both calls into the store's chain");
        assertFalse(Files.exists(work.resolve("schemabrain-" + schema + ".audit.db")), "no local audit file");
        Cli.Result verify = cli("--store", asServer, "audit", "verify");
        assertEquals(0, verify.exitCode(), verify.stdout() + verify.stderr());
        assertTrue(verify.stdout().startsWith("audit chain intact: 2 rows verified"), verify.stdout());
        assertFalse(verify.stdout().contains("warning"), "the store's witness was written: " + verify.stdout());

        Cli.Result write = cli("--store", asServer, "token", "create", "nope");
        assertEquals(2, write.exitCode(), "the serving role cannot write the catalog: " + write);
        assertTrue(write.stderr().contains("permission denied"), write.stderr());
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://localhost:" + TestPostgres.port() + "/postgres", role, "");
             Statement st = c.createStatement()) {
            for (String change : List.of("UPDATE " + schema + ".audit_log SET status = 'x'", "DELETE FROM " + schema + ".audit_log",
                    "TRUNCATE " + schema + ".audit_log", "DELETE FROM " + schema + ".catalog_tables")) {
                SQLException refused = Assertions.assertThrows(SQLException.class,
                        () -> st.execute(change), change);
                assertTrue(refused.getMessage().contains("permission denied"), refused.getMessage());
            }
        }
    }

    @Test
    void aSecondIndexRunOfTheSameSourceIsRefusedWhileOneWrites() throws Exception {
        String schema = freshSchema();
        String store = storeUrl(schema);
        assertEquals(0, cli("--store", store, "index", "--source", source).exitCode());
        String sourceId = SourceUrl.parse(source).sourceId();
        try (Connection c = TestPostgres.connect("postgres")) {
            c.setAutoCommit(false);
            // What a run holds from the start of its write transaction to its commit.
            try (PreparedStatement st = c.prepareStatement(
                    "SELECT pg_advisory_xact_lock(hashtextextended('schemabrain index ' || ? || ' ' || ?, 0))")) {
                st.setString(1, schema);
                st.setString(2, sourceId);
                st.execute();
            }
            Cli.Result refused = cli("--store", store, "index", "--source", source);
            assertEquals(2, refused.exitCode(), refused.stderr());
            assertEquals("schemabrain: Another index run of " + SourceUrl.parse(source).displayUrl() + " is writing the store "
                    + new StoreLocation.PostgresSchema(SourceUrl.parse(TestPostgres.url("postgres")), schema)
                    + "; wait for it to finish and retry.", refused.stderr().strip().lines().reduce((a, b) -> b).orElse(""));
            c.rollback();
        }
        assertEquals(0, cli("--store", store, "index", "--source", source).exitCode(), "free again once the run ends");

        // Two real runs at once, on a changed source: each one either writes or says why it did not.
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + demo); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE extra (id INTEGER PRIMARY KEY, label TEXT)");
        }
        List<CompletableFuture<Cli.Result>> runs = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            runs.add(CompletableFuture.supplyAsync(() -> {
                try {
                    return cli("--store", store, "index", "--source", source);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }));
        }
        List<Cli.Result> results = runs.stream().map(CompletableFuture::join).toList();
        assertTrue(results.stream().anyMatch(r -> r.exitCode() == 0), results.toString());
        for (Cli.Result r : results) {
            assertTrue(r.exitCode() == 0 || (r.exitCode() == 2 && r.stderr().contains("Another index run of")), r.toString());
        }
        try (Store s = Stores.open(Stores.location(store, null, null, Map.of()))) {
            assertEquals(DemoDatabase.TABLE_COUNT + 1, s.read(c -> CatalogRepository.catalog(c, sourceId)).tables().size());
        }
    }

    @Test
    void storeCopyBothWaysKeepsTheDigest() throws Exception {
        Path file = work.resolve("schemabrain.db");
        assertEquals(0, cli("--store", file.toString(), "index", "--source", source).exitCode());
        assertEquals(0, cli("--store", file.toString(), "token", "create", "ci-bot").exitCode());
        String pg = storeUrl(freshSchema());

        Cli.Result there = cli("store", "copy", "--from", file.toString(), "--to", pg);
        assertEquals(0, there.exitCode(), there.stderr());
        List<String> digests = digests(there.stdout());
        assertEquals(2, digests.size(), there.stdout());
        assertEquals(digests.get(0), digests.get(1));

        Path back = work.resolve("back.db");
        Cli.Result home = cli("store", "copy", "--from", pg, "--to", back.toString());
        assertEquals(0, home.exitCode(), home.stderr());
        assertEquals(List.of(digests.get(0), digests.get(0)), digests(home.stdout()), "the round trip changes nothing");

        Cli.Result refused = cli("store", "copy", "--from", file.toString(), "--to", pg);
        assertEquals(2, refused.exitCode());
        assertTrue(refused.stderr().contains("holds a store already; pass --replace"), refused.stderr());
        assertEquals(0, cli("store", "copy", "--from", file.toString(), "--to", pg, "--replace").exitCode());

        // The copy serves: the token list and the catalog come from PostgreSQL.
        Cli.Result tokens = cli("--store", pg, "token", "list");
        assertEquals("ci-bot", tokens.stdout().strip().split("\t")[0]);
        StringBuffer stderr = new StringBuffer();
        McpSyncClient client = serve(pg, stderr);
        try {
            assertTrue(describe(client, "main.users").contains("email"));
        } finally {
            client.closeGracefully();
        }
    }

    private static List<String> digests(String stdout) {
        return stdout.lines().filter(l -> l.startsWith("digest of ")).map(l -> l.substring(l.indexOf("sha256:")))
                .collect(Collectors.toList());
    }

    private static String describe(McpSyncClient client, String table) {
        McpSchema.CallToolResult r = McpStdio.call(client, "describe_table", Map.of("qualified_name", table));
        String text = ((McpSchema.TextContent) r.content().get(0)).text();
        assertFalse(Boolean.TRUE.equals(r.isError()), text);
        return text;
    }

    /** {@code serve} on the store URL, started in the test's directory (nothing may be written there: the chain is in the store). */
    private McpSyncClient serve(String store, StringBuffer stderr) {
        List<String> command = new ArrayList<>(McpStdio.serveCommand(Path.of("unused")));
        command.set(command.indexOf("--store") + 1, store);
        command.replaceAll(a -> a.equals(McpStdio.jar().toString()) ? McpStdio.jar().toAbsolutePath().toString() : a);
        String line = "cd '" + work + "' && exec " + command.stream().map(a -> "'" + a + "'").collect(Collectors.joining(" "));
        return McpStdio.client(ServerParameters.builder("sh").args("-c", line).build(), stderr);
    }
}
