package dev.schemabrain.semantic;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.engine.Dialect;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.execute.ExecutorSettings;
import dev.schemabrain.execute.QueryExecutor;
import dev.schemabrain.semantic.compile.CompileException;
import dev.schemabrain.semantic.compile.CompiledMetric;
import dev.schemabrain.semantic.compile.MetricCompiler;
import dev.schemabrain.semantic.compile.MetricRequest;
import dev.schemabrain.error.ErrorKind;
import dev.schemabrain.semantic.model.Filter;
import dev.schemabrain.semantic.model.FilterOp;
import dev.schemabrain.semantic.model.SemanticModel;
import dev.schemabrain.semantic.project.SemanticProject;
import dev.schemabrain.engine.IntrospectionOptions;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.source.Sources;
import dev.schemabrain.store.SemanticLayer;
import dev.schemabrain.store.SqliteStore;
import dev.schemabrain.testing.TestMariaDb;
import dev.schemabrain.testing.TestPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Semantic layer v2 on a subscription business written for this test and not in the repository:
 * accounts (two test accounts, one soft-deleted), subscriptions with trials, invoices in three currencies with a
 * monthly FX table, invoice lines by product category, payments with failed attempts, refunds, and monthly MRR
 * snapshots. The semantic layer is a YAML project (read as `apply` reads it); every metric type's answer equals
 * hand-written SQL on PostgreSQL and on MariaDB.
 */
class SemanticV2AcceptanceTest {

    @TempDir
    static Path dir;
    static String maria;
    static final Map<String, Fixture> FIXTURES = new HashMap<>();

    record Fixture(String engine, String url, Catalog catalog, SemanticModel model, String schema) {
        String t(String table) {
            return schema + "." + table;
        }

        /** The first day of the month of {@code column}, in this engine's words. */
        String month(String column) {
            return engine.equals("postgresql") ? "CAST(date_trunc('month', " + column + ") AS date)"
                    : "CAST(DATE_FORMAT(" + column + ", '%Y-%m-01') AS DATE)";
        }

        String quarter(String column) {
            return engine.equals("postgresql") ? "CAST(date_trunc('quarter', " + column + ") AS date)"
                    : "MAKEDATE(YEAR(" + column + "), 1) + INTERVAL (QUARTER(" + column + ") - 1) QUARTER";
        }

        String notTest() {
            return engine.equals("postgresql") ? "NOT a.is_test" : "a.is_test = 0";
        }
    }

    @BeforeAll
    static void create() throws Exception {
        TestPostgres.createDatabase("sb_rev_v2", ddl("postgresql").toArray(String[]::new));
        maria = TestMariaDb.create("sb_rev", ddl("mariadb").toArray(String[]::new));
    }

    @AfterAll
    static void drop() throws Exception {
        TestMariaDb.drop(maria);
    }

    static List<String> ddl(String engine) {
        boolean pg = engine.equals("postgresql");
        String s = pg ? "rev." : "";
        String bool = pg ? "BOOLEAN" : "TINYINT(1)";
        String money = pg ? "NUMERIC(12,6)" : "DECIMAL(12,6)";
        List<String> out = new ArrayList<>();
        if (pg) {
            out.add("CREATE SCHEMA rev");
        }
        out.add("CREATE TABLE " + s + "accounts (account_id INT PRIMARY KEY, name VARCHAR(80) NOT NULL, tier VARCHAR(20) NOT NULL,"
                + " is_test " + bool + " NOT NULL, deleted_at TIMESTAMP NULL, created_on DATE NOT NULL)");
        out.add("CREATE TABLE " + s + "subscriptions (subscription_id INT PRIMARY KEY, account_id INT NOT NULL REFERENCES " + s
                + "accounts (account_id), status VARCHAR(20) NOT NULL, started_on DATE NOT NULL, converted_on DATE NULL)");
        out.add("CREATE TABLE " + s + "fx_rates (currency CHAR(3) NOT NULL, month DATE NOT NULL, usd_per_unit " + money
                + " NOT NULL, PRIMARY KEY (currency, month))");
        out.add("CREATE TABLE " + s + "invoices (invoice_id INT PRIMARY KEY, account_id INT NOT NULL REFERENCES " + s
                + "accounts (account_id), currency CHAR(3) NOT NULL, fx_month DATE NOT NULL, amount_cents BIGINT NOT NULL,"
                + " status VARCHAR(10) NOT NULL, issued_on DATE NOT NULL, due_on DATE NOT NULL, paid_on DATE NULL,"
                + " FOREIGN KEY (currency, fx_month) REFERENCES " + s + "fx_rates (currency, month))");
        out.add("CREATE TABLE " + s + "invoice_lines (line_id INT PRIMARY KEY, invoice_id INT NOT NULL REFERENCES " + s
                + "invoices (invoice_id), category VARCHAR(20) NOT NULL, amount_cents BIGINT NOT NULL)");
        out.add("CREATE TABLE " + s + "payments (payment_id INT PRIMARY KEY, invoice_id INT NOT NULL REFERENCES " + s
                + "invoices (invoice_id), status VARCHAR(10) NOT NULL, amount_cents BIGINT NOT NULL, attempted_on DATE NOT NULL)");
        out.add("CREATE TABLE " + s + "refunds (refund_id INT PRIMARY KEY, payment_id INT NOT NULL REFERENCES " + s
                + "payments (payment_id), status VARCHAR(10) NOT NULL, amount_cents BIGINT NOT NULL, refunded_on DATE NOT NULL)");
        out.add("CREATE TABLE " + s + "mrr_snapshots (snapshot_id INT PRIMARY KEY, account_id INT NOT NULL REFERENCES " + s
                + "accounts (account_id), snapshot_on DATE NOT NULL, mrr_cents BIGINT NOT NULL)");

        List<String> rows = new ArrayList<>();
        String[] tiers = {"enterprise", "smb", "smb", "enterprise", "smb", "smb"};
        for (int a = 1; a <= 12; a++) {
            boolean test = a == 4 || a == 9;
            String deleted = a == 7 ? "'2025-06-30 10:00:00'" : "NULL";
            rows.add("(" + a + ", 'Account " + a + "', '" + tiers[a % tiers.length] + "', " + (test ? (pg ? "TRUE" : "1") : (pg ? "FALSE" : "0"))
                    + ", " + deleted + ", '" + LocalDate.of(2024, 11, 1).plusDays(a * 9L) + "')");
        }
        out.add("INSERT INTO " + s + "accounts VALUES " + String.join(", ", rows));
        rows.clear();
        String[] statuses = {"active", "past_due", "canceled", "trialing", "active"};
        for (int i = 1; i <= 20; i++) {
            LocalDate start = LocalDate.of(2025, 1, 3).plusDays(i * 13L);
            String converted = i % 3 == 0 ? "NULL" : "'" + start.plusDays(14) + "'";
            rows.add("(" + i + ", " + ((i - 1) % 12 + 1) + ", '" + statuses[i % statuses.length] + "', '" + start + "', " + converted + ")");
        }
        out.add("INSERT INTO " + s + "subscriptions VALUES " + String.join(", ", rows));
        rows.clear();
        String[] currencies = {"USD", "EUR", "GBP"};
        for (int m = 0; m < 12; m++) {
            LocalDate month = LocalDate.of(2025, 1, 1).plusMonths(m);
            rows.add("('USD', '" + month + "', 1.000000)");
            rows.add("('EUR', '" + month + "', " + String.format(Locale.ROOT, "%.6f", 1.03 + m * 0.0071) + ")");
            rows.add("('GBP', '" + month + "', " + String.format(Locale.ROOT, "%.6f", 1.21 + m * 0.0043) + ")");
        }
        out.add("INSERT INTO " + s + "fx_rates VALUES " + String.join(", ", rows));
        rows.clear();
        List<String> lines = new ArrayList<>();
        String[] invoiceStatuses = {"paid", "paid", "open", "void", "paid", "draft"};
        String[] categories = {"seats", "storage", "support"};
        int line = 1;
        for (int i = 1; i <= 60; i++) {
            LocalDate issued = LocalDate.of(2025, 1, 2).plusDays(i * 5L + (i % 4));
            LocalDate due = issued.plusDays(14);
            String paid = i % 5 == 0 ? "NULL" : "'" + due.plusDays((i % 7) - 3) + "'";
            String currency = currencies[i % 3];
            long amount = 5_000 + (i * 7_919L) % 40_000;
            rows.add("(" + i + ", " + ((i * 5) % 12 + 1) + ", '" + currency + "', '" + issued.withDayOfMonth(1) + "', " + amount + ", '"
                    + invoiceStatuses[i % invoiceStatuses.length] + "', '" + issued + "', '" + due + "', " + paid + ")");
            int count = 1 + i % 3;   // one to three lines, sometimes two of one category
            for (int l = 0; l < count; l++) {
                lines.add("(" + line++ + ", " + i + ", '" + categories[(i + l * (i % 2)) % 3] + "', " + (amount / count) + ")");
            }
        }
        out.add("INSERT INTO " + s + "invoices VALUES " + String.join(", ", rows));
        out.add("INSERT INTO " + s + "invoice_lines VALUES " + String.join(", ", lines));
        rows.clear();
        int payment = 1;
        List<String> refunds = new ArrayList<>();
        int refund = 1;
        for (int i = 1; i <= 60; i++) {
            LocalDate issued = LocalDate.of(2025, 1, 2).plusDays(i * 5L + (i % 4));
            long amount = 5_000 + (i * 7_919L) % 40_000;
            int attempts = i % 4 == 0 ? 3 : i % 3 == 0 ? 2 : 1;   // failed attempts before the last
            for (int t = 0; t < attempts; t++) {
                boolean last = t == attempts - 1;
                String status = last && i % 11 != 0 ? "succeeded" : "failed";
                rows.add("(" + payment + ", " + i + ", '" + status + "', " + amount + ", '" + issued.plusDays(10 + t * 3L) + "')");
                if (status.equals("succeeded") && i % 6 == 1) {
                    refunds.add("(" + refund++ + ", " + payment + ", '" + (refund % 3 == 0 ? "pending" : "succeeded") + "', "
                            + amount / 4 + ", '" + issued.plusDays(40) + "')");
                }
                payment++;
            }
        }
        out.add("INSERT INTO " + s + "payments VALUES " + String.join(", ", rows));
        out.add("INSERT INTO " + s + "refunds VALUES " + String.join(", ", refunds));
        rows.clear();
        int snapshot = 1;
        for (int a = 1; a <= 12; a++) {
            for (int m = 0; m < 12; m++) {
                LocalDate end = LocalDate.of(2025, 1, 1).plusMonths(m + 1).minusDays(1);
                if ((a + m) % 5 == 0) {
                    continue;   // a month without a snapshot for this account
                }
                rows.add("(" + snapshot++ + ", " + a + ", '" + end + "', " + (1_000 * a + 250 * m) + ")");
            }
        }
        out.add("INSERT INTO " + s + "mrr_snapshots VALUES " + String.join(", ", rows));
        return out;
    }

    /** The project, as an analytics engineer writes it; {@code S} is the schema. */
    static Map<String, String> project(String schema) {
        Map<String, String> f = new LinkedHashMap<>();
        f.put("entities/account.yaml", """
                version: 1
                name: account
                table: S.accounts
                identity: [account_id]
                segments:
                  - name: real
                    description: Not a test account and not deleted
                    default: true
                    filters:
                      - {column: account.is_test, op: eq, value: false}
                      - {column: account.deleted_at, op: is_null}
                  - name: enterprise
                    filters:
                      - {column: account.tier, op: eq, value: enterprise}
                """);
        f.put("entities/subscription.yaml", "version: 1\nname: subscription\ntable: S.subscriptions\nidentity: [subscription_id]\n");
        f.put("entities/fx_rate.yaml", "version: 1\nname: fx_rate\ntable: S.fx_rates\nidentity: [currency, month]\n");
        f.put("entities/invoice.yaml", """
                version: 1
                name: invoice
                table: S.invoices
                identity: [invoice_id]
                segments:
                  - name: real
                    default: true
                    filters:
                      - {column: account.is_test, op: eq, value: false}
                      - {column: account.deleted_at, op: is_null}
                """);
        f.put("entities/invoice_line.yaml", "version: 1\nname: invoice_line\ntable: S.invoice_lines\nidentity: [line_id]\n");
        f.put("entities/payment.yaml", """
                version: 1
                name: payment
                table: S.payments
                identity: [payment_id]
                segments:
                  - name: real
                    default: true
                    filters:
                      - {column: account.is_test, op: eq, value: false}
                """);
        f.put("entities/refund.yaml", "version: 1\nname: refund\ntable: S.refunds\nidentity: [refund_id]\n");
        f.put("entities/mrr_snapshot.yaml", "version: 1\nname: mrr_snapshot\ntable: S.mrr_snapshots\nidentity: [snapshot_id]\n");
        for (String[] j : new String[][]{{"subscription_account", "subscription", "account", "account_id", "account_id"},
                {"invoice_account", "invoice", "account", "account_id", "account_id"},
                {"invoice_line_invoice", "invoice_line", "invoice", "invoice_id", "invoice_id"},
                {"payment_invoice", "payment", "invoice", "invoice_id", "invoice_id"},
                {"refund_payment", "refund", "payment", "payment_id", "payment_id"},
                {"mrr_snapshot_account", "mrr_snapshot", "account", "account_id", "account_id"}}) {
            f.put("joins/" + j[0] + ".yaml", "version: 1\nname: " + j[0] + "\nsource_entity: " + j[1] + "\ntarget_entity: " + j[2]
                    + "\non: [{source: " + j[3] + ", target: " + j[4] + "}]\ncardinality: many_to_one\n");
        }
        f.put("joins/invoice_fx_rate.yaml", """
                version: 1
                name: invoice_fx_rate
                source_entity: invoice
                target_entity: fx_rate
                on: [{source: currency, target: currency}, {source: fx_month, target: month}]
                cardinality: many_to_one
                """);
        f.put("metrics/paid_payments.yaml", """
                version: 1
                name: paid_payments
                entity: payment
                measure: {agg: sum, column: amount_cents}
                time_dimension: payment.attempted_on
                filters: [{column: payment.status, op: eq, value: succeeded}]
                """);
        f.put("metrics/payment_attempts.yaml", """
                version: 1
                name: payment_attempts
                entity: payment
                measure: {agg: count}
                time_dimension: payment.attempted_on
                """);
        f.put("metrics/successful_payments.yaml", """
                version: 1
                name: successful_payments
                entity: payment
                measure: {agg: count}
                time_dimension: payment.attempted_on
                filters: [{column: payment.status, op: eq, value: succeeded}]
                """);
        f.put("metrics/payment_success_rate.yaml", """
                version: 1
                name: payment_success_rate
                description: Share of payment attempts that succeeded
                type: ratio
                entity: payment
                numerator: successful_payments
                denominator: payment_attempts
                """);
        f.put("metrics/succeeded_refunds.yaml", """
                version: 1
                name: succeeded_refunds
                entity: refund
                measure: {agg: sum, column: amount_cents}
                time_dimension: refund.refunded_on
                filters: [{column: refund.status, op: eq, value: succeeded}]
                """);
        f.put("metrics/net_revenue.yaml", """
                version: 1
                name: net_revenue
                description: Paid payments less succeeded refunds
                type: derived
                entity: payment
                expression: paid_payments - succeeded_refunds
                """);
        f.put("metrics/running_revenue.yaml", """
                version: 1
                name: running_revenue
                type: cumulative
                entity: payment
                metric: paid_payments
                """);
        f.put("metrics/trailing_3m_revenue.yaml", """
                version: 1
                name: trailing_3m_revenue
                type: cumulative
                entity: payment
                metric: paid_payments
                window: {count: 3, grain: month}
                """);
        f.put("metrics/revenue_qtd.yaml", """
                version: 1
                name: revenue_qtd
                type: cumulative
                entity: payment
                metric: paid_payments
                grain_to_date: quarter
                """);
        f.put("metrics/mrr.yaml", """
                version: 1
                name: mrr
                entity: mrr_snapshot
                measure:
                  agg: sum
                  column: mrr_cents
                  non_additive: {column: snapshot_on, window: last}
                time_dimension: mrr_snapshot.snapshot_on
                """);
        f.put("metrics/live_subscriptions.yaml", """
                version: 1
                name: live_subscriptions
                entity: subscription
                measure: {agg: sum, expression: "case when status in ('active', 'past_due') then 1 else 0 end"}
                time_dimension: subscription.started_on
                """);
        f.put("metrics/trials.yaml", "version: 1\nname: trials\nentity: subscription\nmeasure: {agg: count}\n"
                + "time_dimension: subscription.started_on\n");
        f.put("metrics/conversions.yaml", "version: 1\nname: conversions\nentity: subscription\nmeasure: {agg: count}\n"
                + "time_dimension: subscription.started_on\nfilters: [{column: subscription.converted_on, op: not_null}]\n");
        f.put("metrics/trial_conversion.yaml", "version: 1\nname: trial_conversion\ntype: ratio\nentity: subscription\n"
                + "numerator: conversions\ndenominator: trials\n");
        f.put("metrics/late_invoices.yaml", """
                version: 1
                name: late_invoices
                description: Invoices paid after their due date
                entity: invoice
                measure: {agg: count}
                time_dimension: invoice.issued_on
                filters: [{column: invoice.paid_on, op: gt, other_column: invoice.due_on}]
                """);
        f.put("metrics/invoiced_usd.yaml", """
                version: 1
                name: invoiced_usd
                description: Invoiced amount in US cents at the month's rate
                entity: invoice
                measure: {agg: sum, expression: amount_cents * fx_rate.usd_per_unit}
                time_dimension: invoice.issued_on
                """);
        f.put("metrics/invoice_total.yaml", """
                version: 1
                name: invoice_total
                entity: invoice
                measure: {agg: sum, column: amount_cents}
                time_dimension: invoice.issued_on
                """);
        Map<String, String> out = new LinkedHashMap<>();
        f.forEach((k, v) -> out.put(k, v.replace("S.", schema + ".")));
        return out;
    }

    static synchronized Fixture fixture(String engine) throws Exception {
        Fixture known = FIXTURES.get(engine);
        if (known != null) {
            return known;
        }
        String url = engine.equals("postgresql") ? TestPostgres.url("sb_rev_v2") : TestMariaDb.url(maria);
        String schema = engine.equals("postgresql") ? "rev" : maria;
        Catalog catalog;
        try (SchemaSource s = Sources.open(SourceUrl.parse(url))) {
            catalog = s.introspect(IntrospectionOptions.withoutSamples());
        }
        Path project = dir.resolve(engine);
        for (Map.Entry<String, String> file : project(schema).entrySet()) {
            Path p = project.resolve(file.getKey());
            Files.createDirectories(p.getParent());
            Files.writeString(p, file.getValue());
        }
        SemanticProject.Loaded loaded = SemanticProject.read(project);
        assertEquals(List.of(), SemanticProject.check(loaded.model(), catalog, loaded), "the project applies cleanly");
        Fixture f = new Fixture(engine, url, catalog, loaded.model(), schema);
        FIXTURES.put(engine, f);
        return f;
    }

    static MetricRequest request(String metric, List<String> groupBy, List<Filter> filters, String grain) {
        return new MetricRequest(metric, groupBy, filters, grain, null, List.of(), List.of(), 10_000);
    }

    static CompiledMetric assertSame(Fixture f, MetricRequest request, String handWritten) throws Exception {
        return HandWritten.assertSameRows(f.url(), (r, ex) -> new MetricCompiler(f.catalog(), f.model()).compile(r, ex.dialect()),
                request, handWritten, HandWritten::canonical);
    }

    static List<List<String>> rows(Fixture f, String sql) throws Exception {
        return HandWritten.rows(f.url(), sql);
    }

    /** Succeeded payments of real accounts, by attempt month: the parts every revenue figure below rests on. */
    static String paidByMonth(Fixture f) {
        return "SELECT " + f.month("p.attempted_on") + " AS m, SUM(p.amount_cents) AS v FROM " + f.t("payments") + " p LEFT JOIN "
                + f.t("invoices") + " i ON p.invoice_id = i.invoice_id LEFT JOIN " + f.t("accounts") + " a ON i.account_id = a.account_id"
                + " WHERE p.status = 'succeeded' AND " + f.notTest() + " GROUP BY " + f.month("p.attempted_on");
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb"})
    void aDefaultSegmentAppliesUnlessTheCallerOptsOut(String engine) throws Exception {
        Fixture f = fixture(engine);
        assertSame(f, request("invoice_total", List.of(), List.of(), null),
                "SELECT SUM(i.amount_cents) FROM " + f.t("invoices") + " i JOIN " + f.t("accounts") + " a ON a.account_id = i.account_id"
                        + " WHERE " + f.notTest() + " AND a.deleted_at IS NULL");
        assertSame(f, new MetricRequest("invoice_total", List.of(), List.of(), null, null, List.of(), List.of(), 10, List.of(), false),
                "SELECT SUM(amount_cents) FROM " + f.t("invoices"));
        // A named segment on another entity narrows further.
        assertSame(f, new MetricRequest("invoice_total", List.of(), List.of(), null, null, List.of(), List.of(), 10,
                        List.of("account.enterprise"), true),
                "SELECT SUM(i.amount_cents) FROM " + f.t("invoices") + " i JOIN " + f.t("accounts") + " a ON a.account_id = i.account_id"
                        + " WHERE " + f.notTest() + " AND a.deleted_at IS NULL AND a.tier = 'enterprise'");
        CompileException unknown = assertThrows(CompileException.class, () -> new MetricCompiler(f.catalog(), f.model()).compile(
                new MetricRequest("invoice_total", List.of(), List.of(), null, null, List.of(), List.of(), 10, List.of("enterprize"), true),
                new QueryExecutor(SourceUrl.parse(f.url()), ExecutorSettings.defaults()).dialect()));
        assertTrue(unknown.candidates().contains("account.enterprise"), unknown.candidates().toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb"})
    void aRatioIsItsPartsDividedByKeyAndNeverIntegerDivision(String engine) throws Exception {
        Fixture f = fixture(engine);
        String part = "SELECT " + f.month("p.attempted_on") + " AS m, COUNT(*) AS n, SUM(CASE WHEN p.status = 'succeeded' THEN 1 ELSE 0 END)"
                + " AS s FROM " + f.t("payments") + " p LEFT JOIN " + f.t("invoices") + " i ON p.invoice_id = i.invoice_id LEFT JOIN "
                + f.t("accounts") + " a ON i.account_id = a.account_id WHERE " + f.notTest() + " GROUP BY " + f.month("p.attempted_on");
        CompiledMetric m = assertSame(f, request("payment_success_rate", List.of(), List.of(), "month"),
                "SELECT x.m, x.s * 1.0 / x.n FROM (" + part + ") x ORDER BY x.m");
        assertTrue(m.degradation().isEmpty());
        // The rate is a fraction, not 0 or 1 from integer division.
        List<List<String>> got = rows(f, "SELECT x.s * 1.0 / x.n FROM (" + part + ") x");
        assertTrue(got.stream().anyMatch(r -> !r.get(0).startsWith("1.") && !r.get(0).startsWith("0.000000")), got.toString());

        assertSame(f, request("trial_conversion", List.of(), List.of(), null),
                "SELECT SUM(CASE WHEN s.converted_on IS NOT NULL THEN 1 ELSE 0 END) * 1.0 / COUNT(*) FROM " + f.t("subscriptions") + " s");
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb"})
    void aDerivedMetricMeetsItsPartsByKeyAndAMonthWithoutRefundsStillHasNetRevenue(String engine) throws Exception {
        Fixture f = fixture(engine);
        String refunds = "SELECT " + f.month("r.refunded_on") + " AS m, SUM(r.amount_cents) AS v FROM " + f.t("refunds") + " r"
                + " WHERE r.status = 'succeeded' GROUP BY " + f.month("r.refunded_on");
        assertSame(f, request("net_revenue", List.of(), List.of(), "month"),
                "WITH p AS (" + paidByMonth(f) + "), r AS (" + refunds + ") SELECT k.m, COALESCE(p.v, 0) - COALESCE(r.v, 0)"
                        + " FROM (SELECT m FROM p UNION SELECT m FROM r) k LEFT JOIN p ON p.m = k.m LEFT JOIN r ON r.m = k.m ORDER BY k.m");
        List<List<String>> months = rows(f, "SELECT COUNT(*) FROM (" + paidByMonth(f) + ") p WHERE p.m NOT IN (SELECT "
                + f.month("refunded_on") + " FROM " + f.t("refunds") + ")");
        assertNotEquals("0", months.get(0).get(0), "some months have no refunds, so the stacking matters");
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb"})
    void cumulativeMetricsRunFromTheStartOverAWindowOrWithinAPeriod(String engine) throws Exception {
        Fixture f = fixture(engine);
        String p = paidByMonth(f);
        assertSame(f, request("running_revenue", List.of(), List.of(), "month"),
                "SELECT a.m, SUM(b.v) FROM (" + p + ") a JOIN (" + p + ") b ON b.m <= a.m GROUP BY a.m ORDER BY a.m");
        // Trailing three months by calendar: b within the two months before a, whether or not they had rows.
        String within = engine.equals("postgresql") ? "b.m > a.m - INTERVAL '3 months'" : "b.m > a.m - INTERVAL 3 MONTH";
        assertSame(f, request("trailing_3m_revenue", List.of(), List.of(), "month"),
                "SELECT a.m, SUM(b.v) FROM (" + p + ") a JOIN (" + p + ") b ON b.m <= a.m AND " + within + " GROUP BY a.m ORDER BY a.m");
        assertSame(f, request("revenue_qtd", List.of(), List.of(), "month"),
                "SELECT a.m, SUM(b.v) FROM (" + p + ") a JOIN (" + p + ") b ON b.m <= a.m AND " + f.quarter("b.m") + " = "
                        + f.quarter("a.m") + " GROUP BY a.m ORDER BY a.m");
        // A date filter picks the buckets shown; the total still runs from the first payment.
        assertSame(f, request("running_revenue", List.of(), List.of(new Filter("payment.attempted_on", FilterOp.GTE, "2025-07-01")), "month"),
                "SELECT a.m, SUM(b.v) FROM (" + p + ") a JOIN (" + p + ") b ON b.m <= a.m WHERE a.m >= '2025-07-01' GROUP BY a.m ORDER BY a.m");
        MetricCompiler compiler = new MetricCompiler(f.catalog(), f.model());
        CompileException noGrain = assertThrows(CompileException.class, () -> compiler.compile(
                request("trailing_3m_revenue", List.of(), List.of(), null), new QueryExecutor(SourceUrl.parse(f.url()),
                        ExecutorSettings.defaults()).dialect()));
        assertEquals(Map.of("time_grain", "month"), noGrain.suggestedArgs());
        CompileException byWeek = assertThrows(CompileException.class, () -> compiler.compile(
                request("trailing_3m_revenue", List.of(), List.of(), "week"), new QueryExecutor(SourceUrl.parse(f.url()),
                        ExecutorSettings.defaults()).dialect()));
        assertEquals(ErrorKind.GRAIN_MISMATCH, byWeek.problem());
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb"})
    void aSnapshotMeasureIsTheLastSnapshotOfEachBucketNeverASum(String engine) throws Exception {
        Fixture f = fixture(engine);
        // By quarter: the rows dated the quarter's last snapshot day, summed over accounts.
        String last = "SELECT " + f.quarter("s.snapshot_on") + " AS q, MAX(s.snapshot_on) AS d FROM " + f.t("mrr_snapshots") + " s"
                + " GROUP BY " + f.quarter("s.snapshot_on");
        assertSame(f, new MetricRequest("mrr", List.of(), List.of(), "quarter", null, List.of(), List.of(), 100, List.of(), false),
                "SELECT l.q, SUM(s.mrr_cents) FROM " + f.t("mrr_snapshots") + " s JOIN (" + last + ") l ON s.snapshot_on = l.d"
                        + " GROUP BY l.q ORDER BY l.q");
        List<List<String>> summed = rows(f, "SELECT " + f.quarter("snapshot_on") + ", SUM(mrr_cents) FROM " + f.t("mrr_snapshots")
                + " GROUP BY " + f.quarter("snapshot_on") + " ORDER BY 1");
        List<List<String>> ours = rows(f, "SELECT l.q, SUM(s.mrr_cents) FROM " + f.t("mrr_snapshots") + " s JOIN (" + last
                + ") l ON s.snapshot_on = l.d GROUP BY l.q ORDER BY l.q");
        assertNotEquals(summed, ours, "three months summed are not the quarter's MRR");
        // No grain: the last snapshot of all.
        assertSame(f, new MetricRequest("mrr", List.of(), List.of(), null, null, List.of(), List.of(), 100, List.of(), false),
                "SELECT SUM(s.mrr_cents) FROM " + f.t("mrr_snapshots") + " s WHERE s.snapshot_on = (SELECT MAX(snapshot_on) FROM "
                        + f.t("mrr_snapshots") + ")");
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb"})
    void caseMeasuresColumnComparisonsAndAParentsColumn(String engine) throws Exception {
        Fixture f = fixture(engine);
        assertSame(f, request("live_subscriptions", List.of(), List.of(), "quarter"),
                "SELECT " + f.quarter("started_on") + ", SUM(CASE WHEN status IN ('active', 'past_due') THEN 1 ELSE 0 END) FROM "
                        + f.t("subscriptions") + " GROUP BY 1 ORDER BY 1");
        assertSame(f, request("late_invoices", List.of(), List.of(), "month"),
                "SELECT " + f.month("i.issued_on") + ", COUNT(*) FROM " + f.t("invoices") + " i JOIN " + f.t("accounts")
                        + " a ON a.account_id = i.account_id WHERE " + f.notTest() + " AND a.deleted_at IS NULL AND i.paid_on > i.due_on"
                        + " GROUP BY 1 ORDER BY 1");
        assertSame(f, request("invoiced_usd", List.of("invoice.currency"), List.of(), null),
                "SELECT i.currency, SUM(i.amount_cents * x.usd_per_unit) FROM " + f.t("invoices") + " i JOIN " + f.t("fx_rates")
                        + " x ON x.currency = i.currency AND x.month = i.fx_month JOIN " + f.t("accounts") + " a ON a.account_id = i.account_id"
                        + " WHERE " + f.notTest() + " AND a.deleted_at IS NULL GROUP BY i.currency ORDER BY i.currency");
        // A caller's filter may compare two columns too.
        assertSame(f, request("invoice_total", List.of(), List.of(Filter.columns("invoice.paid_on", FilterOp.LTE, "invoice.due_on")), null),
                "SELECT SUM(i.amount_cents) FROM " + f.t("invoices") + " i JOIN " + f.t("accounts") + " a ON a.account_id = i.account_id"
                        + " WHERE " + f.notTest() + " AND a.deleted_at IS NULL AND i.paid_on <= i.due_on");
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb"})
    void invoiceTotalsByCategoryCountEachInvoiceOnceWhereTheNaiveJoinInflates(String engine) throws Exception {
        Fixture f = fixture(engine);
        String from = " FROM " + f.t("invoices") + " i JOIN " + f.t("accounts") + " a ON a.account_id = i.account_id JOIN "
                + f.t("invoice_lines") + " l ON l.invoice_id = i.invoice_id WHERE " + f.notTest() + " AND a.deleted_at IS NULL";
        CompiledMetric m = assertSame(f, request("invoice_total", List.of("invoice_line.category"), List.of(), null),
                "SELECT x.category, SUM(x.amount_cents) FROM (SELECT DISTINCT l.category, i.invoice_id, i.amount_cents" + from
                        + ") x GROUP BY x.category ORDER BY x.category");
        assertTrue(m.degradation().isEmpty(), "the right number, not a flagged one");
        assertNotEquals(rows(f, "SELECT l.category, SUM(i.amount_cents)" + from + " GROUP BY l.category ORDER BY l.category"),
                rows(f, "SELECT x.category, SUM(x.amount_cents) FROM (SELECT DISTINCT l.category, i.invoice_id, i.amount_cents" + from
                        + ") x GROUP BY x.category ORDER BY x.category"), "the naive join inflates the totals");
    }

    @Test
    void aHostileCallersSegmentsAndColumnComparisonsNeverReachTheSql() throws Exception {
        Fixture f = fixture("postgresql");
        MetricCompiler compiler = new MetricCompiler(f.catalog(), f.model());
        Dialect pg = new QueryExecutor(SourceUrl.parse(f.url()), ExecutorSettings.defaults()).dialect();
        for (String hostile : List.of("real'; DROP TABLE rev.accounts; --", "account.real OR 1=1", "x\"; SELECT 1; --")) {
            CompileException e = assertThrows(CompileException.class, () -> compiler.compile(new MetricRequest("invoice_total",
                    List.of(), List.of(), null, null, List.of(), List.of(), 10, List.of(hostile), true), pg));
            assertEquals(ErrorKind.INVALID_ARGUMENT, e.problem());
            CompileException c = assertThrows(CompileException.class, () -> compiler.compile(request("invoice_total", List.of(),
                    List.of(Filter.columns("invoice.paid_on", FilterOp.GT, hostile)), null), pg));
            assertEquals(ErrorKind.UNKNOWN_FILTER_COLUMN, c.problem());
        }
        // Opting out of the default segment is the caller's to choose, and the numbers say which rows they are.
        CompiledMetric all = compiler.compile(new MetricRequest("invoice_total", List.of(), List.of(), null, null, List.of(),
                List.of(), 10, List.of(), false), pg);
        assertFalse(all.sql().contains("is_test"), all.sql());
    }

    @Test
    void everyNewTypeRoundTripsThroughExportApplyDiffAndTheStore() throws Exception {
        Fixture f = fixture("postgresql");
        Path out = dir.resolve("exported");
        SemanticProject.write(out, f.model());
        SemanticProject.Loaded back = SemanticProject.read(out);
        assertEquals(f.model(), back.model(), "export, then read as apply reads");
        assertEquals(List.of(), SemanticProject.diff(f.model(), back.model()), "diff sees nothing to change");
        Path store = dir.resolve("roundtrip.db");
        try (SqliteStore st = SqliteStore.openOrCreate(store)) {
            st.write(c -> {
                SemanticModel m = f.model();
                SemanticLayer.replace(c, m);
                return null;
            });
            assertEquals(f.model(), st.read(SemanticLayer::stored), "kept in the store as JSON and read back");
        }
        // Each type is there to be compared.
        for (String type : List.of("ratio", "derived", "cumulative")) {
            assertTrue(f.model().metrics().stream().anyMatch(m -> m.kind().wireName().equals(type)), type);
        }
        assertTrue(f.model().metrics().stream().anyMatch(m -> m.isSimple() && m.measure().nonAdditive() != null));
        assertTrue(f.model().entities().stream().anyMatch(e -> !e.segments().isEmpty()));
    }

    @Test
    void aMetricThatRefersBackToItselfIsRefusedAtApplyNotAtTheFirstCall() throws Exception {
        Fixture f = fixture("postgresql");
        Path project = dir.resolve("cycle");
        for (Map.Entry<String, String> file : project("rev").entrySet()) {
            Path p = project.resolve(file.getKey());
            Files.createDirectories(p.getParent());
            Files.writeString(p, file.getValue());
        }
        Files.writeString(project.resolve("metrics/loop_a.yaml"), "version: 1\nname: loop_a\ntype: derived\nentity: payment\n"
                + "expression: loop_b + 1\n");
        Files.writeString(project.resolve("metrics/loop_b.yaml"), "version: 1\nname: loop_b\ntype: ratio\nentity: payment\n"
                + "numerator: loop_a\ndenominator: payment_attempts\n");
        Files.writeString(project.resolve("metrics/over_avg.yaml"), "version: 1\nname: over_avg\ntype: cumulative\nentity: payment\n"
                + "metric: mrr\n");
        SemanticProject.Loaded loaded = SemanticProject.read(project);
        List<String> problems = SemanticProject.check(loaded.model(), f.catalog(), loaded);
        assertTrue(problems.stream().anyMatch(p -> p.contains("loop_a.yaml") && p.contains("refer back to themselves")), problems.toString());
        assertTrue(problems.stream().anyMatch(p -> p.contains("over_avg.yaml") && p.contains("not a simple sum or count")), problems.toString());
    }
}
