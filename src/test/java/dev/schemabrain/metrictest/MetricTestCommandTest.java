package dev.schemabrain.metrictest;

import dev.schemabrain.testing.InProcessCli;
import dev.schemabrain.testing.TestMariaDb;
import dev.schemabrain.testing.TestPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code schemabrain test} on real PostgreSQL and MariaDB, on a small shop schema written for this test: orders of
 * customers, with lines. {@code revenue} (the sum of the amounts) passes a known March total, equality to a hand
 * SELECT by month, not-null by month and no fan-out by country; {@code broken_revenue} (the sum of the discounts,
 * NULL all February) fails each of those, and walks the one-to-many join to the order lines.
 */
class MetricTestCommandTest {

    @TempDir
    static Path dir;
    static String maria;
    static final Map<String, Setup> SETUPS = new HashMap<>();

    record Setup(String url, String store, Path project) {
        InProcessCli.Result test(String... more) {
            List<String> args = new ArrayList<>(List.of("--store", store, "test", project.toString(), "--source", url));
            args.addAll(List.of(more));
            return InProcessCli.run(args.toArray(String[]::new));
        }
    }

    @BeforeAll
    static void create() throws Exception {
        TestPostgres.createDatabase("sb_metric_tests", ddl("postgresql").toArray(String[]::new));
        maria = TestMariaDb.create("sb_mtests", ddl("mariadb").toArray(String[]::new));
    }

    @AfterAll
    static void drop() throws Exception {
        if (maria != null) {
            TestMariaDb.drop(maria);
        }
    }

    static List<String> ddl(String engine) {
        String s = engine.equals("postgresql") ? "shop." : "";
        List<String> out = new ArrayList<>();
        if (!s.isEmpty()) {
            out.add("CREATE SCHEMA shop");
        }
        out.add("CREATE TABLE " + s + "customers (customer_id INT PRIMARY KEY, country VARCHAR(2) NOT NULL)");
        out.add("CREATE TABLE " + s + "orders (order_id INT PRIMARY KEY, customer_id INT NOT NULL REFERENCES " + s
                + "customers (customer_id), ordered_on DATE NOT NULL, amount DECIMAL(10,2) NOT NULL, discount DECIMAL(10,2))");
        out.add("CREATE TABLE " + s + "order_lines (line_id INT PRIMARY KEY, order_id INT NOT NULL REFERENCES " + s
                + "orders (order_id), product VARCHAR(40) NOT NULL, quantity INT NOT NULL)");
        out.add("INSERT INTO " + s + "customers VALUES (1, 'DE'), (2, 'FR'), (3, 'US')");
        // February has no discount at all: the broken metric's NULL month.
        out.add("INSERT INTO " + s + "orders VALUES (1, 1, '2024-01-05', 100.50, 5.00), (2, 2, '2024-01-20', 200.25, 10.00),"
                + " (3, 1, '2024-02-03', 50.00, NULL), (4, 3, '2024-02-14', 75.75, NULL), (5, 2, '2024-03-01', 300.00, 15.00),"
                + " (6, 3, '2024-03-15', 120.10, 0.00), (7, 1, '2024-03-31', 99.90, 2.50)");
        out.add("INSERT INTO " + s + "order_lines VALUES (1, 1, 'pen', 2), (2, 1, 'ink', 1), (3, 2, 'pad', 4), (4, 5, 'pen', 1),"
                + " (5, 5, 'pad', 2), (6, 6, 'ink', 3)");
        return out;
    }

    /** Indexed once per engine, the project applied: what an operator has before writing tests. */
    static synchronized Setup setup(String engine) throws IOException {
        Setup existing = SETUPS.get(engine);
        if (existing != null) {
            return existing;
        }
        boolean pg = engine.equals("postgresql");
        String url = pg ? TestPostgres.url("sb_metric_tests") : TestMariaDb.url(maria);
        String schema = pg ? "shop" : maria;
        String store = dir.resolve(engine + ".db").toString();
        InProcessCli.Result index = InProcessCli.run("--store", store, "index", "--source", url);
        assertEquals(0, index.exitCode(), index.stderr());
        Path project = dir.resolve(engine + "-project");
        write(project, "entities/customer.yaml", "version: 1\nname: customer\ntable: " + schema + ".customers\nidentity: [customer_id]\n");
        write(project, "entities/order.yaml", "version: 1\nname: order\ntable: " + schema + ".orders\nidentity: [order_id]\n");
        write(project, "entities/order_line.yaml", "version: 1\nname: order_line\ntable: " + schema + ".order_lines\nidentity: [line_id]\n");
        write(project, "joins/order_customer.yaml", join("order_customer", "customer", "customer_id", "many_to_one"));
        write(project, "joins/order_lines.yaml", join("order_lines", "order_line", "order_id", "one_to_many"));
        write(project, "metrics/revenue.yaml", metric("revenue", "amount"));
        write(project, "metrics/broken_revenue.yaml", metric("broken_revenue", "discount"));
        String byMonth = pg ? "SELECT CAST(date_trunc('month', ordered_on) AS timestamp) AS time_bucket, sum(amount) FROM shop.orders GROUP BY 1"
                : "SELECT DATE_FORMAT(ordered_on, '%Y-%m-01') AS time_bucket, SUM(amount) FROM orders GROUP BY 1";
        write(project, "tests/revenue.yaml", tests("revenue", byMonth, "customer.country"));
        write(project, "tests/broken_revenue.yaml", tests("broken_revenue", byMonth, "order_line.product")
                + "  - name: equals a statement that does not run\n    equals_sql: \"SELECT total FROM no_such_table\"\n");
        InProcessCli.Result apply = InProcessCli.run("--store", store, "apply", project.toString());
        assertEquals(0, apply.exitCode(), apply.stdout() + apply.stderr());
        Setup setup = new Setup(url, store, project);
        SETUPS.put(engine, setup);
        return setup;
    }

    private static String join(String name, String target, String key, String cardinality) {
        return "version: 1\nname: " + name + "\nsource_entity: order\ntarget_entity: " + target + "\non: [{source: " + key
                + ", target: " + key + "}]\ncardinality: " + cardinality + "\n";
    }

    private static String metric(String name, String column) {
        return "version: 1\nname: " + name + "\nentity: order\nmeasure: {agg: sum, column: " + column + "}\n"
                + "time_dimension: order.ordered_on\ntime_grains: [month]\n";
    }

    /** The four kinds, the same for both metrics: the numbers are revenue's. */
    private static String tests(String metric, String byMonth, String groupBy) {
        return "version: 1\nmetric: " + metric + "\ntests:\n"
                + "  - name: march 2024 total\n"
                + "    expect: {value: 520.00}\n"
                + "    tolerance: 0.005\n"
                + "    request:\n"
                + "      filters:\n"
                + "        - {column: order.ordered_on, op: gte, value: 2024-03-01}\n"
                + "        - {column: order.ordered_on, op: lt, value: \"2024-04-01\"}\n"
                + "  - name: equals hand SQL by month\n"
                + "    request: {time_grain: month}\n"
                + "    equals_sql: \"" + byMonth + "\"\n"
                + "  - name: never null by month\n"
                + "    request: {time_grain: month}\n"
                + "    not_null: true\n"
                + "  - name: no fan-out\n"
                + "    request: {group_by: [" + groupBy + "]}\n"
                + "    no_fan_out: true\n";
    }

    /** A project beside the indexed one holding only {@code tests/revenue.yaml}, tested on the PostgreSQL store. */
    static Setup revenueTests(String name, String yaml) throws IOException {
        Setup s = setup("postgresql");
        Path project = dir.resolve(name);
        write(project, "tests/revenue.yaml", yaml);
        return new Setup(s.url(), s.store(), project);
    }

    static void write(Path project, String file, String text) throws IOException {
        Path path = project.resolve(file);
        Files.createDirectories(path.getParent());
        Files.writeString(path, text);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"postgresql", "mariadb"})
    void aCorrectMetricPassesEveryKind(String engine) throws Exception {
        InProcessCli.Result r = setup(engine).test("--metric", "revenue");
        assertEquals(0, r.exitCode(), r.stdout() + r.stderr());
        assertEquals(List.of(
                "PASS revenue: march 2024 total",
                "PASS revenue: equals hand SQL by month",
                "PASS revenue: never null by month",
                "PASS revenue: no fan-out",
                "4 tests of 1 metric: 4 passed, 0 failed."), r.stdout().lines().toList(), r.stderr());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"postgresql", "mariadb"})
    void aWrongMetricFailsEveryKind(String engine) throws Exception {
        InProcessCli.Result r = setup(engine).test("--metric", "broken_revenue");
        assertEquals(1, r.exitCode(), r.stdout() + r.stderr());
        List<String> lines = r.stdout().lines().toList();
        assertEquals(6, lines.size(), r.stdout());
        assertEquals("FAIL broken_revenue: march 2024 total — expected 520.00, got 17.50 (difference 502.50)", lines.get(0));
        assertEquals("FAIL broken_revenue: equals hand SQL by month — 3 of 3 groups differ from equals_sql:"
                + " time_bucket=2024-01-01: expected 300.75, got 15.00 (difference 285.75);"
                + " time_bucket=2024-02-01: expected 125.75, got NULL;"
                + " time_bucket=2024-03-01: expected 520.00, got 17.50 (difference 502.50)", lines.get(1));
        assertEquals("FAIL broken_revenue: never null by month — NULL in 1 of 3 groups, first at time_bucket=2024-02-01", lines.get(2));
        assertEquals("FAIL broken_revenue: no fan-out — the request walks the fan-out join order_lines, which repeats the"
                + " metric's rows", lines.get(3));
        // The database's own sentence, not a stack trace and not advice meant for agents.
        assertTrue(lines.get(4).startsWith("FAIL broken_revenue: equals a statement that does not run — equals_sql failed: "),
                lines.get(4));
        assertTrue(lines.get(4).contains("no_such_table") && !lines.get(4).contains("list_metrics"), lines.get(4));
        assertEquals("5 tests of 1 metric: 0 passed, 5 failed.", lines.get(5));
        assertEquals("", r.stderr());
    }

    @Test
    void everyMetricRunsWithoutMetricAndOneFailureFailsTheRun() throws Exception {
        InProcessCli.Result r = setup("postgresql").test();
        assertEquals(1, r.exitCode(), r.stdout() + r.stderr());
        // Files in name order: broken_revenue.yaml, then revenue.yaml.
        assertTrue(r.stdout().startsWith("FAIL broken_revenue: march 2024 total"), r.stdout());
        assertTrue(r.stdout().contains("PASS revenue: no fan-out\n"), r.stdout());
        assertTrue(r.stdout().endsWith("9 tests of 2 metrics: 4 passed, 5 failed.\n"), r.stdout());
    }

    @Test
    void aToleranceWidensTheMatchAndWithoutOneADecimalMustBeExact() throws Exception {
        InProcessCli.Result r = revenueTests("tolerance", """
                version: 1
                metric: revenue
                tests:
                  - name: within a cent
                    expect: {value: 946.504}
                    tolerance: 0.01
                  - name: off by a thousandth
                    expect: {value: 946.501}
                """).test();
        assertEquals(1, r.exitCode(), r.stdout() + r.stderr());
        assertEquals(List.of("PASS revenue: within a cent",
                "FAIL revenue: off by a thousandth — expected 946.501, got 946.50 (difference 0.001)",
                "2 tests of 1 metric: 1 passed, 1 failed."), r.stdout().lines().toList());
    }

    @Test
    void equalsSqlRunsUnderTheStatementTimeoutAndATimeoutFailsOnlyItsTest() throws Exception {
        Setup slow = revenueTests("slow", """
                version: 1
                metric: revenue
                tests:
                  - name: slow reference
                    equals_sql: "SELECT 946.50 FROM pg_sleep(5)"
                  - name: still runs
                    expect: {value: 946.50}
                """);
        long start = System.nanoTime();
        InProcessCli.Result r = slow.test("--statement-timeout-ms", "300");
        assertTrue((System.nanoTime() - start) / 1_000_000 < 4_000, "stopped at the timeout, not after the sleep");
        assertEquals(1, r.exitCode(), r.stdout() + r.stderr());
        assertEquals(List.of("FAIL revenue: slow reference — equals_sql failed: it ran longer than 300 ms and was stopped"
                        + " (--statement-timeout-ms)", "PASS revenue: still runs", "2 tests of 1 metric: 1 passed, 1 failed."),
                r.stdout().lines().toList());
    }

    @Test
    void aTestOfAMetricTheStoreDoesNotHaveIsBadInputWithTheNearestName() throws Exception {
        Setup typo = revenueTests("typo", "version: 1\nmetric: revenu\ntests:\n  - name: n\n    not_null: true\n");
        InProcessCli.Result r = typo.test();
        assertEquals(2, r.exitCode(), r.stdout() + r.stderr());
        assertEquals("", r.stdout());
        assertEquals("schemabrain: tests/revenue.yaml:2: the store has no metric 'revenu' (did you mean 'revenue'?); fix the"
                + " name, or run 'schemabrain apply " + typo.project() + "' if the metric is new.", r.stderr().strip());
    }

    @Test
    void aMetricOptionNoFileTestsIsBadInput() throws Exception {
        InProcessCli.Result r = setup("postgresql").test("--metric", "revenu");
        assertEquals(2, r.exitCode(), r.stdout() + r.stderr());
        assertTrue(r.stderr().strip().startsWith("schemabrain: --metric 'revenu' has no tests in "), r.stderr());
        assertTrue(r.stderr().contains("(did you mean 'revenue'?); the tested metrics are broken_revenue, revenue."), r.stderr());
    }
}
