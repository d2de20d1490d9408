package dev.schemabrain.semantic.compile;

import dev.schemabrain.error.ErrorKind;
import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.demo.DemoDatabase;
import dev.schemabrain.engine.Engines;
import dev.schemabrain.semantic.SemanticInference;
import dev.schemabrain.error.DegradationReason;
import dev.schemabrain.semantic.model.Aggregation;
import dev.schemabrain.semantic.model.Cardinality;
import dev.schemabrain.semantic.model.ColumnPair;
import dev.schemabrain.semantic.model.Filter;
import dev.schemabrain.semantic.model.FilterOp;
import dev.schemabrain.semantic.model.Join;
import dev.schemabrain.semantic.model.Measure;
import dev.schemabrain.semantic.model.Metric;
import dev.schemabrain.semantic.model.Origin;
import dev.schemabrain.semantic.model.SemanticModel;
import dev.schemabrain.engine.IntrospectionOptions;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.source.Sources;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Compiled metrics on the demo database (a real SQLite file), each checked against hand-written SQL. */
class MetricCompilerSqliteTest {

    @TempDir
    static Path dir;
    static Path file;
    static Catalog catalog;
    static SemanticModel model;

    @BeforeAll
    static void setUp() throws Exception {
        file = DemoDatabase.ensure(dir.resolve("demo.sqlite"));
        try (SchemaSource source = Sources.open(SourceUrl.parse("sqlite:" + file))) {
            catalog = source.introspect(IntrospectionOptions.withoutSamples());
        }
        SemanticModel inferred = new SemanticInference(n -> null).infer(catalog);
        List<Metric> metrics = new ArrayList<>(inferred.metrics());
        metrics.add(new Metric("line_amount", "unit price times quantity", "invoice_line_items",
                new Measure(Aggregation.SUM, null, "unit_price_cents * quantity"), null, List.of(), List.of(), Origin.AUTHORED));
        metrics.add(new Metric("active_users", "users with a team", "users",
                Measure.of(Aggregation.COUNT_DISTINCT, "id"), null, List.of(), List.of(), Origin.AUTHORED));
        model = new SemanticModel(inferred.entities(), inferred.joins(), metrics);
    }

    static CompiledMetric compile(MetricRequest request) throws CompileException {
        return new MetricCompiler(catalog, model).compile(request, Engines.SQLITE);
    }

    static MetricRequest request(String metric, List<String> groupBy, List<Filter> filters, String grain) {
        return new MetricRequest(metric, groupBy, filters, grain, null, List.of(), List.of(), 1000);
    }

    static List<List<Object>> run(String sql, List<Object> params) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
             PreparedStatement st = c.prepareStatement(sql)) {
            for (int i = 0; i < params.size(); i++) {
                st.setObject(i + 1, params.get(i));
            }
            List<List<Object>> rows = new ArrayList<>();
            try (ResultSet rs = st.executeQuery()) {
                int n = rs.getMetaData().getColumnCount();
                while (rs.next()) {
                    List<Object> row = new ArrayList<>();
                    for (int i = 1; i <= n; i++) {
                        Object v = rs.getObject(i);
                        row.add(v instanceof Number num ? (Object) num.doubleValue() : v);
                    }
                    rows.add(row);
                }
            }
            return rows;
        }
    }

    static List<List<Object>> run(CompiledMetric m) throws Exception {
        List<List<Object>> rows = run(m.sql(), m.params());
        return rows.size() > m.limit() ? rows.subList(0, m.limit()) : rows;
    }

    @Test
    void revenueByMonthAndCountryEqualsHandWrittenSql() throws Exception {
        CompiledMetric m = compile(request("invoices_total_cents_sum", List.of("organizations.country"), List.of(), "month"));
        assertEquals(List.of("time_bucket", "organizations.country", "invoices_total_cents_sum"), m.columns());
        assertEquals(List.of("invoices_subscriptions", "subscriptions_organizations"), m.requiredJoins());
        assertTrue(m.degradation().isEmpty(), "many-to-one joins do not fan out");
        assertFalse(m.sql().contains(";"));
        assertTrue(m.sql().endsWith("LIMIT ?"));
        List<List<Object>> expected = run("""
                SELECT strftime('%Y-%m-01', i.issued_at), o.country, SUM(i.total_cents)
                FROM invoices i LEFT JOIN subscriptions s ON i.subscription_id = s.id
                LEFT JOIN organizations o ON s.organization_id = o.id
                WHERE i.status IN ('paid')
                GROUP BY 1, 2 ORDER BY 1, 2""", List.of());
        assertFalse(expected.isEmpty());
        // The drafted revenue counts paid invoices only (its default filter says so).
        assertEquals(List.of("invoices.status"), m.metric().filters().stream().map(f -> f.column()).toList());
        assertEquals(expected, run(m));
    }

    @Test
    void filtersAreBoundParameters() throws Exception {
        CompiledMetric m = compile(request("invoices_count", List.of("organizations.country"), List.of(
                new Filter("invoices.status", FilterOp.IN, List.of("paid", "open")),
                new Filter("invoices.total_cents", FilterOp.GT, 1000),
                new Filter("organizations.industry", FilterOp.NOT_NULL, null)), null));
        assertFalse(m.sql().contains("paid"));
        assertEquals(List.of("paid", "open", 1000L, 1001), m.params());
        List<List<Object>> expected = run("""
                SELECT o.country, COUNT(i.id) FROM invoices i
                LEFT JOIN subscriptions s ON i.subscription_id = s.id LEFT JOIN organizations o ON s.organization_id = o.id
                WHERE i.status IN ('paid', 'open') AND i.total_cents > 1000 AND o.industry IS NOT NULL
                GROUP BY 1 ORDER BY 1""", List.of());
        assertEquals(expected, run(m));
    }

    @Test
    void anExpressionMeasureAndDescendingOrder() throws Exception {
        CompiledMetric m = new MetricCompiler(catalog, model).compile(new MetricRequest("line_amount",
                List.of("invoices.status"), List.of(), null, null, List.of(),
                List.of(new MetricRequest.OrderBy("line_amount", true)), 2), Engines.SQLITE);
        List<List<Object>> expected = run("""
                SELECT i.status, SUM(l.unit_price_cents * l.quantity) FROM invoice_line_items l
                LEFT JOIN invoices i ON l.invoice_id = i.id GROUP BY 1 ORDER BY 2 DESC LIMIT 2""", List.of());
        assertEquals(expected, run(m));
    }

    @Test
    void countDistinctAcrossAFanOutIsExactAndACountAcrossOneCountsEachRowOncePerGroup() throws Exception {
        CompiledMetric distinct = compile(request("active_users", List.of("teams.name"), List.of(), null));
        assertEquals(List.of("teams_users"), distinct.fanOutJoins());
        assertTrue(distinct.degradation().isEmpty(), "repeats do not change a count_distinct");
        List<List<Object>> expected = run("""
                SELECT t.name, COUNT(DISTINCT u.id) FROM users u JOIN team_members tm ON tm.user_id = u.id
                JOIN teams t ON t.id = tm.team_id GROUP BY 1 ORDER BY 1""", List.of());
        assertEquals(expected, run(distinct));

        CompiledMetric count = compile(request("organizations_count", List.of("users.role"), List.of(), null));
        assertTrue(count.degradation().isEmpty(), "counted once per group, not flagged");
        assertEquals(run("""
                SELECT x.role, COUNT(*) FROM (SELECT DISTINCT u.role, o.id FROM organizations o
                JOIN users u ON u.organization_id = o.id) x GROUP BY 1 ORDER BY 1""", List.of()), run(count));
    }

    @Test
    void twoEquallyShortPathsAreAmbiguousUntilViaPicksOne() throws Exception {
        // A second, authored join between users and organizations (say, a billing contact).
        List<Join> joins = new ArrayList<>(model.joins());
        joins.add(new Join("organizations_billing_contact", "organizations", "users",
                List.of(new ColumnPair("id", "organization_id")), null, Cardinality.ONE_TO_MANY, Origin.AUTHORED));
        SemanticModel two = new SemanticModel(model.entities(), joins, model.metrics());
        MetricRequest request = request("users_count", List.of("organizations.country"), List.of(), null);
        CompileException e = assertThrows(CompileException.class,
                () -> new MetricCompiler(catalog, two).compile(request, Engines.SQLITE));
        assertEquals(ErrorKind.AMBIGUOUS_PATH, e.problem());
        assertEquals(2, e.candidates().size());
        CompiledMetric picked = new MetricCompiler(catalog, two).compile(new MetricRequest("users_count",
                List.of("organizations.country"), List.of(), null, null, List.of("users_organizations"), List.of(), 1000), Engines.SQLITE);
        assertEquals(List.of("users_organizations"), picked.requiredJoins());
    }

    @Test
    void everyMistakeHasItsKind() {
        assertEquals(ErrorKind.UNKNOWN_METRIC, assertThrows(CompileException.class,
                () -> compile(request("invoice_count", List.of(), List.of(), null))).problem());
        CompileException group = assertThrows(CompileException.class,
                () -> compile(request("invoices_count", List.of("organizations.countyr"), List.of(), null)));
        assertEquals(ErrorKind.UNKNOWN_GROUP_BY_COLUMN, group.problem());
        assertTrue(group.candidates().contains("organizations.country"), group.candidates().toString());
        assertEquals(ErrorKind.UNKNOWN_FILTER_COLUMN, assertThrows(CompileException.class, () -> compile(request("invoices_count",
                List.of(), List.of(new Filter("invoices.x'; DROP TABLE users; --", FilterOp.EQ, "1")), null))).problem());
        assertEquals(ErrorKind.INVALID_TIME_GRAIN, assertThrows(CompileException.class,
                () -> compile(request("invoices_count", List.of(), List.of(), "fortnight"))).problem());
        assertEquals(ErrorKind.INVALID_ARGUMENT, assertThrows(CompileException.class, () -> compile(request("invoices_count",
                List.of(), List.of(new Filter("invoices.total_cents", FilterOp.GT, "lots")), null))).problem());
        assertEquals(ErrorKind.UNKNOWN_ORDER_BY_COLUMN, assertThrows(CompileException.class, () -> new MetricCompiler(catalog, model)
                .compile(new MetricRequest("invoices_count", List.of(), List.of(), null, null, List.of(),
                        List.of(new MetricRequest.OrderBy("invoices.status", false)), 10), Engines.SQLITE)).problem());
        assertEquals(ErrorKind.UNKNOWN_VIA_JOIN, assertThrows(CompileException.class, () -> new MetricCompiler(catalog, model)
                .compile(new MetricRequest("invoices_count", List.of(), List.of(), null, null, List.of("nope"),
                        List.of(), 10), Engines.SQLITE)).problem());
    }

    @Test
    void aTimeDimensionIsInheritedTowardsOneOrItsAbsenceDegrades() throws Exception {
        CompiledMetric lines = compile(request("line_amount", List.of(), List.of(), "year"));
        assertTrue(lines.sql().contains("issued_at"), "an invoice line takes its invoice's date: " + lines.sql());
        CompiledMetric plans = compile(request("plans_count", List.of(), List.of(), "month"));
        assertEquals(Optional.of(DegradationReason.TIME_DIMENSION_UNAVAILABLE), plans.degradation());
        assertEquals(List.of("plans_count"), plans.columns());
    }
}
