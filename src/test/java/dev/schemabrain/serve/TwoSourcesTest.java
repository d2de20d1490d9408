package dev.schemabrain.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemabrain.audit.AuditLog;
import dev.schemabrain.audit.AuditRecord;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.store.StoreLocation;
import dev.schemabrain.testing.InProcessCli;
import dev.schemabrain.testing.McpStdio;
import dev.schemabrain.testing.TestMariaDb;
import dev.schemabrain.testing.TestPostgres;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two databases in one store, served by one process: a PostgreSQL shop and a MariaDB help desk read by a user with a
 * plain SELECT grant. Both are indexed, serve refuses to start with a connection for one only, and with both a real
 * MCP client over stdio gets a metric from each equal to hand-written SQL, a statement over both refused, and audit
 * rows that say which database each statement ran on.
 */
class TwoSourcesTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String USER = "sb_two_reader";

    @TempDir
    static Path dir;
    static Path store;
    static String crm;
    static String pgUrl;
    static String mariaUrl;

    @BeforeAll
    static void indexBoth() throws Exception {
        TestPostgres.createDatabase("sb_two_shop",
                "CREATE TABLE orders (id int PRIMARY KEY, status text NOT NULL, total_cents int NOT NULL,"
                        + " created_at timestamp NOT NULL)",
                "INSERT INTO orders SELECT g, CASE WHEN g % 3 = 0 THEN 'refunded' ELSE 'paid' END, g * 100,"
                        + " timestamp '2024-01-01' + g * interval '1 day' FROM generate_series(1, 60) g");
        crm = TestMariaDb.create("sb_two_crm",
                "CREATE TABLE teams (id INT PRIMARY KEY, name VARCHAR(40) NOT NULL)",
                "CREATE TABLE tickets (id INT PRIMARY KEY, team_id INT NOT NULL, priority VARCHAR(10) NOT NULL,"
                        + " opened_at DATETIME NOT NULL, FOREIGN KEY (team_id) REFERENCES teams(id))",
                "INSERT INTO teams VALUES (1, 'billing'), (2, 'platform')",
                "INSERT INTO tickets SELECT seq, 1 + seq % 2, IF(seq % 4 = 0, 'high', 'normal'),"
                        + " '2024-02-01' + INTERVAL seq DAY FROM seq_1_to_45");
        try (Connection c = TestMariaDb.connect(crm); Statement st = c.createStatement()) {
            st.execute("DROP USER IF EXISTS '" + USER + "'@'%'");
            st.execute("CREATE USER '" + USER + "'@'%' IDENTIFIED BY 'two-secret'");
            st.execute("GRANT SELECT ON " + crm + ".* TO '" + USER + "'@'%'");
        }
        pgUrl = TestPostgres.url("sb_two_shop");
        mariaUrl = "mariadb://" + USER + "@" + TestMariaDb.SERVER + "/" + crm;
        store = dir.resolve("store.db");
        Map<String, String> env = Map.of("CRM_URL", "mariadb://" + USER + ":two-secret@" + TestMariaDb.SERVER + "/" + crm);
        assertEquals(0, InProcessCli.runAtEof(env, "--store", store.toString(), "index", "--source", pgUrl).exitCode());
        InProcessCli.Result second = InProcessCli.runAtEof(env, "--store", store.toString(), "index", "--add-source", "--url-env", "CRM_URL");
        assertEquals(0, second.exitCode(), second.stderr());
    }

    @AfterAll
    static void dropBoth() throws Exception {
        try (Connection c = TestMariaDb.connect(crm); Statement st = c.createStatement()) {
            st.execute("DROP USER IF EXISTS '" + USER + "'@'%'");
        }
        TestMariaDb.drop(crm);
    }

    @Test
    void serveRefusesToStartWithoutAConnectionForEverySource() throws Exception {
        InProcessCli.Result r = InProcessCli.runAtEof(Map.of(), "--store", store.toString(), "serve", "--source", pgUrl);
        assertEquals(2, r.exitCode(), r.stderr());
        assertTrue(r.stderr().contains("holds 2 sources") && r.stderr().contains(SourceUrl.parse(mariaUrl).displayUrl()), "names the source left out: " + r.stderr());
        assertTrue(r.stderr().contains("once for each source"), "says what to do: " + r.stderr());
        assertFalse(r.stderr().contains("two-secret"), r.stderr());
        assertFalse(r.stderr().contains("Exception"), r.stderr());
    }

    @Test
    void oneProcessAnswersAMetricOfEachDatabaseAndRefusesAStatementOverBoth() throws Exception {
        StringBuffer stderr = new StringBuffer();
        McpSyncClient client = McpStdio.client(store, stderr,
                Map.of("CRM_URL", "mariadb://" + USER + ":two-secret@" + TestMariaDb.SERVER + "/" + crm),
                "--source", pgUrl, "--url-env", "CRM_URL");
        try {
            JsonNode orders = data(McpStdio.call(client, "get_metric", Map.of("name", "orders_count")));
            assertEquals(TestPostgres.count("sb_two_shop", "SELECT count(*) FROM orders"),
                    only(orders), orders::toString);
            JsonNode tickets = data(McpStdio.call(client, "get_metric", Map.of("name", "tickets_count")));
            assertEquals(mariaCount("SELECT count(*) FROM tickets"), only(tickets), tickets::toString);

            JsonNode one = data(McpStdio.call(client, "execute", Map.of("sql",
                    "SELECT count(*) AS n FROM " + crm + ".tickets WHERE priority = 'high'")));
            assertEquals(mariaCount("SELECT count(*) FROM tickets WHERE priority = 'high'"),
                    one.path("data").path("rows").get(0).get(0).asLong(), one::toString);

            McpSchema.CallToolResult both = McpStdio.call(client, "execute", Map.of("sql",
                    "SELECT o.id FROM public.orders o JOIN " + crm + ".tickets t ON t.id = o.id"));
            JsonNode refused = data(both);
            assertEquals("invalid_argument", refused.path("error").path("kind").asText(), refused::toString);
            assertTrue(refused.path("error").path("message").asText().contains("tables of 2 databases"), refused::toString);
            assertTrue(refused.path("error").path("message").asText().contains("ask each database separately"),
                    refused::toString);
        } finally {
            McpStdio.stop(client);
        }
        assertFalse(stderr.toString().contains("two-secret"), "no password in the server's log");
        // Each statement's audit rows name the database it ran on.
        Set<String> ran;
        try (AuditLog log = AuditLog.openExisting(new StoreLocation.SqliteFile(store))) {
            ran = log.list(10_000, OptionalLong.empty()).stream().map(AuditRecord::entry)
                    .filter(e -> e.tool().equals("get_metric") && e.sqlFingerprint() != null)
                    .map(e -> e.sourceId()).collect(Collectors.toSet());
        }
        assertEquals(Set.of(SourceUrl.parse(pgUrl).sourceId(), SourceUrl.parse(mariaUrl).sourceId()), ran);
    }

    private static JsonNode data(McpSchema.CallToolResult result) throws Exception {
        return JSON.readTree(((McpSchema.TextContent) result.content().get(0)).text());
    }

    /** The one value of a one-row, ungrouped answer. */
    private static long only(JsonNode answer) {
        JsonNode rows = answer.path("data").path("rows");
        assertEquals(1, rows.size(), answer::toString);
        JsonNode row = rows.get(0);
        List<String> columns = JSON.convertValue(answer.path("data").path("columns"), List.class);
        return row.path(columns.get(columns.size() - 1)).asLong();
    }

    private static long mariaCount(String sql) throws Exception {
        try (Connection c = TestMariaDb.connect(crm); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
