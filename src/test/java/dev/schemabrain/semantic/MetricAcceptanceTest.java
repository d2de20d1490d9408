package dev.schemabrain.semantic;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.execute.BoundQuery;
import dev.schemabrain.execute.ExecutorSettings;
import dev.schemabrain.execute.QueryExecutor;
import dev.schemabrain.semantic.compile.CompileException;
import dev.schemabrain.semantic.compile.CompiledMetric;
import dev.schemabrain.semantic.compile.MetricCompiler;
import dev.schemabrain.semantic.compile.MetricRequest;
import dev.schemabrain.error.ErrorKind;
import dev.schemabrain.semantic.model.Aggregation;
import dev.schemabrain.semantic.model.Filter;
import dev.schemabrain.semantic.model.FilterOp;
import dev.schemabrain.semantic.model.Measure;
import dev.schemabrain.semantic.model.Metric;
import dev.schemabrain.semantic.model.Origin;
import dev.schemabrain.semantic.model.SemanticModel;
import dev.schemabrain.engine.IntrospectionOptions;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.source.Sources;
import dev.schemabrain.testing.ChinookOnMariaDb;
import dev.schemabrain.testing.TestMariaDb;
import dev.schemabrain.testing.TestPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The metric questions, compiled from the inferred semantic layer and run by the executor on
 * real databases, each equal to a hand-written SQL result: Chinook on PostgreSQL and the same rows
 * copied into MariaDB; Northwind on PostgreSQL.
 */
class MetricAcceptanceTest {

    static String maria;

    @BeforeAll
    static void load() throws Exception {
        TestPostgres.loadSample("chinook", "chinook.sql");
        TestPostgres.loadSample("northwind", "northwind.sql");
        maria = ChinookOnMariaDb.create();
    }

    @AfterAll
    static void drop() throws Exception {
        TestMariaDb.drop(maria);
    }

    /** A source, its catalog and its inferred layer plus the metrics the issue asks about. */
    record Source(String url, Catalog catalog, SemanticModel model) {

        static Source of(String url, Metric... extra) throws Exception {
            Catalog catalog;
            try (SchemaSource s = Sources.open(SourceUrl.parse(url))) {
                catalog = s.introspect(IntrospectionOptions.withoutSamples());
            }
            SemanticModel inferred = new SemanticInference(n -> null).infer(catalog);
            List<Metric> metrics = new ArrayList<>(inferred.metrics());
            metrics.addAll(List.of(extra));
            return new Source(url, catalog, new SemanticModel(inferred.entities(), inferred.joins(), metrics));
        }

        CompiledMetric compile(MetricRequest request, QueryExecutor ex) throws CompileException {
            return new MetricCompiler(catalog, model).compile(request, ex.dialect());
        }
    }

    static final Metric AVERAGE_TRACK_MS = new Metric("average_track_ms", "Average track length", "track",
            Measure.of(Aggregation.AVG, "milliseconds"), null, List.of(), List.of(), Origin.AUTHORED);
    static final Metric BUYING_CUSTOMERS = new Metric("buying_customers", "Customers who bought", "customer",
            Measure.of(Aggregation.COUNT_DISTINCT, "customer_id"), null, List.of(), List.of(), Origin.AUTHORED);

    static Source chinook(String engine) throws Exception {
        String url = engine.equals("postgresql") ? TestPostgres.url("chinook") : TestMariaDb.url(maria);
        return Source.of(url, AVERAGE_TRACK_MS, BUYING_CUSTOMERS);
    }

    static MetricRequest request(String metric, List<String> groupBy, List<Filter> filters, String grain) {
        return new MetricRequest(metric, groupBy, filters, grain, null, List.of(), List.of(), 1000);
    }

    /** Runs a metric through the executor and hand-written SQL through plain JDBC, and compares. */
    static CompiledMetric assertSameAs(Source source, MetricRequest request, String handWritten) throws Exception {
        return HandWritten.assertSameRows(source.url(), source::compile, request, handWritten, HandWritten::canonical);
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb"})
    void revenueByMonth(String engine) throws Exception {
        String bucket = engine.equals("postgresql") ? "CAST(date_trunc('month', invoice_date) AS date)"
                : "CAST(DATE_FORMAT(invoice_date, '%Y-%m-01') AS DATE)";
        CompiledMetric m = assertSameAs(chinook(engine), request("invoice_total_sum", List.of(), List.of(), "month"),
                "SELECT " + bucket + ", SUM(total) FROM invoice GROUP BY 1 ORDER BY 1");
        assertEquals(List.of("time_bucket", "invoice_total_sum"), m.columns());
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb"})
    void revenueByCustomerCountry(String engine) throws Exception {
        CompiledMetric m = assertSameAs(chinook(engine), request("invoice_total_sum", List.of("customer.country"), List.of(), null),
                "SELECT c.country, SUM(i.total) FROM invoice i LEFT JOIN customer c ON i.customer_id = c.customer_id "
                        + "GROUP BY c.country ORDER BY c.country");
        assertEquals(List.of("invoice_customer"), m.requiredJoins());
        assertTrue(m.degradation().isEmpty());
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb"})
    void invoicesPerBillingCountryWithFilters(String engine) throws Exception {
        Source chinook = chinook(engine);
        assertSameAs(chinook, request("invoice_count", List.of("invoice.billing_country"), List.of(
                        new Filter("invoice.billing_country", FilterOp.IN, List.of("USA", "Canada", "France", "Germany")),
                        new Filter("invoice.total", FilterOp.GT, 5),
                        new Filter("invoice.billing_state", FilterOp.IS_NULL, null)), null),
                "SELECT billing_country, COUNT(invoice_id) FROM invoice WHERE billing_country IN ('USA', 'Canada', 'France', "
                        + "'Germany') AND total > 5 AND billing_state IS NULL GROUP BY billing_country ORDER BY billing_country");
        assertSameAs(chinook, request("invoice_count", List.of("invoice.billing_country"), List.of(
                        new Filter("customer.country", FilterOp.EQ, "Brazil")), null),
                "SELECT i.billing_country, COUNT(i.invoice_id) FROM invoice i JOIN customer c ON c.customer_id = i.customer_id "
                        + "WHERE c.country = 'Brazil' GROUP BY 1 ORDER BY 1");
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb"})
    void averageTrackLengthPerGenre(String engine) throws Exception {
        assertSameAs(chinook(engine), request("average_track_ms", List.of("genre.name"), List.of(), null),
                "SELECT g.name, AVG(t.milliseconds) FROM track t LEFT JOIN genre g ON t.genre_id = g.genre_id "
                        + "GROUP BY g.name ORDER BY g.name");
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb"})
    void countDistinctAcrossAFanOutIsExactAndASumAcrossOneCountsEachRowOncePerGroup(String engine) throws Exception {
        Source chinook = chinook(engine);
        CompiledMetric distinct = assertSameAs(chinook, request("buying_customers", List.of("genre.name"), List.of(), null),
                "SELECT g.name, COUNT(DISTINCT c.customer_id) FROM customer c JOIN invoice i ON i.customer_id = c.customer_id "
                        + "JOIN invoice_line l ON l.invoice_id = i.invoice_id LEFT JOIN track t ON t.track_id = l.track_id "
                        + "LEFT JOIN genre g ON g.genre_id = t.genre_id GROUP BY g.name ORDER BY g.name");
        assertEquals(List.of("invoice_customer", "invoice_line_invoice"), distinct.fanOutJoins());
        assertTrue(distinct.degradation().isEmpty());
        // Invoice totals by genre: an invoice counts once in each genre it has lines of, never once per line.
        CompiledMetric once = assertSameAs(chinook, request("invoice_total_sum", List.of("genre.name"), List.of(), null),
                "SELECT x.name, SUM(x.total) FROM (SELECT DISTINCT g.name, i.invoice_id, i.total FROM invoice i "
                        + "JOIN invoice_line l ON l.invoice_id = i.invoice_id LEFT JOIN track t ON t.track_id = l.track_id "
                        + "LEFT JOIN genre g ON g.genre_id = t.genre_id) x GROUP BY x.name ORDER BY x.name");
        assertTrue(once.degradation().isEmpty(), "the right number, not a flagged inflated one");
        assertEquals(List.of("invoice_line_invoice"), once.fanOutJoins());
        // The naive join inflates it: the test above would fail against this statement.
        try (QueryExecutor ex = new QueryExecutor(SourceUrl.parse(chinook.url()), ExecutorSettings.defaults())) {
            List<List<String>> naive = HandWritten.canonical(ex.execute(new BoundQuery("SELECT g.name, SUM(i.total) FROM invoice i "
                    + "JOIN invoice_line l ON l.invoice_id = i.invoice_id LEFT JOIN track t ON t.track_id = l.track_id "
                    + "LEFT JOIN genre g ON g.genre_id = t.genre_id GROUP BY g.name ORDER BY g.name", List.of()), 10_000).rows());
            List<List<String>> ours = HandWritten.canonical(ex.execute(new BoundQuery(once.sql(), once.params()), once.limit()).rows());
            assertNotEquals(naive, ours);
        }
    }

    @Test
    void northwindRevenueByMonthAndCountryFromAnExpression() throws Exception {
        Metric revenue = new Metric("order_revenue", "Line revenue", "order_details",
                new Measure(Aggregation.SUM, null, "unit_price * quantity * (1 - discount)"), null, List.of(), List.of(), Origin.AUTHORED);
        Source northwind = Source.of(TestPostgres.url("northwind"), revenue);
        assertSameAs(northwind, request("order_revenue", List.of("customers.country"), List.of(), "year"),
                "SELECT CAST(date_trunc('year', o.order_date) AS date), c.country, SUM(d.unit_price * d.quantity * (1 - d.discount)) "
                        + "FROM order_details d LEFT JOIN orders o ON d.order_id = o.order_id "
                        + "LEFT JOIN customers c ON o.customer_id = c.customer_id GROUP BY 1, 2 ORDER BY 1, 2");
    }

    @Test
    void aRowCapMakesTheAnswerPartialAndTheLimitIsABoundParameter() throws Exception {
        Source chinook = chinook("postgresql");
        try (QueryExecutor ex = new QueryExecutor(SourceUrl.parse(chinook.url()), ExecutorSettings.defaults())) {
            CompiledMetric m = chinook.compile(new MetricRequest("invoice_total_sum", List.of("customer.country"), List.of(),
                    null, null, List.of(), List.of(new MetricRequest.OrderBy("invoice_total_sum", true)), 3), ex);
            assertEquals(4, m.params().get(m.params().size() - 1), "one more than asked, to know whether more exist");
            QueryExecutor.Result r = ex.execute(new BoundQuery(m.sql(), m.params()), m.limit());
            assertEquals(3, r.rows().size());
            assertTrue(r.truncated());
            assertEquals("USA", r.rows().get(0).get(0));
            CompiledMetric.Count count = m.groupCount().orElseThrow();
            assertEquals(TestPostgres.count("chinook", "SELECT COUNT(DISTINCT country) FROM customer"),
                    ((Number) ex.execute(new BoundQuery(count.sql(), count.params()), 1).rows().get(0).get(0)).longValue(),
                    "every group is counted, not only the 3 shown");
        }
    }

    @Test
    void unknownColumnsAreRefusedBeforeAnySqlExists() throws Exception {
        Source chinook = chinook("postgresql");
        try (QueryExecutor ex = new QueryExecutor(SourceUrl.parse(chinook.url()), ExecutorSettings.defaults())) {
            CompileException e = assertThrows(CompileException.class, () -> chinook.compile(
                    request("invoice_total_sum", List.of("customer.contry"), List.of(), null), ex));
            assertEquals(ErrorKind.UNKNOWN_GROUP_BY_COLUMN, e.problem());
            assertEquals("customer.country", e.candidates().get(0));
        }
    }
}
