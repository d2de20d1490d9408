package dev.schemabrain.semantic;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.semantic.compile.MetricCompiler;
import dev.schemabrain.semantic.compile.MetricRequest;
import dev.schemabrain.semantic.model.Aggregation;
import dev.schemabrain.semantic.model.Filter;
import dev.schemabrain.semantic.model.FilterOp;
import dev.schemabrain.semantic.model.Metric;
import dev.schemabrain.semantic.model.NonAdditive;
import dev.schemabrain.semantic.model.SemanticModel;
import dev.schemabrain.testing.TestMariaDb;
import dev.schemabrain.testing.TestPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * A drafted snapshot measure answers what an analyst means by "balances by month": the sum over accounts of each
 * account's last balance in the month, never the sum of every day's balance. The blind bank schema
 * (src/test/resources/blind-drafts/bank.sql) is created on PostgreSQL and MariaDB with balances that are not all
 * on the same days (an account snapshotted every third day that stops in February, one opened mid-February, one in
 * another currency snapshotted weekly); its drafts are inferred from the live catalog and compared with hand SQL.
 */
class SnapshotDraftsAcceptanceTest {

    static final LocalDate START = LocalDate.of(2026, 1, 1);
    static final String METRIC = "account_balances_ledger_balance_sum";
    static String maria;

    record Bank(String engine, String url, Catalog catalog, SemanticModel model) {
        String month(String column) {
            return engine.equals("postgresql") ? "CAST(date_trunc('month', " + column + ") AS date)"
                    : "CAST(DATE_FORMAT(" + column + ", '%Y-%m-01') AS DATE)";
        }

        String quarter(String column) {
            return engine.equals("postgresql") ? "CAST(date_trunc('quarter', " + column + ") AS date)"
                    : "MAKEDATE(YEAR(" + column + "), 1) + INTERVAL (QUARTER(" + column + ") - 1) QUARTER";
        }

        /**
         * Each account's last balance in each bucket, summed over accounts: per currency, or of the accounts in
         * {@code currency} only (balances in different currencies never add up).
         */
        String lastPerAccount(String bucket, String currency) {
            String b = bucket.replace("COL", "balance_date");
            String last = "SELECT account_id, " + b + " AS p, MAX(balance_date) AS d FROM account_balances GROUP BY account_id, " + b;
            return "SELECT l.p" + (currency == null ? ", a.currency" : "") + ", SUM(x.ledger_balance) FROM account_balances x JOIN ("
                    + last + ") l ON l.account_id = x.account_id AND l.d = x.balance_date JOIN accounts a ON a.account_id = x.account_id"
                    + (currency == null ? " GROUP BY l.p, a.currency ORDER BY l.p, a.currency"
                    : " WHERE a.currency = '" + currency + "' GROUP BY l.p ORDER BY l.p");
        }

        HandWritten.Compiler compiler() {
            return (request, ex) -> new MetricCompiler(catalog, model).compile(request, ex.dialect());
        }
    }

    static Bank postgres;
    static Bank mariadb;

    @BeforeAll
    static void create() throws Exception {
        List<String> sql = statements();
        TestPostgres.createDatabase("sb_snapshot_bank", sql.toArray(String[]::new));
        maria = TestMariaDb.create("sb_snap", sql.toArray(String[]::new));
        postgres = bank("postgresql", TestPostgres.url("sb_snapshot_bank"));
        mariadb = bank("mariadb", TestMariaDb.url(maria));
    }

    @AfterAll
    static void drop() throws Exception {
        TestMariaDb.drop(maria);
    }

    static Bank bank(String engine, String url) throws Exception {
        Catalog catalog = ExpectedMetrics.catalog(url);
        return new Bank(engine, url, catalog, new SemanticInference(n -> null).infer(catalog));
    }

    /** The blind DDL, then the rows. */
    static List<String> statements() throws Exception {
        String ddl = Files.readString(Path.of(SnapshotDraftsAcceptanceTest.class.getResource("/blind-drafts/bank.sql").toURI()))
                .replaceAll("(?m)^--.*$", "");
        List<String> out = new ArrayList<>(Arrays.stream(ddl.split(";")).map(String::strip).filter(s -> !s.isEmpty()).toList());
        out.add("INSERT INTO branches VALUES (1, 'Central', '2020-01-01')");
        out.add("INSERT INTO customers VALUES (1, 'A', 1, '2024-01-01'), (2, 'B', 1, '2024-01-01'), (3, 'C', 1, '2026-02-01'),"
                + " (4, 'D', 1, '2024-01-01')");
        out.add("INSERT INTO accounts VALUES (1, 1, 'current', 'EUR', '2024-01-01', NULL, 500),"
                + " (2, 2, 'savings', 'EUR', '2024-01-01', '2026-02-10', 0), (3, 3, 'current', 'EUR', '2026-02-15', NULL, 0),"
                + " (4, 4, 'current', 'GBP', '2024-01-01', NULL, 100)");
        List<String> rows = new ArrayList<>();
        for (int d = 0; d < 90; d++) {
            String day = "'" + START.plusDays(d) + "'";
            rows.add("(1, " + day + ", " + (1000 + d) + ", " + (990 + d) + ")");
            if (d % 3 == 0 && d < 40) {
                rows.add("(2, " + day + ", " + (500 + 2 * d) + ", " + (500 + 2 * d) + ")");
            }
            if (d >= 45) {
                rows.add("(3, " + day + ", " + (200 + 5 * d) + ", " + (150 + 5 * d) + ")");
            }
            if (d % 7 == 0) {
                rows.add("(4, " + day + ", " + (3000 - d) + ", " + (2900 - d) + ")");
            }
        }
        out.add("INSERT INTO account_balances VALUES " + String.join(", ", rows));
        return out;
    }

    static Bank of(String engine) {
        return engine.equals("postgresql") ? postgres : mariadb;
    }

    static MetricRequest request(List<String> groupBy, String grain) {
        return new MetricRequest(METRIC, groupBy, List.of(), grain, null, List.of(), List.of(), 1000);
    }

    /** The balances of the EUR accounts only. */
    static MetricRequest inEuro(String grain) {
        return new MetricRequest(METRIC, List.of(), List.of(new Filter("accounts.currency", FilterOp.EQ, "EUR")), grain, null,
                List.of(), List.of(), 1000);
    }

    @Test
    void theBalanceIsDraftedAsASumAtEachAccountsLastSnapshotAndStillAsAnAverage() {
        for (Bank b : List.of(postgres, mariadb)) {
            Metric sum = b.model().metric(METRIC).orElseThrow(() -> new AssertionError(b.engine() + ": no " + METRIC + " drafted"));
            assertEquals(Aggregation.SUM, sum.measure().agg());
            assertEquals(new NonAdditive("balance_date", NonAdditive.Window.LAST, List.of("account_id")), sum.measure().nonAdditive(),
                    b.engine());
            assertEquals("account_balances.balance_date", sum.timeDimension());
            assertEquals(Aggregation.AVG, b.model().metric("account_balances_ledger_balance_avg").orElseThrow().measure().agg());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb"})
    void byMonthAndQuarterTheDraftIsEachAccountsLastBalanceSummedNeverEveryDaySummed(String engine) throws Exception {
        Bank b = of(engine);
        String month = b.month("COL");
        HandWritten.assertSameRows(b.url(), b.compiler(), inEuro("month"), b.lastPerAccount(month, "EUR"), HandWritten::canonical);
        HandWritten.assertSameRows(b.url(), b.compiler(), request(List.of("accounts.currency"), "quarter"),
                b.lastPerAccount(b.quarter("COL"), null), HandWritten::canonical);
        HandWritten.assertSameRows(b.url(), b.compiler(), request(List.of("accounts.currency"), "month"),
                b.lastPerAccount(month, null), HandWritten::canonical);

        // The EUR accounts: one snapshotted every third day that stops in February, one opened mid-February.
        List<List<String>> right = HandWritten.rows(b.url(), b.lastPerAccount(month, "EUR"));
        String m = month.replace("COL", "balance_date");
        String euro = " FROM account_balances x JOIN accounts a ON a.account_id = x.account_id WHERE a.currency = 'EUR'";
        assertNotEquals(HandWritten.rows(b.url(), "SELECT " + m + ", SUM(ledger_balance)" + euro + " GROUP BY " + m
                + " ORDER BY 1"), right, "every day's balance summed is not the month's balance");
        assertNotEquals(HandWritten.rows(b.url(), "SELECT " + m + ", SUM(x.ledger_balance)" + euro + " AND x.balance_date"
                + " = (SELECT MAX(y.balance_date) FROM account_balances y WHERE " + m.replace("balance_date", "y.balance_date") + " = "
                + m.replace("balance_date", "x.balance_date") + ") GROUP BY " + m + " ORDER BY 1"), right,
                "the month's last day alone misses an account last snapshotted earlier in the month");
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb"})
    void withoutAGrainItIsEachAccountsLatestBalance(String engine) throws Exception {
        Bank b = of(engine);
        HandWritten.assertSameRows(b.url(), b.compiler(), request(List.of("accounts.currency"), null),
                "SELECT a.currency, SUM(x.ledger_balance) FROM account_balances x JOIN accounts a ON a.account_id = x.account_id"
                        + " WHERE x.balance_date = (SELECT MAX(y.balance_date) FROM account_balances y WHERE y.account_id = x.account_id)"
                        + " GROUP BY a.currency ORDER BY a.currency", HandWritten::canonical);
    }
}
