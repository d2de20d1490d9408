package dev.schemabrain.mining;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.engine.LoggedStatement;
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
import dev.schemabrain.store.QueryLogRepository;
import dev.schemabrain.store.SemanticLayer;
import dev.schemabrain.store.Store;
import dev.schemabrain.store.StoreLocation;
import dev.schemabrain.store.Stores;
import dev.schemabrain.testing.TestMariaDb;
import dev.schemabrain.testing.TestPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static dev.schemabrain.mining.MinedStore.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Query-log mining v2: the filters a workload uses often on an entity's table become draft segments of it
 * (observed_in_query_log, with counts), a status-ENUM one a filtered twin of an unfiltered draft metric; a PII
 * filter, a one-off filter and crafted statements or store rows give nothing. On PostgreSQL and MariaDB, whose
 * statement statistics replace literals, the workload is fed as a log with its literals (MySQL 8's
 * QUERY_SAMPLE_TEXT, a server log) through the same analysis and store as mine-queries; the last test mines
 * pg_stat_statements itself.
 */
class ObservedSegmentsMiningTest {

    private static final String PG = "t30_observed_segments";
    private static final List<String> TABLES_MARIADB = List.of(
            "CREATE TABLE customers (customer_id INT PRIMARY KEY, email VARCHAR(200), full_name VARCHAR(200))",
            "CREATE TABLE invoices (invoice_id INT PRIMARY KEY, customer_id INT REFERENCES customers (customer_id),"
                    + " status ENUM('draft','open','paid','void') NOT NULL, total DECIMAL(12,2) NOT NULL,"
                    + " created_at DATETIME NOT NULL, paid_at DATETIME NULL, deleted_at DATETIME NULL)");
    private static final List<String> TABLES_POSTGRES = List.of(
            "CREATE SCHEMA billing",
            "CREATE TYPE billing.invoice_status AS ENUM ('draft', 'open', 'paid', 'void')",
            "CREATE TABLE billing.customers (customer_id int PRIMARY KEY, email text, full_name text)",
            "CREATE TABLE billing.invoices (invoice_id int PRIMARY KEY, customer_id int REFERENCES billing.customers,"
                    + " status billing.invoice_status NOT NULL, total numeric(12,2) NOT NULL, created_at timestamp NOT NULL,"
                    + " paid_at timestamp, deleted_at timestamp)");

    /** Repeated filters, each in several statements; a PII one; a one-off; crafted ones. Calls per statement beside. */
    private static final List<String> WORKLOAD = List.of(
            "SELECT count(*) FROM invoices WHERE status = 'paid'",
            "SELECT sum(total) FROM invoices WHERE status = 'paid' AND created_at > '2026-01-01'",
            "SELECT customer_id, sum(total) FROM invoices WHERE status = 'paid' AND paid_at IS NOT NULL GROUP BY customer_id",
            "SELECT count(*) FROM invoices WHERE paid_at IS NOT NULL",
            "SELECT count(*) FROM invoices WHERE status IN ('open', 'void')",
            "SELECT avg(total) FROM invoices WHERE status IN ('open', 'void') AND deleted_at IS NULL",
            "SELECT max(total) FROM invoices WHERE deleted_at IS NULL",
            // one statement, run often: one report's detail, not a slice
            "SELECT invoice_id FROM invoices WHERE status = 'draft'",
            // PII: the value is never kept, the column never sliced
            "SELECT count(*) FROM invoices i JOIN customers c ON c.customer_id = i.customer_id WHERE c.email = 'jane.roe@example.org'",
            "SELECT c.customer_id FROM customers c WHERE c.email = 'jane.roe@example.org'",
            "SELECT count(*) FROM customers WHERE email IS NOT NULL",
            "SELECT customer_id FROM customers WHERE email IS NOT NULL ORDER BY customer_id",
            // crafted: a value the catalog does not list, and a name that is no column
            "SELECT count(*) FROM invoices WHERE status = 'paid'' OR ''1''=''1'",
            "SELECT sum(total) FROM invoices WHERE status = 'paid'' OR ''1''=''1'",
            "SELECT count(*) FROM invoices WHERE \"status\"\" OR 1=1 --\" = 'paid'",
            "SELECT sum(total) FROM invoices WHERE \"status\"\" OR 1=1 --\" = 'paid'");

    @TempDir
    Path dir;
    private static final List<String> MARIADB = new ArrayList<>();

    @AfterAll
    static void drop() throws Exception {
        for (String db : MARIADB) {
            TestMariaDb.drop(db);
        }
    }

    private record Source(String engine, String url, String schema) {
    }

    private Source source(String engine) throws Exception {
        if (engine.equals("postgresql")) {
            List<String> sql = new ArrayList<>(TABLES_POSTGRES);
            sql.addAll(data("billing."));
            TestPostgres.createDatabase(PG, sql.toArray(String[]::new));
            return new Source(engine, TestPostgres.url(PG), "billing");
        }
        List<String> sql = new ArrayList<>(TABLES_MARIADB);
        sql.addAll(data(""));
        String db = TestMariaDb.create("t30_observed_segments", sql.toArray(String[]::new));
        MARIADB.add(db);
        return new Source(engine, TestMariaDb.url(db), db);
    }

    /** 12 customers (enough people for an answer); 60 invoices over the four statuses, every seventh deleted, paid ones with a paid_at. */
    private static List<String> data(String schema) {
        List<String> out = new ArrayList<>();
        StringBuilder customers = new StringBuilder("(1, 'jane.roe@example.org', 'Jane Roe'), (2, NULL, 'Walk-in')");
        for (int i = 3; i <= 12; i++) {
            customers.append(", (").append(i).append(", 'c").append(i).append("@example.org', 'Customer ").append(i).append("')");
        }
        out.add("INSERT INTO " + schema + "customers VALUES " + customers);
        String[] statuses = {"draft", "open", "paid", "void", "paid"};
        StringBuilder rows = new StringBuilder();
        for (int i = 1; i <= 60; i++) {
            String status = statuses[i % statuses.length];
            rows.append(i == 1 ? "" : ", ").append("(").append(i).append(", ").append(1 + i % 12).append(", '").append(status)
                    .append("', ").append(i * 7 % 500).append(".25, '2026-0").append(1 + i % 6).append("-1").append(i % 9)
                    .append(" 10:00:00', ").append(status.equals("paid") ? "'2026-07-01 09:00:00'" : "NULL").append(", ")
                    .append(i % 7 == 0 ? "'2026-08-01 00:00:00'" : "NULL").append(")");
        }
        out.add("INSERT INTO " + schema + "invoices VALUES " + rows);
        return out;
    }

    /** The workload as a log with literals delivers it, the one-off statement run 50 times as often. */
    private static void mineLog(MinedStore mined, Source s, int callsEach) throws Exception {
        List<LoggedStatement> logged = new ArrayList<>();
        for (String sql : WORKLOAD) {
            // (On MySQL a double-quoted name is a string: no column either way.)
            logged.add(new LoggedStatement(sql, sql.contains("'draft'") ? 50L * callsEach : callsEach));
        }
        mined.mineLog(s.url(), s.schema(), logged);
    }

    private static Entity entity(SemanticModel m, String name) {
        return m.entities().stream().filter(e -> e.name().equals(name)).findFirst().orElseThrow(() -> new AssertionError(
                "no entity " + name + " in " + m.entities().stream().map(Entity::name).toList()));
    }

    private static List<Segment> observed(Entity e) {
        return e.segments().stream().filter(g -> g.observed() != null).toList();
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb"})
    void frequentSafeFiltersBecomeDraftSegmentsThatAnswerAsHandWrittenSql(String engine) throws Exception {
        Source s = source(engine);
        MinedStore mined = new MinedStore(dir.resolve("store.db"));
        ok(mined.cli("index", "--source", s.url()));
        mineLog(mined, s, 3);

        SemanticModel model = mined.semanticLayer();
        Entity invoices = entity(model, "invoices");
        List<String> names = observed(invoices).stream().map(Segment::name).toList();
        assertEquals(List.of("status_paid", "paid_at_not_null", "status_open_void"), names,
                "most statements first: " + invoices.segments());
        Segment paid = invoices.segment("status_paid").orElseThrow();
        assertEquals(List.of(new Filter("invoices.status", FilterOp.EQ, "paid")), paid.filters());
        assertEquals(3, paid.observed().statements());
        assertEquals(9, paid.observed().observations(), "three statements, three calls each");
        assertNotNull(paid.observed().lastSeen());
        assertFalse(paid.isDefault(), "a proposal is never the default");
        assertEquals(List.of(new Filter("invoices.status", FilterOp.IN, List.of("open", "void"))),
                invoices.segment("status_open_void").orElseThrow().filters());
        // deleted_at IS NULL is already the default segment's: no second name for it.
        assertTrue(invoices.defaultSegments().stream().anyMatch(g -> g.filters().contains(new Filter("invoices.deleted_at", FilterOp.IS_NULL, null))),
                invoices.segments().toString());
        assertTrue(invoices.segment("status_draft").isEmpty(), "one statement, however often it ran, is no segment");
        assertTrue(observed(entity(model, "customers")).isEmpty(), "nothing on a PII column: " + entity(model, "customers").segments());
        for (Entity e : model.entities()) {
            for (Segment g : e.segments()) {
                assertFalse(g.filters().toString().contains("jane") || g.filters().toString().contains("OR"), g.toString());
            }
        }

        // The unfiltered count of invoices has a filtered twin; the original is untouched.
        Metric count = model.metrics().stream().filter(m -> m.entity().equals("invoices") && m.isSimple()
                && m.measure().agg().wireName().equals("count") && m.origin().method().wireName().equals("heuristic"))
                .findFirst().orElseThrow(() -> new AssertionError(model.metrics().toString()));
        assertEquals(List.of(), count.filters());
        Metric twin = model.metrics().stream().filter(m -> m.name().equals(count.name() + "_status_paid")).findFirst()
                .orElseThrow(() -> new AssertionError(model.metrics().stream().map(Metric::name).toList().toString()));
        assertEquals(paid.filters(), twin.filters());
        assertEquals("observed_in_query_log", twin.origin().method().wireName());
        assertEquals("draft", twin.origin().state().wireName());

        // get_metric with the drafted segment, and the twin, answer as hand-written SQL (the default segment applies).
        String t = s.schema() + ".invoices";
        long expected = count(s, "SELECT count(*) FROM " + t + " WHERE status = 'paid' AND deleted_at IS NULL");
        assertTrue(expected > 0);
        ObjectMapper json = new ObjectMapper();
        try (QueryExecutor executor = new QueryExecutor(SourceUrl.parse(s.url()), ExecutorSettings.defaults())) {
            answers(s, mined, json, StandardTools.registry(new StoreCatalogProvider(mined.file()), Optional.of(executor)),
                    count, twin, expected);
        }

        // A re-mine moves the counts and adds nothing; a re-index keeps them.
        mineLog(mined, s, 5);
        ok(mined.cli("index", "--source", s.url()));
        Entity again = entity(mined.semanticLayer(), "invoices");
        assertEquals(names, observed(again).stream().map(Segment::name).toList());
        assertEquals(15, again.segment("status_paid").orElseThrow().observed().observations(), "3 + 2 more calls on each of 3 statements");
    }

    private static void answers(Source s, MinedStore mined, ObjectMapper json, ToolRegistry tools, Metric count, Metric twin,
                                long expected) throws Exception {
        String t = s.schema() + ".invoices";
        JsonNode bySegment = json.valueToTree(tools.call("get_metric", Map.of("name", count.name(), "segments", List.of("status_paid"))));
        assertEquals(expected, value(bySegment), bySegment.toString());
        JsonNode byTwin = json.valueToTree(tools.call("get_metric", Map.of("name", twin.name())));
        assertEquals(expected, value(byTwin), byTwin.toString());
        JsonNode all = json.valueToTree(tools.call("get_metric", Map.of("name", count.name())));
        assertEquals(count(s, "SELECT count(*) FROM " + t + " WHERE deleted_at IS NULL"), value(all), "the original is unchanged");

        JsonNode described = json.valueToTree(tools.call("describe_entity", Map.of("name", "invoices")));
        JsonNode row = null;
        for (JsonNode g : described.path("data").path("segments")) {
            row = g.path("name").asText().equals("status_paid") ? g : row;
        }
        assertNotNull(row, described.toString());
        assertEquals("observed_in_query_log", row.path("inference_method").asText(), row.toString());
        assertEquals("draft", row.path("validation_state").asText(), row.toString());
        assertEquals(3, row.path("observed").path("statements").asInt(), row.toString());
    }

    /**
     * export writes where a draft segment came from; applied back untouched it stays a proposal; confirmed, the
     * operator's; diff is then in sync.
     */
    @Test
    void exportApplyAndDiffRoundTripAnObservedSegment() throws Exception {
        Source s = source("postgresql");
        MinedStore mined = new MinedStore(dir.resolve("store.db"));
        ok(mined.cli("index", "--source", s.url()));
        mineLog(mined, s, 2);
        Path project = dir.resolve("project");
        ok(mined.cli("export", project.toString()));
        String yaml = Files.readString(project.resolve("entities/invoices.yaml"));
        assertTrue(yaml.contains("origin: \"observed_in_query_log\"") || yaml.contains("origin: observed_in_query_log"), yaml);
        assertTrue(yaml.contains("statements: 3"), yaml);
        assertTrue(yaml.contains("status_paid"), yaml);

        // The operator keeps invoices (and its proposals) as theirs and leaves the rest out.
        for (String folder : List.of("entities", "joins", "metrics")) {
            try (var files = Files.list(project.resolve(folder))) {
                for (Path p : files.toList()) {
                    if (!p.getFileName().toString().equals("invoices.yaml") && !p.getFileName().toString().equals("customers.yaml")) {
                        Files.delete(p);
                    }
                }
            }
        }
        ok(mined.cli("apply", project.toString()));
        assertNotNull(entity(mined.semanticLayer(), "invoices").segment("status_paid").orElseThrow().observed(),
                "applied untouched: still a proposal");
        Path invoices = project.resolve("entities/invoices.yaml");
        Files.writeString(invoices, Files.readString(invoices).replace("validation_state: draft", "validation_state: confirmed"));
        ok(mined.cli("apply", project.toString()));
        assertEquals(0, mined.cli("diff", project.toString()).exitCode(), "in sync after apply");
        Entity accepted = entity(mined.semanticLayer(), "invoices");
        assertEquals("heuristic", accepted.origin().method().wireName());
        assertEquals("confirmed", accepted.origin().state().wireName());
        Segment paid = accepted.segment("status_paid").orElseThrow();
        assertNull(paid.observed(), "accepted: the operator's now");

        // A re-mine leaves the operator's entity alone: no duplicate, no marker back.
        mineLog(mined, s, 4);
        Entity after = entity(mined.semanticLayer(), "invoices");
        assertEquals(accepted.segments(), after.segments());
        assertEquals(0, mined.cli("diff", project.toString()).exitCode(), "still in sync after a re-mine");
    }

    /** Forged store rows (a statement the analyser never wrote) give nothing unsafe either: drafting re-checks the catalog. */
    @Test
    void forgedStoredFiltersDraftNothingUnsafe() throws Exception {
        Source s = source("postgresql");
        MinedStore mined = new MinedStore(dir.resolve("store.db"));
        ok(mined.cli("index", "--source", s.url()));
        String sourceId = SourceUrl.parse(s.url()).sourceId();
        List<QueryLogRepository.StoredFilter> forged = List.of(
                new QueryLogRepository.StoredFilter("billing", "customers", "email", "=", List.of("'jane.roe@example.org'")),
                new QueryLogRepository.StoredFilter("billing", "customers", "email", "is not null", List.of()),
                new QueryLogRepository.StoredFilter("billing", "invoices", "status\" = 'x' OR 1=1; --", "=", List.of("'paid'")),
                new QueryLogRepository.StoredFilter("billing", "invoices", "status", "=", List.of("'paid'' OR ''1''=''1'")),
                new QueryLogRepository.StoredFilter("billing", "invoices", "status", "=", List.of("paid); DROP TABLE x; --")),
                new QueryLogRepository.StoredFilter("billing", "invoices", "status", "like", List.of("'pa%'")),
                new QueryLogRepository.StoredFilter("billing", "invoices", "total", "=", List.of("'12.25'")),
                new QueryLogRepository.StoredFilter("billing", "invoices", "created_at", "is null", List.of()));
        List<QueryLogRepository.Statement> statements = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            statements.add(new QueryLogRepository.Statement("forged" + i, "select", "SELECT " + i, 10,
                    List.of(QualifiedName.of("billing", "invoices")), List.of(), List.of(), List.of(), List.of(), forged));
        }
        try (Store store = Stores.open(StoreLocation.file(mined.file()))) {
            store.write(c -> {
                QueryLogRepository.merge(c, sourceId, Optional.empty(), statements, Instant.now());
                SemanticLayer.refreshDrafts(c);
                return null;
            });
        }
        SemanticModel model = mined.semanticLayer();
        for (Entity e : model.entities()) {
            assertEquals(List.of(), observed(e), e.name());
        }
        assertTrue(model.metrics().stream().noneMatch(m -> m.origin().method().wireName().equals("observed_in_query_log")));
    }

    /** Through pg_stat_statements itself: it replaces every literal, so only the null tests, which have none, are drafted. */
    @Test
    void pgStatStatementsGivesTheNullTestsOnly() throws Exception {
        TestPostgres.createDatabase(PG + "_pgss", concat(List.of("CREATE EXTENSION IF NOT EXISTS pg_stat_statements"),
                TABLES_POSTGRES, data("billing.")).toArray(String[]::new));
        String url = TestPostgres.url(PG + "_pgss");
        MinedStore mined = new MinedStore(dir.resolve("store.db"));
        ok(mined.cli("index", "--source", url));
        try (Connection c = TestPostgres.connect(PG + "_pgss"); Statement st = c.createStatement()) {
            st.execute("SELECT pg_stat_statements_reset()");
            st.execute("SET search_path = billing");
            for (String sql : WORKLOAD.subList(0, 7)) {
                for (int i = 0; i < 2; i++) {
                    st.execute(sql);
                }
            }
        }
        ok(mined.cli("mine-queries", "--source", url));
        Entity invoices = entity(mined.semanticLayer(), "invoices");
        assertEquals(List.of("paid_at_not_null"), observed(invoices).stream().map(Segment::name).toList(), invoices.segments().toString());
        assertEquals(2, invoices.segment("paid_at_not_null").orElseThrow().observed().statements());
    }

    @SafeVarargs
    private static List<String> concat(List<String>... lists) {
        List<String> out = new ArrayList<>();
        for (List<String> l : lists) {
            out.addAll(l);
        }
        return out;
    }

    private static long value(JsonNode envelope) {
        JsonNode rows = envelope.path("data").path("rows");
        assertEquals(1, rows.size(), envelope.toString());
        JsonNode v = null;
        for (JsonNode field : rows.get(0)) {
            v = field;   // no group_by: the one column is the metric's
        }
        return Math.round(v.asDouble());
    }

    private static long count(Source s, String sql) throws Exception {
        try (Connection c = s.engine().equals("postgresql") ? TestPostgres.connect(PG) : TestMariaDb.connect(s.schema());
             Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
