package dev.schemabrain.engine.contract;

import dev.schemabrain.embed.WordVocabulary;
import dev.schemabrain.describe.Words;
import dev.schemabrain.pii.SubjectPolicy;
import dev.schemabrain.retrieve.VectorIndex;
import dev.schemabrain.describe.OfflineDescriber;
import dev.schemabrain.gate.Refused;
import dev.schemabrain.served.ServedCatalog;
import dev.schemabrain.access.Access;
import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.ForeignKey;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.TypeClass;
import dev.schemabrain.engine.Engine;
import dev.schemabrain.engine.Engines;
import dev.schemabrain.engine.Failure;
import dev.schemabrain.engine.IntrospectionOptions;
import dev.schemabrain.engine.Purpose;
import dev.schemabrain.engine.RoleCheck;
import dev.schemabrain.engine.RowSampler;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.error.ErrorKind;
import dev.schemabrain.error.ExecutionException;
import dev.schemabrain.execute.BoundQuery;
import dev.schemabrain.execute.ExecutorSettings;
import dev.schemabrain.execute.QueryExecutor;
import dev.schemabrain.execute.SourceExecutors;
import dev.schemabrain.gate.SqlDecision;
import dev.schemabrain.gate.SqlGate;
import dev.schemabrain.pii.BlockList;
import dev.schemabrain.pii.PiiTags;
import dev.schemabrain.semantic.compile.CompiledMetric;
import dev.schemabrain.semantic.compile.MetricCompiler;
import dev.schemabrain.semantic.compile.MetricRequest;
import dev.schemabrain.semantic.model.Aggregation;
import dev.schemabrain.semantic.model.Cardinality;
import dev.schemabrain.semantic.model.ColumnPair;
import dev.schemabrain.semantic.model.Entity;
import dev.schemabrain.semantic.model.Filter;
import dev.schemabrain.semantic.model.FilterOp;
import dev.schemabrain.semantic.model.Join;
import dev.schemabrain.semantic.model.Measure;
import dev.schemabrain.semantic.model.Metric;
import dev.schemabrain.semantic.model.Origin;
import dev.schemabrain.semantic.model.SemanticModel;
import dev.schemabrain.sql.guard.Refusal;
import dev.schemabrain.sql.guard.SqlRules;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * What every engine promises SchemaBrain, checked the same way on each: one small shop schema (customers and their
 * orders) built by plain JDBC in the engine's dialect, then introspection, samples, get_metric against hand-written
 * SQL, execute's gate, the read-only session and the statement timeout. A subclass supplies a fresh database and the
 * few statements that differ; a capability flag turns a contract off where the engine cannot keep it: the engine
 * must then say so where it can (no roles: the engine offers no role check), else the test is skipped, never passed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class EngineContractTest {

    /** The executor's statement limit in the contract's own executor: the shop's queries take milliseconds. */
    private static final int STATEMENT_TIMEOUT_MS = 5_000;
    /** The limit the slow statement meets. */
    private static final int SHORT_TIMEOUT_MS = 300;

    private SourceUrl url;
    private Engine engine;
    private Catalog catalog;
    private SemanticModel model;
    private SourceExecutors executors;
    private QueryExecutor executor;

    // ---- what a subclass supplies ----

    /** Creates a fresh, empty database and returns its SchemaBrain source URL. */
    protected abstract String createDatabase() throws Exception;

    /** A plain JDBC connection to that database that may write; it builds the shop. */
    protected abstract Connection writer() throws SQLException;

    /** A plain JDBC connection that answers the hand-written SQL, open beside the executor's sessions. */
    protected Connection reader() throws SQLException {
        return writer();
    }

    /** Drops the database (a file engine's temporary directory goes by itself). */
    protected void dropDatabase() throws Exception {
    }

    /** The schema the catalog reader names the shop's tables with. */
    protected abstract String schema();

    /** The column type of {@code created_at}. */
    protected String timestampType() {
        return "TIMESTAMP";
    }

    /** A read of the engine's own catalog that execute must refuse as a system catalog. */
    protected abstract String systemCatalogRead();

    /** A call that would read a file of the server (or load code) that execute must refuse as a function. */
    protected abstract String fileReadingCall();

    /** A statement that runs for many seconds on the shop, for the statement timeout to cut off. */
    protected abstract String slowStatement();

    // ---- capability flags ----

    /** Whether the engine has roles and grants (doctor's role check, column grants); files have none. */
    protected boolean hasRoles() {
        return true;
    }

    /**
     * Whether the session itself carries the statement limit, so the server stops a slow statement without the
     * executor's watchdog; an in-process engine is stopped by the watchdog's cancel instead.
     */
    protected boolean sessionCarriesStatementTimeout() {
        return true;
    }

    // ---- the shop ----

    @BeforeAll
    void buildTheShop() throws Exception {
        url = SourceUrl.parse(createDatabase());
        engine = Engines.of(url.kind()).orElseThrow();
        try (Connection c = writer(); Statement st = c.createStatement()) {
            for (String sql : shop()) {
                st.execute(sql);
            }
            if (!c.getAutoCommit()) {
                c.commit();
            }
        }
        try (SchemaSource source = engine.open(url)) {
            catalog = source.introspect(IntrospectionOptions.withoutSamples());
        }
        model = semanticModel();
        // As serve does: one executor per source, found by the source id of the tables a statement reads.
        executors = SourceExecutors.of(List.of(new QueryExecutor(url,
                new ExecutorSettings(STATEMENT_TIMEOUT_MS, 1_000, 2, 5_000, null))));
        executor = executors.forSource(url.sourceId()).orElseThrow();
    }

    @AfterAll
    void dropTheShop() throws Exception {
        if (executors != null) {
            executors.close();
        }
        dropDatabase();
    }

    private List<String> shop() {
        List<String> sql = new ArrayList<>();
        sql.add("CREATE TABLE customers (id INTEGER NOT NULL PRIMARY KEY, name VARCHAR(100) NOT NULL, country VARCHAR(2))");
        sql.add("CREATE TABLE orders (id INTEGER NOT NULL PRIMARY KEY, customer_id INTEGER NOT NULL,"
                + " status VARCHAR(20) NOT NULL, amount_cents INTEGER NOT NULL, created_at " + timestampType() + " NOT NULL,"
                + " FOREIGN KEY (customer_id) REFERENCES customers (id))");
        sql.add("INSERT INTO customers (id, name, country) VALUES (1, 'Ana', 'PT'), (2, 'Bruno', 'ES'), (3, 'Carla', 'PT'),"
                + " (4, 'Dinis', 'FR'), (5, 'Eva', NULL)");
        sql.add("INSERT INTO orders (id, customer_id, status, amount_cents, created_at) VALUES"
                + " (1, 1, 'paid', 1250, '2025-01-03 10:00:00'), (2, 1, 'paid', 800, '2025-01-17 12:30:00'),"
                + " (3, 2, 'refunded', 4000, '2025-01-20 09:15:00'), (4, 3, 'paid', 1999, '2025-02-01 00:00:00'),"
                + " (5, 3, 'pending', 500, '2025-02-14 18:45:00'), (6, 4, 'paid', 12000, '2025-02-28 23:59:59'),"
                + " (7, 5, 'paid', 300, '2025-03-02 08:00:00'), (8, 2, 'paid', 7100, '2025-03-09 14:00:00'),"
                + " (9, 4, 'refunded', 650, '2025-03-15 16:20:00'), (10, 1, 'pending', 2200, '2025-03-31 23:00:00')");
        return sql;
    }

    private SemanticModel semanticModel() {
        List<Entity> entities = List.of(
                new Entity("customers", "people who order", QualifiedName.of(schema(), "customers"), List.of("id"), null, Origin.AUTHORED),
                new Entity("orders", "orders placed", QualifiedName.of(schema(), "orders"), List.of("id"), null, Origin.AUTHORED));
        List<Join> joins = List.of(new Join("orders_customers", "orders", "customers",
                List.of(new ColumnPair("customer_id", "id")), null, Cardinality.MANY_TO_ONE, Origin.AUTHORED));
        List<Metric> metrics = List.of(
                new Metric("revenue_cents", "sum of order amounts", "orders", Measure.of(Aggregation.SUM, "amount_cents"),
                        "orders.created_at", List.of(), List.of(), Origin.AUTHORED),
                new Metric("order_count", "orders placed", "orders", Measure.of(Aggregation.COUNT, "id"),
                        "orders.created_at", List.of(), List.of(), Origin.AUTHORED));
        return new SemanticModel(entities, joins, metrics);
    }

    // ---- 1. introspection ----

    @Test
    void introspectionSeesBothTablesInTheEnginesSchema() {
        assertEquals(List.of(QualifiedName.of(schema(), "customers"), QualifiedName.of(schema(), "orders")),
                catalog.tables().stream().map(Table::name).sorted(Comparator.comparing(QualifiedName::table)).toList());
    }

    @Test
    void introspectionReadsColumnsInOrderWithTheirTypeClassAndNullability() {
        Table orders = table("orders");
        assertEquals(List.of("id", "customer_id", "status", "amount_cents", "created_at"),
                orders.columns().stream().map(Column::name).toList());
        Map<String, TypeClass> classes = new LinkedHashMap<>();
        orders.columns().forEach(c -> classes.put(c.name(), TypeClass.of(c)));
        assertEquals(Map.of("id", TypeClass.NUMBER, "customer_id", TypeClass.NUMBER, "status", TypeClass.TEXT,
                "amount_cents", TypeClass.NUMBER, "created_at", TypeClass.TEMPORAL), classes, orders.columns().toString());
        Table customers = table("customers");
        assertEquals(TypeClass.TEXT, TypeClass.of(customers.column("country").orElseThrow()));
        assertTrue(customers.column("country").orElseThrow().nullable());
        assertFalse(customers.column("name").orElseThrow().nullable());
    }

    @Test
    void introspectionReadsPrimaryKeys() {
        assertEquals(List.of("id"), table("customers").primaryKey());
        assertEquals(List.of("id"), table("orders").primaryKey());
    }

    @Test
    void introspectionReadsTheForeignKeyFromOrdersToCustomers() {
        List<ForeignKey> keys = table("orders").foreignKeys();
        assertEquals(1, keys.size(), keys.toString());
        ForeignKey key = keys.get(0);
        assertEquals(List.of("customer_id"), key.columns());
        assertEquals(QualifiedName.of(schema(), "customers"), key.target());
        assertEquals(List.of("id"), key.targetColumns());
        assertTrue(table("customers").foreignKeys().isEmpty());
    }

    // ---- 2. samples ----

    @Test
    void rowSamplerReadsSampleValuesOfAColumn() throws Exception {
        Table sampled;
        try (Connection c = engine.connect(url, Purpose.introspection())) {
            sampled = new RowSampler(engine).sample(c, table("orders"), IntrospectionOptions.fresh());
        }
        Column status = sampled.column("status").orElseThrow();
        assertFalse(status.samples().isEmpty(), "status was sampled");
        assertTrue(Set.of("paid", "refunded", "pending").containsAll(status.samples()), status.samples().toString());
        // A status column's every distinct value is read, most frequent first.
        assertEquals(List.of("paid", "pending", "refunded"), status.values().stream().sorted().toList());
        assertEquals("paid", status.values().get(0));
    }

    @Test
    void introspectionWithSamplesFillsThemThroughTheSampler() throws Exception {
        Catalog sampled;
        try (SchemaSource source = engine.open(url)) {
            sampled = source.introspect(IntrospectionOptions.fresh());
        }
        Table customers = sampled.table(QualifiedName.of(schema(), "customers")).orElseThrow();
        List<String> countries = customers.column("country").orElseThrow().samples();
        assertFalse(countries.isEmpty(), "country was sampled");
        assertTrue(Set.of("PT", "ES", "FR").containsAll(countries), countries.toString());
    }

    // ---- 3. get_metric equals hand SQL ----

    @Test
    void aSumMetricEqualsHandWrittenSql() throws Exception {
        assertEquals(jdbcRows("SELECT SUM(amount_cents) FROM orders"), metric(request("revenue_cents", List.of(), List.of())));
    }

    @Test
    void aSumMetricByAJoinedDimensionEqualsHandWrittenSql() throws Exception {
        assertEquals(sorted(jdbcRows("SELECT c.country, SUM(o.amount_cents) FROM orders o"
                        + " LEFT JOIN customers c ON c.id = o.customer_id GROUP BY c.country")),
                sorted(metric(request("revenue_cents", List.of("customers.country"), List.of()))));
    }

    @Test
    void aCountMetricByADimensionEqualsHandWrittenSql() throws Exception {
        List<List<String>> byStatus = sorted(metric(request("order_count", List.of("orders.status"), List.of())));
        assertEquals(sorted(jdbcRows("SELECT status, COUNT(*) FROM orders GROUP BY status")), byStatus);
        assertEquals(List.of(List.of("paid", "6"), List.of("pending", "2"), List.of("refunded", "2")), byStatus);
    }

    @Test
    void aFilteredMetricBindsItsValueAsTheEngineCompares() throws Exception {
        assertEquals(jdbcRows("SELECT SUM(amount_cents) FROM orders WHERE status = 'paid'"),
                metric(request("revenue_cents", List.of(), List.of(new Filter("orders.status", FilterOp.EQ, "paid")))));
    }

    @Test
    void aMonthlyMetricBucketsByCalendarMonthAsHandWrittenRangesDo() throws Exception {
        CompiledMetric compiled = new MetricCompiler(catalog, model).compile(new MetricRequest("revenue_cents", List.of(),
                List.of(), "month", null, List.of(), List.of(), 100), engine);
        List<List<String>> rows = sorted(run(compiled));
        List<List<String>> expected = new ArrayList<>();
        for (String[] month : new String[][] {{"2025-01-01", "2025-02-01"}, {"2025-02-01", "2025-03-01"},
                {"2025-03-01", "2025-04-01"}}) {
            String total = jdbcRows("SELECT SUM(amount_cents) FROM orders WHERE created_at >= '" + month[0] + "'"
                    + " AND created_at < '" + month[1] + "'").get(0).get(0);
            expected.add(List.of(month[0], total));
        }
        assertEquals(expected, rows.stream().map(r -> List.of(r.get(0).substring(0, 10), r.get(1))).toList(),
                compiled.sql());
    }

    // ---- 4. execute's refusals ----

    @Test
    void executeRefusesWrites() {
        for (String write : List.of("INSERT INTO orders (id, customer_id, status, amount_cents, created_at)"
                        + " VALUES (99, 1, 'paid', 1, '2025-01-01 00:00:00')",
                "UPDATE orders SET amount_cents = 0", "DELETE FROM orders")) {
            assertRefused(write, Refusal.Reason.DML_IN_STATEMENT);
        }
        assertRefused("DROP TABLE orders", Refusal.Reason.NOT_A_SINGLE_SELECT);
    }

    @Test
    void executeRefusesMoreThanOneStatement() {
        assertRefused("SELECT id FROM orders; DELETE FROM orders", Refusal.Reason.NOT_A_SINGLE_SELECT);
        assertRefused("SELECT id FROM orders; SELECT id FROM customers", Refusal.Reason.NOT_A_SINGLE_SELECT);
    }

    @Test
    void executeRefusesTheEnginesSystemCatalog() {
        assertRefused(systemCatalogRead(), Refusal.Reason.SYSTEM_CATALOG);
    }

    @Test
    void executeRefusesAFileReadingFunction() {
        assertRefused(fileReadingCall(), Refusal.Reason.FUNCTION_NOT_ALLOWED);
    }

    @Test
    void executeAllowsAPlainSelectAndAnswersTheRowsJdbcReads() throws Exception {
        String sql = "SELECT o.id, o.status, o.amount_cents, c.country FROM orders o JOIN customers c ON c.id = o.customer_id"
                + " WHERE o.amount_cents > 700 ORDER BY o.id";
        SqlDecision.Plan plan = assertInstanceOf(SqlDecision.Plan.class, gate(sql), sql);
        List<List<String>> answered = normalized(executor.execute(new BoundQuery(plan.sql(), plan.params()), 100).rows());
        assertEquals(jdbcRows(sql), answered, plan.sql());
        assertEquals(7, answered.size());
    }

    // ---- 5. read-only ----

    /** Writes that return rows: the executor reads a result, so every driver sends these to the database. */
    private static final List<String> WRITES_RETURNING_ROWS = List.of(
            "INSERT INTO customers (id, name, country) VALUES (99, 'Zé', 'PT') RETURNING id",
            "DELETE FROM orders WHERE id > 0 RETURNING id");

    private static final List<String> WRITES = List.of(
            "INSERT INTO customers (id, name, country) VALUES (99, 'Zé', 'PT')",
            "UPDATE orders SET amount_cents = 0", "DELETE FROM orders", "CREATE TABLE planted (x INTEGER)",
            "DROP TABLE orders");

    @Test
    void aWriteSentStraightToAQuerySessionIsRefusedByTheDatabaseAsReadOnly() throws Exception {
        List<List<String>> before = shopRows();
        try (Connection c = engine.connect(url, Purpose.query(STATEMENT_TIMEOUT_MS))) {
            for (String write : WRITES) {
                try (Statement st = c.createStatement()) {
                    if (engine.beginReadOnly() != null) {
                        st.execute(engine.beginReadOnly());
                    }
                    SQLException e = assertThrows(SQLException.class, () -> st.execute(write), write);
                    assertEquals(Failure.READ_ONLY, engine.classify(e), write + ": " + e.getMessage());
                } finally {
                    if (!c.getAutoCommit()) {
                        c.rollback();
                    }
                }
            }
        }
        assertEquals(before, shopRows(), "nothing changed");
    }

    @Test
    void aWriteThroughTheExecutorBypassingTheGateFailsAsReadOnly() throws Exception {
        List<List<String>> before = shopRows();
        for (String write : WRITES_RETURNING_ROWS) {
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> executor.execute(new BoundQuery(write, List.of()), 10), write);
            assertEquals(ErrorKind.STATEMENT_FAILED, e.kind(), write + ": " + e.getMessage());
            assertTrue(e.getMessage().contains("the session is read-only"),
                    write + " failed as a read-only write: " + e.getMessage() + " / " + e.engineDetail().orElse(""));
        }
        for (String write : WRITES) {
            assertThrows(ExecutionException.class, () -> executor.execute(new BoundQuery(write, List.of()), 10), write);
        }
        assertEquals(before, shopRows(), "nothing changed");
    }

    /** Every row of the shop, and the tables there are. */
    private List<List<String>> shopRows() throws Exception {
        List<List<String>> rows = new ArrayList<>(jdbcRows("SELECT id, customer_id, status, amount_cents FROM orders ORDER BY id"));
        rows.addAll(jdbcRows("SELECT id, name, country FROM customers ORDER BY id"));
        try (SchemaSource source = engine.open(url)) {
            rows.add(source.introspect(IntrospectionOptions.withoutSamples()).tables().stream()
                    .map(t -> t.name().table()).sorted().toList());
        }
        return rows;
    }

    @Test
    void theRoleCheckReadsWhatTheConnectingRoleMayWrite() throws Exception {
        if (!hasRoles()) {
            assertTrue(engine.roles().isEmpty() && engine.columnGrants().isEmpty(), engine.title() + " has no roles");
            assertFalse(engine.withoutRoles().isBlank());
            return;
        }
        RoleCheck check;
        try (Connection c = engine.connect(url, Purpose.introspection())) {
            check = engine.roles().orElseThrow().check(c, url);
        }
        // The test servers' administrators may write: doctor names it and offers a read-only role.
        assertTrue(check.canWrite(), check.toString());
        assertFalse(check.readOnlyGrants().isEmpty(), check.toString());
        assertTrue(engine.columnGrants().isPresent());
    }

    // ---- 6. timeouts ----

    @Test
    void aSlowStatementIsCutOffByTheExecutorsTimeout() {
        long start = System.nanoTime();
        try (QueryExecutor limited = new QueryExecutor(url, new ExecutorSettings(SHORT_TIMEOUT_MS, 10, 1, 5_000, null))) {
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> limited.execute(new BoundQuery(slowStatement(), List.of()), 10));
            assertEquals(ErrorKind.STATEMENT_TIMEOUT, e.kind(), e.getMessage() + " / " + e.engineDetail().orElse(""));
            assertTrue(e.getMessage().startsWith("The query ran longer than " + SHORT_TIMEOUT_MS + " ms"), e.getMessage());
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertTrue(millis < 8_000, "cut off after " + millis + " ms");
    }

    @Test
    void theQuerySessionItselfCarriesTheStatementTimeout() throws Exception {
        assumeTrue(sessionCarriesStatementTimeout(), () -> engine.title() + " stops a statement only by the watchdog's cancel");
        try (Connection c = engine.connect(url, Purpose.query(SHORT_TIMEOUT_MS)); Statement st = c.createStatement()) {
            if (engine.beginReadOnly() != null) {
                st.execute(engine.beginReadOnly());
            }
            SQLException e = assertThrows(SQLException.class, () -> {
                try (ResultSet rs = st.executeQuery(slowStatement())) {
                    while (rs.next()) {
                        // read it all
                    }
                }
            });
            assertEquals(Failure.TIMEOUT, engine.classify(e), e.getMessage());
        }
    }

    @Test
    void aStatementCancelledAsTheWatchdogDoesFailsAsATimeout() throws Exception {
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
        try (Connection c = engine.connect(url, Purpose.query(STATEMENT_TIMEOUT_MS)); Statement st = c.createStatement()) {
            if (engine.beginReadOnly() != null) {
                st.execute(engine.beginReadOnly());
            }
            timer.schedule(() -> {
                try {
                    st.cancel();
                } catch (SQLException ignored) {
                    // The assertion below says what happened.
                }
            }, SHORT_TIMEOUT_MS, TimeUnit.MILLISECONDS);
            SQLException e = assertThrows(SQLException.class, () -> {
                try (ResultSet rs = st.executeQuery(slowStatement())) {
                    while (rs.next()) {
                        // read it all
                    }
                }
            });
            assertEquals(Failure.TIMEOUT, engine.classify(e), e.getMessage());
        } finally {
            timer.shutdownNow();
        }
    }

    // ---- helpers ----

    private Table table(String name) {
        return catalog.table(QualifiedName.of(schema(), name)).orElseThrow(() -> new AssertionError("no table " + name
                + " in " + catalog.tables().stream().map(Table::name).toList()));
    }

    private static MetricRequest request(String metric, List<String> groupBy, List<Filter> filters) {
        return new MetricRequest(metric, groupBy, filters, null, null, List.of(), List.of(), 100);
    }

    /** The metric compiled for this engine and run through the executor, as get_metric does. */
    private List<List<String>> metric(MetricRequest request) throws Exception {
        return run(new MetricCompiler(catalog, model).compile(request, engine));
    }

    private List<List<String>> run(CompiledMetric compiled) throws Exception {
        return normalized(executor.execute(new BoundQuery(compiled.sql(), compiled.params()), compiled.limit()).rows());
    }

    private SqlDecision gate(String sql) {
        SqlRules rules = engine.sqlRules().orElseThrow(() -> new AssertionError(engine.title() + " has no SQL rules"));
        return new SqlGate(rules, 1).check("execute", sql, gateView(), Access.UNRESTRICTED, 100);
    }

    private void assertRefused(String sql, Refusal.Reason reason) {
        SqlDecision decision = gate(sql);
        if (!(decision instanceof Refused refused)) {
            fail(engine.title() + " let through " + sql + " as " + ((SqlDecision.Plan) decision).sql());
            return;
        }
        assertTrue(refused.message().endsWith("(" + reason.wireName() + ")"),
                sql + " refused as " + reason.wireName() + ": " + refused.message());
        assertEquals(ErrorKind.POLICY_BLOCKED, refused.kind(), refused.message());
    }

    /** The rows of {@code sql} read over plain JDBC. */
    private List<List<String>> jdbcRows(String sql) throws SQLException {
        try (Connection c = reader(); PreparedStatement st = c.prepareStatement(sql); ResultSet rs = st.executeQuery()) {
            int n = rs.getMetaData().getColumnCount();
            List<List<Object>> rows = new ArrayList<>();
            while (rs.next()) {
                List<Object> row = new ArrayList<>();
                for (int i = 1; i <= n; i++) {
                    row.add(rs.getObject(i));
                }
                rows.add(row);
            }
            return normalized(rows);
        }
    }

    /** Numbers in their plain decimal form, whatever type the driver or the executor gave them. */
    private static List<List<String>> normalized(List<List<Object>> rows) {
        return rows.stream().map(r -> r.stream().map(v -> v instanceof Number n
                ? new BigDecimal(n.toString()).stripTrailingZeros().toPlainString() : String.valueOf(v)).toList()).toList();
    }

    private static List<List<String>> sorted(List<List<String>> rows) {
        return rows.stream().sorted(Comparator.comparing(r -> String.join("\u0000", r))).toList();
    }

    /** The shop as the gate reads it: no PII tags, no people, nobody's view cut. */
    private ServedCatalog gateView() {
        return new ServedCatalog(List.of(), catalog,
                new OfflineDescriber(new Words(WordVocabulary.get().words())).describe(catalog),
                VectorIndex.of(catalog.tables(), Map.of()), () -> null, () -> null, model, PiiTags.NONE, BlockList.FLOOR,
                SubjectPolicy.NONE, Map.of());
    }
}
