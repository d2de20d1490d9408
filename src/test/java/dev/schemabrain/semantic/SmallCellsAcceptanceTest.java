package dev.schemabrain.semantic;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.demo.DemoDatabase;
import dev.schemabrain.execute.BoundQuery;
import dev.schemabrain.execute.ExecutorSettings;
import dev.schemabrain.execute.QueryExecutor;
import dev.schemabrain.semantic.compile.CompiledMetric;
import dev.schemabrain.semantic.compile.MetricCompiler;
import dev.schemabrain.semantic.compile.MetricRequest;
import dev.schemabrain.semantic.compile.SmallCells;
import dev.schemabrain.semantic.compile.DataSubjects;
import dev.schemabrain.semantic.compile.SubjectGraph;
import dev.schemabrain.semantic.model.Aggregation;
import dev.schemabrain.semantic.model.Filter;
import dev.schemabrain.semantic.model.FilterOp;
import dev.schemabrain.semantic.model.Measure;
import dev.schemabrain.semantic.model.Metric;
import dev.schemabrain.semantic.model.MetricKind;
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
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Small-cell suppression compiled into the metric's own SELECT, on real SQLite (the demo),
 * PostgreSQL (Chinook) and MariaDB (Chinook's customers and invoices): what the database returns for a
 * group of fewer than K people is NULL with the flag 1, and every other group equals hand-written SQL.
 * The hand-written SQL here is the plain aggregate plus a per-group count of people; the expected
 * suppression is decided from that count in Java, not by the compiler's own expression.
 */
class SmallCellsAcceptanceTest {

    @TempDir
    static Path dir;
    static String maria;

    /** Suppressed groups per question, written to target/security/small-cells.txt for the closing note. */
    static final Map<String, String> figures = new ConcurrentSkipListMap<>();

    @BeforeAll
    static void load() throws Exception {
        TestPostgres.loadSample("chinook", "chinook.sql");
        TestPostgres.loadSample("northwind", "northwind.sql");
        maria = TestMariaDb.create("sb_cells",
                "CREATE TABLE employee (employee_id INT PRIMARY KEY, last_name VARCHAR(20), email VARCHAR(60))",
                "CREATE TABLE customer (customer_id INT PRIMARY KEY, first_name VARCHAR(40), last_name VARCHAR(20), "
                        + "company VARCHAR(80), city VARCHAR(40), country VARCHAR(40), email VARCHAR(60), "
                        + "support_rep_id INT REFERENCES employee (employee_id))",
                "CREATE TABLE invoice (invoice_id INT PRIMARY KEY, customer_id INT NOT NULL REFERENCES customer (customer_id), "
                        + "invoice_date DATETIME NOT NULL, billing_country VARCHAR(40), total DECIMAL(10,2) NOT NULL)");
        ChinookOnMariaDb.copy(maria, "SELECT employee_id, last_name, email FROM employee", "INSERT INTO employee VALUES (?, ?, ?)", 3);
        ChinookOnMariaDb.copy(maria, "SELECT customer_id, first_name, last_name, company, city, country, email, support_rep_id FROM customer",
                "INSERT INTO customer VALUES (?, ?, ?, ?, ?, ?, ?, ?)", 8);
        ChinookOnMariaDb.copy(maria, "SELECT invoice_id, customer_id, invoice_date, billing_country, total FROM invoice",
                "INSERT INTO invoice VALUES (?, ?, ?, ?, ?)", 5);
    }

    @AfterAll
    static void drop() throws Exception {
        TestMariaDb.drop(maria);
        StringBuilder out = new StringBuilder("small-cell suppression at K = 5 (groups suppressed / groups):\n");
        figures.forEach((question, figure) -> out.append("  ").append(question).append(": ").append(figure).append('\n'));
        Path file = Path.of("target", "security", "small-cells.txt");
        Files.createDirectories(file.getParent());
        Files.writeString(file, out.toString());
    }

    record Source(String url, Catalog catalog, SemanticModel model) {

        static Source of(String url) throws Exception {
            Catalog catalog;
            try (SchemaSource s = Sources.open(SourceUrl.parse(url))) {
                catalog = s.introspect(IntrospectionOptions.withoutSamples());
            }
            return new Source(url, catalog, new SemanticInference(n -> null).infer(catalog));
        }

        QualifiedName table(String name) {
            return catalog.tables().stream().map(t -> t.name()).filter(n -> n.table().equals(name)).findFirst().orElseThrow();
        }
    }

    static Source chinook(String engine) throws Exception {
        return Source.of(engine.equals("postgresql") ? TestPostgres.url("chinook") : TestMariaDb.url(maria));
    }

    static MetricRequest request(String metric, List<String> groupBy, List<Filter> filters) {
        return new MetricRequest(metric, groupBy, filters, null, null, List.of(), List.of(), 10_000);
    }

    /**
     * Runs the compiled metric and the hand-written SQL, whose rows are the group keys, the plain value
     * and the number of people in the group; a group under K must come back NULL and flagged (after every shown
     * group, so a limit keeps the shown ones), every other group exactly as by hand. Answers how many groups were
     * suppressed, and of how many.
     */
    static int[] assertSuppressed(Source source, MetricRequest request, SmallCells cells, String handWritten) throws Exception {
        try (QueryExecutor ex = new QueryExecutor(SourceUrl.parse(source.url()), ExecutorSettings.defaults())) {
            CompiledMetric m = new MetricCompiler(source.catalog(), source.model()).compile(request, ex.dialect(), cells);
            assertTrue(m.suppresses(), m.sql());
            List<List<Object>> got = ex.execute(new BoundQuery(m.sql(), m.params()), m.limit()).rows();
            List<List<Object>> hand = ex.execute(new BoundQuery(handWritten, List.of()), 10_000).rows();
            assertEquals(hand.size(), got.size(), m.sql());
            int keys = m.columns().size() - 1;
            Map<List<String>, List<Object>> byKey = new HashMap<>();
            boolean flaggedSeen = false;
            for (List<Object> g : got) {
                boolean flagged = ((Number) g.get(keys + 1)).intValue() == 1;
                assertTrue(flagged || !flaggedSeen, "suppressed groups come after every shown one: " + m.sql());
                flaggedSeen |= flagged;
                byKey.put(text(g.subList(0, keys)), g);
            }
            int suppressed = 0;
            for (List<Object> h : hand) {
                List<Object> g = byKey.get(text(h.subList(0, keys)));
                assertTrue(g != null, "the same groups: " + h);
                long people = ((Number) h.get(keys + 1)).longValue();
                boolean small = people < cells.minGroupSize();
                assertEquals(small ? 1 : 0, ((Number) g.get(keys + 1)).intValue(), "flag of " + h + " in " + m.sql());
                if (small) {
                    assertEquals(null, g.get(keys), "the database returned no value for " + h);
                    suppressed++;
                } else {
                    assertEquals(text(List.of(h.get(keys))), text(List.of(g.get(keys))), "value of " + h);
                }
            }
            figures.put(source.url().replaceAll("^(\\w+):.*?([^/]+?)(_[0-9a-f]{10})?$", "$1 $2") + " " + request.metric() + " by "
                    + request.groupBy() + (request.filters().isEmpty() ? "" : " where " + request.filters().get(0).column()),
                    suppressed + " / " + hand.size());
            return new int[]{suppressed, hand.size()};
        }
    }

    /** Small cells over {@code people}, the entities whose rows are persons. */
    static SmallCells cells(Source s, String... people) {
        return new SmallCells(5, new SubjectGraph(s.model(), s.catalog(), new DataSubjects(Set.of(people), Set.of(),
                Map.of(), Map.of())));
    }

    static List<String> text(List<Object> values) {
        List<String> out = new ArrayList<>();
        for (Object v : values) {
            out.add(v instanceof Number n ? new BigDecimal(n.toString()).stripTrailingZeros().toPlainString() : String.valueOf(v));
        }
        return out;
    }

    static SmallCells people(Source s) {
        return cells(s, "customer", "employee");
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb"})
    void customersByCountryCityAndCompanyAreNearlyAllSuppressed(String engine) throws Exception {
        Source chinook = chinook(engine);
        int[] suppressed = assertSuppressed(chinook, request("customer_count", List.of("customer.country", "customer.city",
                        "customer.company"), List.of()), people(chinook),
                "SELECT country, city, company, COUNT(customer_id), COUNT(DISTINCT customer_id) FROM customer "
                        + "GROUP BY country, city, company ORDER BY country, city, company");
        // The red-team's figure: 53 of 56 such groups hold one customer.
        assertTrue(suppressed[0] >= 53, suppressed[0] + " of " + suppressed[1]);
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb"})
    void revenueByCustomerCountryKeepsTheLargeCountriesExact(String engine) throws Exception {
        Source chinook = chinook(engine);
        int[] suppressed = assertSuppressed(chinook, request("invoice_total_sum", List.of("customer.country"), List.of()),
                people(chinook),
                "SELECT c.country, SUM(i.total), COUNT(DISTINCT c.customer_id) FROM invoice i LEFT JOIN customer c "
                        + "ON i.customer_id = c.customer_id GROUP BY c.country ORDER BY c.country");
        assertTrue(suppressed[0] > 0 && suppressed[0] < suppressed[1], "small countries only: " + suppressed[0]);
    }

    /** Chinook with a ratio and a running total over its revenue draft. */
    static Source combined(String engine) throws Exception {
        Source c = chinook(engine);
        List<Metric> metrics = new ArrayList<>(c.model().metrics());
        metrics.add(new Metric("total_per_invoice", null, "invoice", null, null, List.of(), List.of(),
                Origin.AUTHORED,
                new MetricKind.Ratio("invoice_total_sum", "invoice_count")));
        metrics.add(new Metric("running_total", null, "invoice", null, null, List.of(), List.of(),
                Origin.AUTHORED,
                new MetricKind.Cumulative("invoice_total_sum", null, null, null)));
        return new Source(c.url(), c.catalog(), new SemanticModel(c.model().entities(), c.model().joins(), metrics));
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb"})
    void aRatioHidesTheGroupsItsPartsHide(String engine) throws Exception {
        Source chinook = combined(engine);
        int[] suppressed = assertSuppressed(chinook, request("total_per_invoice", List.of("customer.country"), List.of()),
                people(chinook),
                "SELECT c.country, SUM(i.total) * 1.0 / COUNT(*), COUNT(DISTINCT c.customer_id) FROM invoice i LEFT JOIN customer c "
                        + "ON i.customer_id = c.customer_id GROUP BY c.country ORDER BY c.country");
        assertTrue(suppressed[0] > 0 && suppressed[0] < suppressed[1], "small countries only: " + suppressed[0]);
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb"})
    void aRunningTotalOfOnePersonIsHiddenInEveryBucket(String engine) throws Exception {
        Source chinook = combined(engine);
        // Differencing two running totals would give one month's figure: every bucket of one customer's total is hidden.
        try (QueryExecutor ex = new QueryExecutor(SourceUrl.parse(chinook.url()), ExecutorSettings.defaults())) {
            CompiledMetric m = new MetricCompiler(chinook.catalog(), chinook.model()).compile(new MetricRequest("running_total",
                    List.of(), List.of(new Filter("customer.customer_id", FilterOp.EQ, 5)), "year", null, List.of(), List.of(), 100),
                    ex.dialect(), people(chinook));
            List<List<Object>> rows = ex.execute(new BoundQuery(m.sql(), m.params()), m.limit()).rows();
            assertFalse(rows.isEmpty());
            rows.forEach(r -> {
                assertEquals(null, r.get(1), "a value for " + r);
                assertEquals(1, ((Number) r.get(2)).intValue());
            });
            // The whole shop's running total is shown.
            CompiledMetric all = new MetricCompiler(chinook.catalog(), chinook.model()).compile(new MetricRequest("running_total",
                    List.of(), List.of(), "year", null, List.of(), List.of(), 100), ex.dialect(), people(chinook));
            ex.execute(new BoundQuery(all.sql(), all.params()), all.limit()).rows()
                    .forEach(r -> assertEquals(0, ((Number) r.get(2)).intValue(), "shown: " + r));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb"})
    void aSumByThePersonsKeyIsOnePersonPerGroupAndAllSuppressed(String engine) throws Exception {
        Source chinook = chinook(engine);
        // Each customer has seven invoices: counted by rows every group would pass; counted by people none does.
        int[] suppressed = assertSuppressed(chinook, request("invoice_total_sum", List.of("invoice.customer_id"), List.of()),
                people(chinook),
                "SELECT customer_id, SUM(total), COUNT(DISTINCT customer_id) FROM invoice GROUP BY customer_id ORDER BY customer_id");
        assertEquals(suppressed[1], suppressed[0], "every customer's total is withheld");
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb"})
    void anUngroupedTotalNarrowedToOnePersonIsSuppressed(String engine) throws Exception {
        Source chinook = chinook(engine);
        assertEquals(1, assertSuppressed(chinook, request("invoice_total_sum", List.of(),
                        List.of(new Filter("customer.customer_id", FilterOp.EQ, 5))), people(chinook),
                "SELECT SUM(i.total), COUNT(DISTINCT c.customer_id) FROM invoice i LEFT JOIN customer c "
                        + "ON i.customer_id = c.customer_id WHERE c.customer_id = 5")[0]);
        assertEquals(0, assertSuppressed(chinook, request("invoice_total_sum", List.of(), List.of()), people(chinook),
                "SELECT SUM(total), COUNT(DISTINCT customer_id) FROM invoice")[0], "the whole table is a large group");
    }

    @Test
    void northwindRevenueByYearAndCountryKeepsItsLargeGroups() throws Exception {
        Source northwind = Source.of(TestPostgres.url("northwind"));
        northwind = new Source(northwind.url(), northwind.catalog(), new SemanticModel(northwind.model().entities(),
                northwind.model().joins(), List.of(new Metric("order_revenue", "Line revenue",
                "order_details", new Measure(Aggregation.SUM, null,
                "unit_price * quantity * (1 - discount)"), null, List.of(), List.of(), Origin.AUTHORED))));
        SmallCells cells = cells(northwind, "customers", "employees");
        MetricRequest byCountry = new MetricRequest("order_revenue", List.of("customers.country"), List.of(), "year", null,
                List.of(), List.of(), 10_000);
        // The acceptance question (MetricAcceptanceTest), with the people of each group counted beside it by hand.
        int[] suppressed = assertSuppressed(northwind, byCountry, cells,
                "SELECT CAST(date_trunc('year', o.order_date) AS date), c.country, "
                        + "SUM(d.unit_price * d.quantity * (1 - d.discount)), COUNT(DISTINCT c.customer_id) "
                        + "FROM order_details d LEFT JOIN orders o ON d.order_id = o.order_id "
                        + "LEFT JOIN customers c ON o.customer_id = c.customer_id GROUP BY 1, 2 ORDER BY 1, 2");
        assertTrue(suppressed[0] < suppressed[1], "the large countries stay exact: " + suppressed[0] + " of " + suppressed[1]);
    }

    @Test
    void aSupportRepIsAnAttributeOfACustomerNotItsSubject() throws Exception {
        Source chinook = chinook("postgresql");
        try (QueryExecutor ex = new QueryExecutor(SourceUrl.parse(chinook.url()), ExecutorSettings.defaults())) {
            CompiledMetric m = new MetricCompiler(chinook.catalog(), chinook.model())
                    .compile(request("customer_count", List.of("customer.country"), List.of()), ex.dialect(), people(chinook));
            // Three reps serve every customer: counting reps would suppress every country.
            assertEquals(List.of("customer"), m.subjects(), m.sql());
        }
    }

    @Test
    void theDemoOnSqliteSuppressesInTheSameQuery() throws Exception {
        Path file = DemoDatabase.ensure(dir.resolve("demo.sqlite"));
        Source demo = Source.of("sqlite:" + file);
        SmallCells cells = cells(demo, "users");
        int[] byRole = assertSuppressed(demo, request("page_views_count", List.of("users.role"), List.of()), cells,
                "SELECT u.role, COUNT(p.id), COUNT(DISTINCT p.user_id) FROM page_views p "
                        + "LEFT JOIN users u ON u.id = p.user_id GROUP BY u.role ORDER BY u.role");
        assertEquals(0, byRole[0], "every role has many viewers");
        int[] byUser = assertSuppressed(demo, request("page_views_count", List.of("page_views.user_id"), List.of()), cells,
                "SELECT user_id, COUNT(id), COUNT(DISTINCT user_id) FROM page_views GROUP BY user_id ORDER BY user_id");
        assertEquals(byUser[1], byUser[0], "one person per group: all suppressed");
        try (QueryExecutor ex = new QueryExecutor(SourceUrl.parse(demo.url()), ExecutorSettings.defaults())) {
            CompiledMetric off = new MetricCompiler(demo.catalog(), demo.model())
                    .compile(request("page_views_count", List.of("page_views.user_id"), List.of()), ex.dialect(), SmallCells.OFF);
            assertFalse(off.suppresses(), "K = 1 or no personal table: the plain statement");
            assertFalse(off.sql().contains("CASE"), off.sql());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb"})
    void billingCountryProtectsTheSameCustomersAsCustomerCountry(String engine) throws Exception {
        Source chinook = chinook(engine);
        // Argentina has one customer: grouped by the invoice's own billing country it was shown (invoices counted).
        int[] byBilling = assertSuppressed(chinook, request("invoice_total_sum", List.of("invoice.billing_country"), List.of()),
                people(chinook), "SELECT billing_country, SUM(total), COUNT(DISTINCT customer_id) FROM invoice "
                        + "GROUP BY billing_country ORDER BY billing_country");
        int[] byCustomer = assertSuppressed(chinook, request("invoice_total_sum", List.of("customer.country"), List.of()),
                people(chinook), "SELECT c.country, SUM(i.total), COUNT(DISTINCT c.customer_id) FROM invoice i LEFT JOIN customer c "
                        + "ON i.customer_id = c.customer_id GROUP BY c.country ORDER BY c.country");
        assertEquals(byCustomer[0], byBilling[0], "the same small countries are withheld whichever column groups");
        assertTrue(byBilling[0] > 0, "Argentina's single customer is withheld");
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb"})
    void aPersonsKeyOnTheSubjectsOwnRowIsCountedToo(String engine) throws Exception {
        Source chinook = chinook(engine);
        // Revenue by support rep: three reps, each a group of one person, however many customers they serve.
        int[] byRep = assertSuppressed(chinook, request("invoice_total_sum", List.of("customer.support_rep_id"), List.of()),
                people(chinook), "SELECT c.support_rep_id, SUM(i.total), LEAST(COUNT(DISTINCT c.support_rep_id), COUNT(DISTINCT i.customer_id))"
                        + " FROM invoice i LEFT JOIN customer c ON i.customer_id = c.customer_id GROUP BY c.support_rep_id"
                        + " ORDER BY c.support_rep_id");
        assertEquals(byRep[1], byRep[0], "every rep's revenue is withheld");
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgresql"})
    void aLineItemCountsThePeopleTwoStepsAway(String engine) throws Exception {
        Source chinook = chinook(engine);
        // invoice_line → invoice → customer: a line is about the customer of its invoice.
        int[] byTrack = assertSuppressed(chinook, request("invoice_line_count", List.of("invoice_line.track_id"), List.of()),
                people(chinook), "SELECT l.track_id, COUNT(l.invoice_line_id), COUNT(DISTINCT i.customer_id) FROM invoice_line l "
                        + "LEFT JOIN invoice i ON l.invoice_id = i.invoice_id GROUP BY l.track_id ORDER BY l.track_id");
        assertEquals(byTrack[1], byTrack[0], "no track was bought by five customers: every group is withheld");
        int[] byCountry = assertSuppressed(chinook, request("invoice_line_count", List.of("invoice.billing_country"), List.of()),
                people(chinook), "SELECT i.billing_country, COUNT(l.invoice_line_id), COUNT(DISTINCT i.customer_id) FROM invoice_line l "
                        + "LEFT JOIN invoice i ON l.invoice_id = i.invoice_id GROUP BY i.billing_country ORDER BY i.billing_country");
        assertTrue(byCountry[0] > 0 && byCountry[0] < byCountry[1], byCountry[0] + " of " + byCountry[1]);
    }
}
