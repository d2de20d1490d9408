package dev.schemabrain.semantic;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.semantic.SemanticV2AcceptanceTest.Fixture;
import dev.schemabrain.semantic.compile.MetricCompiler;
import dev.schemabrain.semantic.compile.MetricRequest;
import dev.schemabrain.semantic.model.Filter;
import dev.schemabrain.semantic.model.FilterOp;
import dev.schemabrain.semantic.model.Join;
import dev.schemabrain.semantic.model.Metric;
import dev.schemabrain.semantic.model.MetricKind;
import dev.schemabrain.semantic.model.NonAdditive;
import dev.schemabrain.semantic.model.TimeGrain;
import dev.schemabrain.semantic.project.DbtManifest;
import dev.schemabrain.engine.IntrospectionOptions;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.source.Sources;
import dev.schemabrain.testing.InProcessCli;
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
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import static dev.schemabrain.semantic.SemanticV2AcceptanceTest.assertSame;
import static dev.schemabrain.semantic.SemanticV2AcceptanceTest.request;
import static dev.schemabrain.semantic.SemanticV2AcceptanceTest.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code schemabrain import dbt} on a MetricFlow project written for this test (src/test/resources/dbt/
 * metricflow-ledger-manifest.json, manifest v12) over a billing schema that is not in the repository: workspaces (two
 * internal, one archived), subscriptions (some tied to no workspace), invoices in USD, EUR and GBP (some soft-deleted),
 * card charges with failed attempts, refunds and monthly MRR snapshots with gaps. Every metric type imports, and each
 * imported metric's answer equals hand-written SQL on PostgreSQL and on MariaDB; what has no counterpart is skipped
 * with its reason, never imported loosely.
 */
class DbtMetricFlowImportTest {

    @TempDir
    static Path dir;
    static String maria;
    static final Map<String, DbtManifest.Result> IMPORTS = new HashMap<>();
    static final Map<String, Fixture> FIXTURES = new HashMap<>();

    /** What the manifest holds that SchemaBrain has no exact counterpart for, and a word of each reason. */
    static final Map<String, String> EXPECTED_SKIPS = Map.of(
            "median_invoice", "median",
            "collected_growth", "offset",
            "collected_first_day", "period_agg is first",
            "trial_to_paid", "conversion metrics",
            "eu_or_us_revenue", "OR",
            "invoiced_since_mid_february", "truncated to month");

    @BeforeAll
    static void create() throws Exception {
        TestPostgres.createDatabase("sb_dbt_ledger", ddl("postgresql").toArray(String[]::new));
        maria = TestMariaDb.create("sb_ledger", ddl("mariadb").toArray(String[]::new));
    }

    @AfterAll
    static void drop() throws Exception {
        TestMariaDb.drop(maria);
    }

    static List<String> ddl(String engine) {
        boolean pg = engine.equals("postgresql");
        String s = pg ? "ledger." : "";
        List<String> out = new ArrayList<>();
        if (pg) {
            out.add("CREATE SCHEMA ledger");
        }
        out.add("CREATE TABLE " + s + "workspaces (workspace_id INT PRIMARY KEY, name VARCHAR(60) NOT NULL, plan VARCHAR(12) NOT NULL,"
                + " region VARCHAR(8) NOT NULL, is_internal " + (pg ? "BOOLEAN" : "TINYINT(1)") + " NOT NULL, archived_at TIMESTAMP NULL,"
                + " created_on DATE NOT NULL)");
        // No foreign keys: the joins must come from the manifest.
        out.add("CREATE TABLE " + s + "subscriptions (subscription_id INT PRIMARY KEY, workspace_id INT NULL, status VARCHAR(12) NOT NULL,"
                + " seats INT NOT NULL, started_on DATE NOT NULL, ended_on DATE NULL)");
        out.add("CREATE TABLE " + s + "invoices (invoice_id INT PRIMARY KEY, workspace_id INT NOT NULL, currency CHAR(3) NOT NULL,"
                + " total_minor BIGINT NOT NULL, state VARCHAR(14) NOT NULL, issued_at TIMESTAMP NOT NULL, due_on DATE NOT NULL,"
                + " settled_on DATE NULL, deleted_at TIMESTAMP NULL)");
        out.add("CREATE TABLE " + s + "charges (charge_id INT PRIMARY KEY, invoice_id INT NOT NULL, outcome VARCHAR(10) NOT NULL,"
                + " amount_minor BIGINT NOT NULL, attempted_on DATE NOT NULL, failure_code VARCHAR(20) NULL)");
        out.add("CREATE TABLE " + s + "refunds (refund_id INT PRIMARY KEY, charge_id INT NOT NULL, amount_minor BIGINT NOT NULL,"
                + " state VARCHAR(10) NOT NULL, created_on DATE NOT NULL)");
        out.add("CREATE TABLE " + s + "mrr_snapshots (snapshot_id INT PRIMARY KEY, workspace_id INT NOT NULL, snapshot_month DATE NOT NULL,"
                + " mrr_minor BIGINT NOT NULL)");

        String[] plans = {"free", "team", "business"};
        String[] regions = {"eu", "us", "apac"};
        List<String> rows = new ArrayList<>();
        for (int w = 1; w <= 10; w++) {
            boolean internal = w == 3 || w == 8;
            rows.add("(" + w + ", 'Workspace " + w + "', '" + plans[w % 3] + "', '" + regions[(w * 2) % 3] + "', "
                    + (internal ? (pg ? "TRUE" : "1") : (pg ? "FALSE" : "0")) + ", " + (w == 6 ? "'2025-09-30 18:00:00'" : "NULL")
                    + ", '" + LocalDate.of(2024, 12, 1).plusDays(w * 11L) + "')");
        }
        out.add("INSERT INTO " + s + "workspaces VALUES " + String.join(", ", rows));
        rows.clear();
        String[] statuses = {"active", "past_due", "canceled", "trialing"};
        for (int i = 1; i <= 16; i++) {
            LocalDate start = LocalDate.of(2025, 1, 5).plusDays(i * 17L);
            rows.add("(" + i + ", " + (i % 7 == 0 ? "NULL" : String.valueOf((i - 1) % 10 + 1)) + ", '" + statuses[i % 4] + "', "
                    + (1 + i % 5 * 3) + ", '" + start + "', " + (i % 4 == 2 ? "'" + start.plusDays(90) + "'" : "NULL") + ")");
        }
        out.add("INSERT INTO " + s + "subscriptions VALUES " + String.join(", ", rows));
        rows.clear();
        String[] currencies = {"USD", "EUR", "GBP"};
        String[] states = {"paid", "paid", "open", "void", "paid", "uncollectible"};
        String[] codes = {"card_declined", "insufficient_funds", "expired_card"};
        List<String> charges = new ArrayList<>();
        List<String> refunds = new ArrayList<>();
        int charge = 1;
        int refund = 1;
        for (int i = 1; i <= 48; i++) {
            LocalDate issued = LocalDate.of(2025, 1, 3).plusDays(i * 7L + i % 3);
            String state = states[i % states.length];
            long total = 2_000 + (i * 3_371L) % 25_000;
            LocalDate due = issued.plusDays(14);
            String settled = state.equals("paid") ? "'" + due.plusDays(i % 7 - 3) + "'" : "NULL";
            rows.add("(" + i + ", " + (i * 3 % 10 + 1) + ", '" + currencies[i % 3] + "', " + total + ", '" + state + "', '" + issued
                    + " " + String.format("%02d", 8 + i % 12) + ":15:00', '" + due + "', " + settled + ", "
                    + (i % 13 == 0 ? "'2025-12-01 09:00:00'" : "NULL") + ")");
            if (state.equals("void")) {
                continue;
            }
            int attempts = i % 4 == 0 ? 3 : i % 3 == 0 ? 2 : 1;
            for (int t = 0; t < attempts; t++) {
                boolean succeeded = t == attempts - 1 && state.equals("paid");
                charges.add("(" + charge + ", " + i + ", '" + (succeeded ? "succeeded" : "failed") + "', " + total + ", '"
                        + issued.plusDays(3 + t * 4L) + "', " + (succeeded ? "NULL" : "'" + codes[(i + t) % 3] + "'") + ")");
                if (succeeded && i % 5 == 1) {
                    refunds.add("(" + refund + ", " + charge + ", " + total / 3 + ", '" + (refund % 3 == 0 ? "pending" : "succeeded")
                            + "', '" + issued.plusDays(45) + "')");
                    refund++;
                }
                charge++;
            }
        }
        out.add("INSERT INTO " + s + "invoices VALUES " + String.join(", ", rows));
        out.add("INSERT INTO " + s + "charges VALUES " + String.join(", ", charges));
        out.add("INSERT INTO " + s + "refunds VALUES " + String.join(", ", refunds));
        rows.clear();
        int snapshot = 1;
        for (int w = 1; w <= 10; w++) {
            for (int m = 0; m < 12; m++) {
                if ((w + m) % 4 == 0) {
                    continue;   // no snapshot this month: that workspace's quarter ends on an earlier one
                }
                rows.add("(" + snapshot++ + ", " + w + ", '" + LocalDate.of(2025, 1, 1).plusMonths(m) + "', " + (1_000L * w + 300L * m) + ")");
            }
        }
        out.add("INSERT INTO " + s + "mrr_snapshots VALUES " + String.join(", ", rows));
        return out;
    }

    static synchronized Fixture fixture(String engine) throws Exception {
        Fixture known = FIXTURES.get(engine);
        if (known != null) {
            return known;
        }
        boolean pg = engine.equals("postgresql");
        String url = pg ? TestPostgres.url("sb_dbt_ledger") : TestMariaDb.url(maria);
        String schema = pg ? "ledger" : maria;
        Catalog catalog;
        try (SchemaSource s = Sources.open(SourceUrl.parse(url))) {
            catalog = s.introspect(IntrospectionOptions.withoutSamples());
        }
        String manifest = Files.readString(Path.of(DbtMetricFlowImportTest.class.getResource("/dbt/metricflow-ledger-manifest.json").toURI()));
        Path file = dir.resolve(engine + "-manifest.json");
        Files.writeString(file, manifest.replace("SCHEMA", schema));
        DbtManifest.Result result = DbtManifest.read(file, catalog);
        IMPORTS.put(engine, result);
        Fixture f = new Fixture(engine, url, catalog, result.model(), schema);
        FIXTURES.put(engine, f);
        return f;
    }

    static Metric metric(Fixture f, String name) {
        return f.model().metric(name).orElseThrow(() -> new AssertionError(name + " was not imported: " + IMPORTS.get(f.engine()).skipped()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb"})
    void everythingWithACounterpartImportsAndTheRestIsSkippedWithItsReason(String engine) throws Exception {
        Fixture f = fixture(engine);
        DbtManifest.Result result = IMPORTS.get(engine);
        Map<String, String> skipped = new TreeMap<>();
        for (String line : result.skipped()) {
            assertTrue(line.startsWith("metric "), "only the metrics without a counterpart are skipped: " + line);
            skipped.put(line.substring(7, line.indexOf(':')), line);
        }
        assertEquals(new TreeSet<>(EXPECTED_SKIPS.keySet()), skipped.keySet(), result.skipped().toString());
        EXPECTED_SKIPS.forEach((name, word) -> assertTrue(skipped.get(name).contains(word), skipped.get(name)));
        assertEquals(1, skipped.get("trial_to_paid").lines().count(), "one line per skip");

        assertEquals(List.of("charge", "invoice", "mrr_snapshot", "refund", "subscription", "workspace"),
                f.model().entities().stream().map(e -> e.name()).toList(), "the semantic models' primary entities name the entities");
        assertEquals(List.of("charge_invoice", "invoice_workspace", "mrr_snapshot_workspace", "refund_charge", "subscription_workspace"),
                f.model().joins().stream().map(Join::name).toList(), "foreign entities join; the relationships test's join is not doubled");
        assertEquals(Set.of("invoiced_revenue", "invoiced_usd", "open_invoices", "late_invoices", "charge_attempts",
                        "failed_charge_attempts", "distinct_failure_codes", "charge_success_rate", "charge_attempts_for_charge_success_rate",
                        "collected", "refunded", "net_collected", "collected_to_date", "trailing_3m_charged", "charged_minor",
                        "collected_qtd", "mrr", "opening_mrr", "seats_sold", "live_subscriptions", "workspace_signups"),
                new TreeSet<>(f.model().metrics().stream().map(Metric::name).toList()), "each has its hand-SQL check below");
        MetricCompiler compiler = new MetricCompiler(f.catalog(), f.model());
        for (Metric m : f.model().metrics()) {
            assertEquals(Optional.empty(), compiler.check(m), m.name());
        }
        assertEquals(List.of(
                "metric charge_success_rate: its numerator charge_attempts's filter is carried by the new simple metric"
                        + " charge_attempts_for_charge_success_rate",
                "metric trailing_3m_charged: it runs over the new simple metric charged_minor (its measure charged_minor)"), result.notes());
    }

    @Test
    void theImportedDefinitionsSayWhatTheManifestSays() throws Exception {
        Fixture f = fixture("postgresql");
        Metric mrr = metric(f, "mrr");
        assertEquals(new NonAdditive("snapshot_month", NonAdditive.Window.LAST, List.of("workspace_id")), mrr.measure().nonAdditive(),
                "non_additive_dimension: window_choice max is the last snapshot, per workspace");
        assertEquals(NonAdditive.Window.FIRST, metric(f, "opening_mrr").measure().nonAdditive().window());
        assertEquals("invoice.issued_at", metric(f, "invoiced_revenue").timeDimension(), "the default agg_time_dimension's column");
        assertEquals(List.of(new Filter("invoice.state", FilterOp.EQ, "paid"), new Filter("invoice.deleted_at", FilterOp.IS_NULL, null),
                new Filter("workspace.is_internal", FilterOp.EQ, false)), metric(f, "invoiced_revenue").filters());
        assertEquals(List.of(Filter.columns("invoice.settled_on", FilterOp.GT, "invoice.due_on")), metric(f, "late_invoices").filters());
        assertEquals(new MetricKind.Ratio("charge_attempts_for_charge_success_rate", "charge_attempts"), metric(f, "charge_success_rate").kind());
        assertEquals(new MetricKind.Derived("collected - refunded"), metric(f, "net_collected").kind(), "the alias is written as its metric");
        assertEquals(new MetricKind.Cumulative("collected", null, null, null), metric(f, "collected_to_date").kind(),
                "the simple metric over the same measure and filter is reused");
        assertEquals(new MetricKind.Cumulative("charged_minor", 3, TimeGrain.MONTH, null),
                metric(f, "trailing_3m_charged").kind());
        assertEquals("CASE WHEN outcome = 'failed' THEN 1 ELSE 0 END", metric(f, "failed_charge_attempts").measure().expression());
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb"})
    void simpleMetricsWithTheirFiltersEqualHandSql(String engine) throws Exception {
        Fixture f = fixture(engine);
        String inv = f.t("invoices");
        assertSame(f, request("invoiced_revenue", List.of(), List.of(), "month"),
                "SELECT " + f.month("i.issued_at") + ", SUM(i.total_minor) FROM " + inv + " i JOIN " + f.t("workspaces")
                        + " w ON w.workspace_id = i.workspace_id WHERE i.state = 'paid' AND i.deleted_at IS NULL AND w.is_internal = false"
                        + " GROUP BY 1 ORDER BY 1");
        assertSame(f, request("invoiced_usd", List.of("invoice.currency"), List.of(), null),
                "SELECT currency, SUM(CASE WHEN currency = 'USD' THEN total_minor WHEN currency = 'EUR' THEN total_minor * 1.08"
                        + " ELSE total_minor * 1.27 END) FROM " + inv + " WHERE issued_at >= '2025-02-01' GROUP BY currency ORDER BY currency");
        assertSame(f, request("open_invoices", List.of("workspace.plan"), List.of(), null),
                "SELECT w.plan, COUNT(*) FROM " + inv + " i JOIN " + f.t("workspaces") + " w ON w.workspace_id = i.workspace_id"
                        + " WHERE i.state IN ('open', 'uncollectible') GROUP BY w.plan ORDER BY w.plan");
        assertSame(f, request("late_invoices", List.of(), List.of(), "quarter"),
                "SELECT " + f.quarter("issued_at") + ", COUNT(*) FROM " + inv + " WHERE settled_on > due_on GROUP BY 1 ORDER BY 1");
        String ch = f.t("charges");
        assertSame(f, request("charge_attempts", List.of(), List.of(), "month"),
                "SELECT " + f.month("attempted_on") + ", COUNT(*) FROM " + ch + " GROUP BY 1 ORDER BY 1");
        assertSame(f, request("failed_charge_attempts", List.of(), List.of(), "month"),
                "SELECT " + f.month("attempted_on") + ", SUM(CASE WHEN outcome = 'failed' THEN 1 ELSE 0 END) FROM " + ch + " GROUP BY 1 ORDER BY 1");
        assertSame(f, request("distinct_failure_codes", List.of(), List.of(), null),
                "SELECT COUNT(DISTINCT failure_code) FROM " + ch);
        assertSame(f, request("collected", List.of("workspace.plan"), List.of(), null),
                "SELECT w.plan, SUM(c.amount_minor) FROM " + ch + " c JOIN " + inv + " i ON i.invoice_id = c.invoice_id JOIN "
                        + f.t("workspaces") + " w ON w.workspace_id = i.workspace_id WHERE c.outcome = 'succeeded' GROUP BY w.plan ORDER BY w.plan");
        assertSame(f, request("refunded", List.of(), List.of(), "month"),
                "SELECT " + f.month("created_on") + ", SUM(amount_minor) FROM " + f.t("refunds") + " WHERE state = 'succeeded' GROUP BY 1 ORDER BY 1");
        assertSame(f, request("live_subscriptions", List.of(), List.of(), "quarter"),
                "SELECT " + f.quarter("started_on") + ", SUM(CASE WHEN status IN ('active', 'past_due') THEN 1 ELSE 0 END) FROM "
                        + f.t("subscriptions") + " GROUP BY 1 ORDER BY 1");
        assertSame(f, request("workspace_signups", List.of(), List.of(), "month"),
                "SELECT " + f.month("created_on") + ", COUNT(workspace_id) FROM " + f.t("workspaces") + " GROUP BY 1 ORDER BY 1");
        // Entity('workspace') is not null: subscriptions tied to no workspace are left out, and there are some.
        String seats = "SELECT SUM(seats) FROM " + f.t("subscriptions") + " WHERE workspace_id IS NOT NULL";
        assertSame(f, request("seats_sold", List.of(), List.of(), null), seats);
        assertNotEquals(rows(f, seats), rows(f, "SELECT SUM(seats) FROM " + f.t("subscriptions")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb"})
    void ratioDerivedAndCumulativeMetricsEqualHandSql(String engine) throws Exception {
        Fixture f = fixture(engine);
        String ch = f.t("charges");
        String byMonth = "SELECT " + f.month("attempted_on") + " AS m, SUM(CASE WHEN outcome = 'succeeded' THEN 1 ELSE 0 END) AS s,"
                + " COUNT(*) AS n FROM " + ch + " GROUP BY " + f.month("attempted_on");
        assertSame(f, request("charge_success_rate", List.of(), List.of(), "month"),
                "SELECT x.m, x.s * 1.0 / x.n FROM (" + byMonth + ") x ORDER BY x.m");
        String collected = "SELECT " + f.month("attempted_on") + " AS m, SUM(amount_minor) AS v FROM " + ch + " WHERE outcome = 'succeeded'"
                + " GROUP BY " + f.month("attempted_on");
        String refunded = "SELECT " + f.month("created_on") + " AS m, SUM(amount_minor) AS v FROM " + f.t("refunds")
                + " WHERE state = 'succeeded' GROUP BY " + f.month("created_on");
        assertSame(f, request("net_collected", List.of(), List.of(), "month"),
                "WITH p AS (" + collected + "), r AS (" + refunded + ") SELECT k.m, COALESCE(p.v, 0) - COALESCE(r.v, 0)"
                        + " FROM (SELECT m FROM p UNION SELECT m FROM r) k LEFT JOIN p ON p.m = k.m LEFT JOIN r ON r.m = k.m ORDER BY k.m");
        assertSame(f, request("collected_to_date", List.of(), List.of(), "month"),
                "SELECT a.m, SUM(b.v) FROM (" + collected + ") a JOIN (" + collected + ") b ON b.m <= a.m GROUP BY a.m ORDER BY a.m");
        assertSame(f, request("collected_qtd", List.of(), List.of(), "month"),
                "SELECT a.m, SUM(b.v) FROM (" + collected + ") a JOIN (" + collected + ") b ON b.m <= a.m AND " + f.quarter("b.m")
                        + " = " + f.quarter("a.m") + " GROUP BY a.m ORDER BY a.m");
        String charged = "SELECT " + f.month("attempted_on") + " AS m, SUM(amount_minor) AS v FROM " + ch + " GROUP BY " + f.month("attempted_on");
        String within = engine.equals("postgresql") ? "b.m > a.m - INTERVAL '3 months'" : "b.m > a.m - INTERVAL 3 MONTH";
        assertSame(f, request("trailing_3m_charged", List.of(), List.of(), "month"),
                "SELECT a.m, SUM(b.v) FROM (" + charged + ") a JOIN (" + charged + ") b ON b.m <= a.m AND " + within
                        + " GROUP BY a.m ORDER BY a.m");
    }

    /** The adversarial case: MetricFlow's non_additive_dimension must not come out as a plain sum. */
    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb"})
    void aNonAdditiveMeasureIsEachWorkspacesLastSnapshotOfTheQuarterNeverASum(String engine) throws Exception {
        Fixture f = fixture(engine);
        String snaps = f.t("mrr_snapshots");
        String last = "SELECT workspace_id, " + f.quarter("snapshot_month") + " AS q, MAX(snapshot_month) AS d FROM " + snaps
                + " GROUP BY workspace_id, " + f.quarter("snapshot_month");
        String perWorkspace = "SELECT l.q, SUM(s.mrr_minor) FROM " + snaps + " s JOIN (" + last + ") l ON s.workspace_id = l.workspace_id"
                + " AND s.snapshot_month = l.d GROUP BY l.q ORDER BY l.q";
        assertSame(f, request("mrr", List.of(), List.of(), "quarter"), perWorkspace);
        List<List<String>> summed = rows(f, "SELECT " + f.quarter("snapshot_month") + ", SUM(mrr_minor) FROM " + snaps + " GROUP BY 1 ORDER BY 1");
        assertNotEquals(summed, rows(f, perWorkspace), "three months summed are not the quarter's MRR");
        String lastDayOnly = "SELECT l.q, SUM(s.mrr_minor) FROM " + snaps + " s JOIN (SELECT " + f.quarter("snapshot_month") + " AS q,"
                + " MAX(snapshot_month) AS d FROM " + snaps + " GROUP BY 1) l ON s.snapshot_month = l.d GROUP BY l.q ORDER BY l.q";
        assertNotEquals(rows(f, lastDayOnly), rows(f, perWorkspace), "window_groupings matter: a workspace without a snapshot in"
                + " the quarter's last month still counts its latest one");
        // window_choice min, no groupings: the rows of the quarter's first snapshot month.
        assertSame(f, request("opening_mrr", List.of(), List.of(), "quarter"),
                "SELECT l.q, SUM(s.mrr_minor) FROM " + snaps + " s JOIN (SELECT " + f.quarter("snapshot_month") + " AS q,"
                        + " MIN(snapshot_month) AS d FROM " + snaps + " GROUP BY 1) l ON s.snapshot_month = l.d GROUP BY l.q ORDER BY l.q");
    }

    @Test
    void theCommandPrintsWhatItMadeAndWhatItSkipped() throws Exception {
        Fixture f = fixture("postgresql");
        String store = dir.resolve("cli.db").toString();
        InProcessCli.Result indexed = InProcessCli.run("index", "--source", f.url(), "--store", store);
        assertEquals(0, indexed.exitCode(), indexed.stderr());
        InProcessCli.Result imported = InProcessCli.run("import", "dbt", dir.resolve("postgresql-manifest.json").toString(), "--store", store);
        assertEquals(0, imported.exitCode(), imported.stderr());
        assertTrue(imported.stdout().contains("6 entities, 5 joins, 21 metrics"), imported.stdout());
        assertTrue(imported.stdout().contains("  note: metric charge_success_rate: its numerator charge_attempts's filter is carried"
                + " by the new simple metric charge_attempts_for_charge_success_rate"), imported.stdout());
        assertTrue(imported.stdout().contains("  skipped metric trial_to_paid: conversion metrics"), imported.stdout());
        InProcessCli.Result listed = InProcessCli.run("metrics", "list", "--store", store);
        assertTrue(listed.stdout().contains("net_collected") && listed.stdout().contains("trailing_3m_charged"), listed.stdout());
        assertFalse(listed.stdout().contains("eu_or_us_revenue"), listed.stdout());
    }

    /** The other adversarial case: a filter the importer cannot express is a skip, never a metric without its filter. */
    @Test
    void aFilterThatCannotBeExpressedIsASkipNeverADroppedFilter() throws Exception {
        Fixture f = fixture("postgresql");
        for (String name : List.of("eu_or_us_revenue", "invoiced_since_mid_february")) {
            assertTrue(f.model().metric(name).isEmpty(), name + " must not be imported without its filter");
        }
        String or = IMPORTS.get("postgresql").skipped().stream().filter(s -> s.startsWith("metric eu_or_us_revenue:")).findFirst().orElseThrow();
        assertEquals("metric eu_or_us_revenue: its filter \"{{ Dimension('workspace__region') }} = 'eu' or"
                + " {{ Dimension('workspace__region') }} = 'us'\" combines conditions with OR, which SchemaBrain filters (all of which"
                + " must hold) cannot express", or);
    }
}
