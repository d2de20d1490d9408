package dev.schemabrain.mining;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.execute.ExecutorSettings;
import dev.schemabrain.execute.QueryExecutor;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.mcp.tools.StandardTools;
import dev.schemabrain.served.StoreCatalogProvider;
import dev.schemabrain.semantic.model.Entity;
import dev.schemabrain.semantic.model.Filter;
import dev.schemabrain.semantic.model.FilterOp;
import dev.schemabrain.semantic.model.Metric;
import dev.schemabrain.semantic.model.Segment;
import dev.schemabrain.semantic.model.SemanticModel;
import dev.schemabrain.testing.StoreBytes;
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
import java.util.Optional;

import static dev.schemabrain.mining.MinedStore.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * From a real PostgreSQL statement log (csvlog) to draft segments: a SaaS workload filters invoices on
 * {@code status = 'paid'} and test rows out ({@code is_test = false}, {@code NOT is_test}, {@code is_test IS FALSE}),
 * subscriptions on {@code status IN ('active', 'past_due')} and {@code auto_renew}, each in several distinct
 * statements, and accounts on an e-mail. {@code mine-queries --log-file} drafts status_paid, status_active_past_due
 * and auto_renew_true with their counts; describe_entity shows them; get_metric with one equals hand-written SQL; the
 * test-row filter is already the default segment; the e-mail gives nothing and never reaches the store.
 * pg_stat_statements, mined beside it, replaces the values and drafts none of them.
 */
class ServerLogSegmentsTest {

    private static final String DB = "t30_log_segments";
    private static final String EMAIL = "pat.doe@example.org";
    private static final int RUNS = 2;
    private static final List<String> SCHEMA = List.of(
            "CREATE SCHEMA saas",
            "CREATE TYPE saas.invoice_status AS ENUM ('draft', 'open', 'paid', 'void')",
            "CREATE TABLE saas.accounts (account_id int PRIMARY KEY, email text, full_name text, plan text NOT NULL)",
            "CREATE TABLE saas.subscriptions (subscription_id int PRIMARY KEY, account_id int NOT NULL REFERENCES saas.accounts,"
                    + " status text NOT NULL, auto_renew boolean NOT NULL, started_at timestamp NOT NULL)",
            "CREATE TABLE saas.invoices (invoice_id int PRIMARY KEY, subscription_id int NOT NULL REFERENCES saas.subscriptions,"
                    + " status saas.invoice_status NOT NULL, total numeric(12,2) NOT NULL, is_test boolean NOT NULL,"
                    + " created_at timestamp NOT NULL)",
            "INSERT INTO saas.accounts SELECT g, CASE WHEN g = 1 THEN '" + EMAIL + "' ELSE 'a' || g || '@example.org' END,"
                    + " 'Account ' || g, (ARRAY['free', 'team', 'business'])[1 + g % 3] FROM generate_series(1, 30) g",
            "INSERT INTO saas.subscriptions SELECT g, 1 + g % 30, (ARRAY['trialing', 'active', 'past_due', 'canceled', 'active'])[1 + g % 5],"
                    + " g % 3 <> 0, timestamp '2025-01-01' + g * interval '3 days' FROM generate_series(1, 60) g",
            "INSERT INTO saas.invoices SELECT g, 1 + g % 60, (ARRAY['draft', 'open', 'paid', 'void', 'paid'])[1 + g % 5]::saas.invoice_status,"
                    + " (g * 37 % 900) + 0.5, g % 8 = 0, timestamp '2025-02-01' + g * interval '1 day' FROM generate_series(1, 240) g");

    /** Several distinct statements per filter, each run {@link #RUNS} times, as an application's reports would. */
    private static final List<String> WORKLOAD = List.of(
            "SELECT count(*) FROM saas.invoices WHERE status = 'paid'",
            "SELECT sum(total) FROM saas.invoices WHERE status = 'paid' AND is_test = false",
            "SELECT date_trunc('month', created_at), sum(total) FROM saas.invoices WHERE status = 'paid' AND NOT is_test GROUP BY 1",
            "SELECT count(*) FROM saas.invoices WHERE is_test IS FALSE AND total > 100",
            "SELECT count(*) FROM saas.subscriptions WHERE status IN ('active', 'past_due')",
            "SELECT account_id FROM saas.subscriptions WHERE status IN ('active', 'past_due') AND auto_renew ORDER BY 1",
            "SELECT count(*) FROM saas.subscriptions WHERE auto_renew = true",
            "SELECT account_id FROM saas.accounts WHERE email = '" + EMAIL + "'",
            "SELECT plan FROM saas.accounts WHERE email = '" + EMAIL + "'");
    private static final String LAST = "SELECT 'workload done' FROM saas.accounts WHERE account_id = 0";

    private static LoggingPostgres server;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() throws Exception {
        server = LoggingPostgres.start("csvlog", "pg", Map.of("shared_preload_libraries", "pg_stat_statements"));
        try (Connection c = server.connect("postgres"); Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE " + DB);
        }
        try (Connection c = server.connect(DB); Statement st = c.createStatement()) {
            st.execute("CREATE EXTENSION pg_stat_statements");
            for (String sql : SCHEMA) {
                st.execute(sql);
            }
        }
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    @Test
    void theServerLogDraftsSegmentsThatAnswerAsHandWrittenSql() throws Exception {
        MinedStore mined = new MinedStore(dir.resolve("store.db"));
        ok(mined.cli("index", "--source", server.url(DB)));
        MinedStore statistics = new MinedStore(dir.resolve("statistics.db"));
        ok(statistics.cli("index", "--source", server.url(DB)));
        try (Connection c = server.connect(DB); Statement st = c.createStatement()) {
            st.execute("SELECT pg_stat_statements_reset()");
            for (int i = 0; i < RUNS; i++) {
                for (String sql : WORKLOAD) {
                    st.execute(sql);
                }
            }
            st.execute(LAST);
        }
        server.awaitLogged("workload done", "pg.csv");
        Path log = server.logs().resolve("pg.csv");
        String out = ok(mined.cli("mine-queries", "--source", server.url(DB), "--log-file", log.toString()));
        System.out.println(out);
        assertTrue(out.contains("saas.invoices.is_test = false  (3 statements, " + 3 * RUNS + " observations"), out);
        assertTrue(out.contains("saas.accounts.email = ?  (2 statements"), "the e-mail replaced: " + out);

        // pg_stat_statements, beside it, replaces the values (true and false too): only NOT is_test and IS FALSE,
        // which have none, stay yes/no; no segment comes from it.
        String fromPgss = ok(statistics.cli("mine-queries", "--source", server.url(DB)));
        assertTrue(fromPgss.contains("saas.invoices.status = ?  (3 statements"), fromPgss);
        assertTrue(fromPgss.contains("saas.invoices.is_test = false  (2 statements"), fromPgss);
        SemanticModel fromStatistics = statistics.semanticLayer();
        assertEquals(List.of(), observed(entity(fromStatistics, "invoices")));
        assertEquals(List.of(), observed(entity(fromStatistics, "subscriptions")), "auto_renew = $1 and a bare auto_renew differ there");

        SemanticModel model = mined.semanticLayer();
        Entity invoices = entity(model, "invoices");
        Entity subscriptions = entity(model, "subscriptions");
        assertEquals(List.of("status_paid"), observed(invoices), invoices.segments().toString());
        assertEquals(List.of("auto_renew_true", "status_active_past_due"), observed(subscriptions),
                "two statements each, ties by name: " + subscriptions.segments());
        Segment paid = invoices.segment("status_paid").orElseThrow();
        assertEquals(List.of(new Filter("invoices.status", FilterOp.EQ, "paid")), paid.filters());
        assertEquals(3, paid.observed().statements());
        assertEquals(3L * RUNS, paid.observed().observations(), "three statements, each run " + RUNS + " times");
        assertEquals(List.of(new Filter("subscriptions.auto_renew", FilterOp.EQ, true)),
                subscriptions.segment("auto_renew_true").orElseThrow().filters());
        // Three spellings of "not a test row" are one filter, already the default segment's: no second name for it.
        assertTrue(invoices.defaultSegments().stream().anyMatch(g -> g.filters().contains(new Filter("invoices.is_test", FilterOp.EQ, false))),
                invoices.segments().toString());
        assertTrue(observed(entity(model, "accounts")).isEmpty(), entity(model, "accounts").segments().toString());
        assertFalse(StoreBytes.of(mined.file()).contains(EMAIL), "the e-mail reached the store");

        try (QueryExecutor executor = new QueryExecutor(SourceUrl.parse(server.url(DB)), ExecutorSettings.defaults())) {
            ToolRegistry tools = StandardTools.registry(new StoreCatalogProvider(mined.file()), Optional.of(executor));
            JsonNode described = JSON.valueToTree(tools.call("describe_entity", Map.of("name", "invoices")));
            JsonNode row = segmentRow(described, "status_paid");
            assertEquals("observed_in_query_log", row.path("inference_method").asText(), row.toString());
            assertEquals("draft", row.path("validation_state").asText(), row.toString());
            assertEquals(3, row.path("observed").path("statements").asInt(), row.toString());
            assertEquals(3L * RUNS, row.path("observed").path("observations").asLong(), row.toString());

            Metric invoiceCount = metric(model, "invoices", "count");
            assertEquals(query("SELECT count(*) FROM saas.invoices WHERE status = 'paid' AND is_test = false"),
                    value(JSON.valueToTree(tools.call("get_metric", Map.of("name", invoiceCount.name(), "segments", List.of("status_paid"))))),
                    0.001, "status_paid and the default segment");
            Metric count = metric(model, "subscriptions", "count");
            assertEquals(query("SELECT count(*) FROM saas.subscriptions WHERE auto_renew"),
                    value(JSON.valueToTree(tools.call("get_metric", Map.of("name", count.name(), "segments", List.of("auto_renew_true"))))),
                    0.001, "a yes/no segment bound as a boolean");
            assertEquals(query("SELECT count(*) FROM saas.subscriptions WHERE status IN ('active', 'past_due')"),
                    value(JSON.valueToTree(tools.call("get_metric", Map.of("name", count.name(), "segments", List.of("status_active_past_due"))))),
                    0.001);
        }
    }

    static final ObjectMapper JSON = new ObjectMapper();

    static Entity entity(SemanticModel m, String name) {
        return m.entities().stream().filter(e -> e.name().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no entity " + name + " in " + m.entities()));
    }

    /** The names of the entity's segments drafted from the query log, as ordered. */
    static List<String> observed(Entity e) {
        return e.segments().stream().filter(g -> g.observed() != null).map(Segment::name).toList();
    }

    /** The entity's draft metric with that aggregation and no filter of its own. */
    static Metric metric(SemanticModel m, String entity, String agg) {
        return m.metrics().stream().filter(x -> x.entity().equals(entity) && x.isSimple() && x.filters().isEmpty()
                        && x.measure().agg().wireName().equals(agg))
                .findFirst().orElseThrow(() -> new AssertionError("no " + agg + " of " + entity + " in " + m.metrics()));
    }

    static JsonNode segmentRow(JsonNode described, String name) {
        for (JsonNode g : described.path("data").path("segments")) {
            if (g.path("name").asText().equals(name)) {
                return g;
            }
        }
        throw new AssertionError("no segment " + name + " in " + described);
    }

    /** The one value of a get_metric answer without group_by. */
    static double value(JsonNode envelope) {
        JsonNode rows = envelope.path("data").path("rows");
        assertEquals(1, rows.size(), envelope.toString());
        JsonNode v = null;
        for (JsonNode field : rows.get(0)) {
            v = field;
        }
        assertNotNull(v, envelope.toString());
        return v.asDouble();
    }

    private static double query(String sql) throws Exception {
        try (Connection c = server.connect(DB); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            double v = rs.getDouble(1);
            assertTrue(v > 0, sql + " selects nothing");
            return v;
        }
    }
}
