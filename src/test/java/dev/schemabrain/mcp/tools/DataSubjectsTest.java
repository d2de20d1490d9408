package dev.schemabrain.mcp.tools;

import dev.schemabrain.served.StoreCatalogProvider;
import dev.schemabrain.served.ServedCatalog;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.execute.BoundQuery;
import dev.schemabrain.execute.ExecutorSettings;
import dev.schemabrain.execute.QueryExecutor;
import dev.schemabrain.index.IndexListener;
import dev.schemabrain.index.Indexer;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.pii.SubjectClass;
import dev.schemabrain.pii.SubjectClasses;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.source.Sources;
import dev.schemabrain.testing.InProcessCli;
import dev.schemabrain.testing.TestMariaDb;
import dev.schemabrain.testing.TestPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Data subjects through get_metric with the default K = 5, on a human-resources schema nobody tuned
 * for, on real PostgreSQL and MariaDB: a person two foreign keys away, a payslip's row id, a person key without a
 * foreign key, suppressed groups that must not name anyone, a dry run that must not estimate what it suppresses;
 * and the analyst's side: company-wide totals equal hand-written SQL.
 */
class DataSubjectsTest {

    @TempDir
    static Path dir;
    static final Map<String, Served> SERVED = new HashMap<>();
    static String maria;

    record Served(QueryExecutor executor, ToolRegistry tools, Path store) {
        Envelope call(Object... pairs) {
            Map<String, Object> args = new LinkedHashMap<>();
            for (int i = 0; i < pairs.length; i += 2) {
                args.put((String) pairs[i], pairs[i + 1]);
            }
            return tools.call("get_metric", args);
        }

        List<List<Object>> hand(String sql) throws Exception {
            return executor.execute(new BoundQuery(sql, List.of()), 10_000).rows();
        }
    }

    static final List<String> DDL = List.of(
            "CREATE TABLE department (department_id INT PRIMARY KEY, name VARCHAR(40) NOT NULL)",
            "CREATE TABLE employee (employee_id INT PRIMARY KEY, first_name VARCHAR(40) NOT NULL, last_name VARCHAR(40) NOT NULL,"
                    + " email VARCHAR(80), birth_date DATE, department_id INT REFERENCES department (department_id), hired_on DATE)",
            "CREATE TABLE expense_account (account_id INT PRIMARY KEY, employee_id INT NOT NULL REFERENCES employee (employee_id),"
                    + " label VARCHAR(40))",
            "CREATE TABLE expense_category (category_id INT PRIMARY KEY, name VARCHAR(40) NOT NULL)",
            "CREATE TABLE expense_claim (claim_id INT PRIMARY KEY, account_id INT NOT NULL REFERENCES expense_account (account_id),"
                    + " category_id INT NOT NULL REFERENCES expense_category (category_id), amount DECIMAL(10,2) NOT NULL,"
                    + " claimed_on DATE NOT NULL)",
            "CREATE TABLE payslip (payslip_id INT PRIMARY KEY, employee_id INT NOT NULL REFERENCES employee (employee_id),"
                    + " pay_year INT NOT NULL, pay_month INT NOT NULL, gross_amount DECIMAL(12,2) NOT NULL, paid_on DATE NOT NULL)",
            "CREATE TABLE timesheet (timesheet_id INT PRIMARY KEY, employee_ref INT NOT NULL, work_date DATE NOT NULL,"
                    + " hours_total DECIMAL(5,2) NOT NULL)",
            "CREATE TABLE sick_leave (leave_id INT PRIMARY KEY, employee_id INT NOT NULL REFERENCES employee (employee_id),"
                    + " diagnosis VARCHAR(60) NOT NULL, days INT NOT NULL, started_on DATE NOT NULL, leave_type VARCHAR(10) NOT NULL)");

    static final String[] FIRST = {"Anna", "Ben", "Carla", "David", "Eva", "Farid", "Grace", "Hugo", "Ines", "Jonas"};
    static final String[] LAST = {"Meyer", "Okafor", "Rossi", "Nakamura", "Silva", "Kowalski", "Dubois", "Larsen"};

    /** 40 employees in 4 departments; employee 1 is the chief executive, paid far more than anyone. */
    static List<String> rows() {
        List<String> sql = new ArrayList<>();
        sql.add("INSERT INTO department VALUES (1, 'Executive'), (2, 'Sales'), (3, 'Engineering'), (4, 'Support')");
        sql.add("INSERT INTO expense_category VALUES (1, 'Travel'), (2, 'Meals'), (3, 'Equipment')");
        StringBuilder emp = new StringBuilder("INSERT INTO employee VALUES ");
        StringBuilder acc = new StringBuilder("INSERT INTO expense_account VALUES ");
        StringBuilder claim = new StringBuilder("INSERT INTO expense_claim VALUES ");
        StringBuilder pay = new StringBuilder("INSERT INTO payslip VALUES ");
        StringBuilder time = new StringBuilder("INSERT INTO timesheet VALUES ");
        int claimId = 1;
        int payId = 1;
        int timeId = 1;
        for (int e = 1; e <= 40; e++) {
            String sep = e == 1 ? "" : ", ";
            emp.append(sep).append("(").append(e).append(", '").append(FIRST[e % FIRST.length]).append("', '")
                    .append(LAST[e % LAST.length]).append("', 'p").append(e).append("@example.org', '")
                    .append(1950 + e).append("-0").append(1 + e % 9).append("-1").append(e % 10).append("', ")
                    .append(1 + e % 4).append(", '2015-01-01')");
            acc.append(sep).append("(").append(100 + e).append(", ").append(e).append(", 'card ").append(e).append("')");
            for (int c = 0; c < 6; c++) {
                claim.append(claimId == 1 ? "" : ", ").append("(").append(claimId++).append(", ").append(100 + e).append(", ")
                        .append(1 + c % 3).append(", ").append(10 + e + c).append(".50, '2024-0").append(1 + c).append("-15')");
            }
            for (int m = 1; m <= 12; m++) {
                String gross = e == 1 ? "30000.00" : (4000 + e * 10) + ".00";
                pay.append(payId == 1 ? "" : ", ").append("(").append(payId++).append(", ").append(e).append(", 2024, ")
                        .append(m).append(", ").append(gross).append(", '2024-").append(m < 10 ? "0" : "").append(m).append("-28')");
            }
            for (int d = 1; d <= 10; d++) {
                time.append(timeId == 1 ? "" : ", ").append("(").append(timeId++).append(", ").append(e).append(", '2024-03-")
                        .append(d < 10 ? "0" : "").append(d).append("', ").append(7 + (e + d) % 3).append(".5)");
            }
        }
        sql.add(emp.toString());
        sql.add(acc.toString());
        sql.add(claim.toString());
        sql.add(pay.toString());
        sql.add(time.toString());
        sql.add("INSERT INTO sick_leave VALUES (1, 3, 'influenza', 3, '2024-02-01', 'short'), (2, 5, 'influenza', 2, '2024-02-03', 'short'),"
                + " (3, 7, 'influenza', 4, '2024-02-05', 'short'), (4, 9, 'influenza', 3, '2024-02-07', 'short'),"
                + " (5, 11, 'influenza', 2, '2024-02-09', 'short'), (6, 13, 'influenza', 5, '2024-02-11', 'short'),"
                + " (7, 17, 'depression', 20, '2024-03-01', 'long'), (8, 23, 'depression', 15, '2024-04-01', 'long')");
        return sql;
    }

    @BeforeAll
    static void load() throws Exception {
        List<String> all = new ArrayList<>(DDL);
        all.addAll(rows());
        TestPostgres.createDatabase("sb_subjects_hr", all.toArray(String[]::new));
        maria = TestMariaDb.create("sb_subjects_hr", all.toArray(String[]::new));
    }

    @AfterAll
    static void close() throws Exception {
        SERVED.values().forEach(s -> s.executor().close());
        if (maria != null) {
            TestMariaDb.drop(maria);
        }
    }

    static synchronized Served served(String engine) throws Exception {
        Served s = SERVED.get(engine);
        if (s == null) {
            String url = engine.equals("postgresql") ? TestPostgres.url("sb_subjects_hr") : TestMariaDb.url(maria);
            Path store = dir.resolve(engine + ".db");
            try (SchemaSource source = Sources.open(SourceUrl.parse(url))) {
                new Indexer().run(SourceUrl.parse(url), source, store, false, IndexListener.SILENT);
            }
            QueryExecutor ex = new QueryExecutor(SourceUrl.parse(url), ExecutorSettings.defaults());
            s = new Served(ex, StandardTools.registry(new StoreCatalogProvider(store), Optional.of(ex)), store);
            SERVED.put(engine, s);
        }
        return s;
    }

    static JsonNode json(Envelope e) {
        try {
            return new ObjectMapper().readTree(e.toJson());
        } catch (IOException x) {
            throw new AssertionError(x);
        }
    }

    /** The drafted metric of {@code entity} with {@code agg} over {@code column} (null: a row count). */
    static String metric(Served s, String entity, String agg, String column) {
        JsonNode metrics = json(s.tools().call("list_metrics", Map.of())).path("data").path("metrics");
        for (JsonNode m : metrics) {
            if (m.path("entity").asText().equals(entity) && m.path("measure").path("agg").asText().equals(agg)
                    && (column == null || m.path("measure").path("column").asText().equals(column))) {
                return m.path("name").asText();
            }
        }
        throw new AssertionError("no drafted " + agg + " of " + entity + "." + column + " in " + metrics);
    }

    static void assertAllSuppressed(JsonNode answer, String why) {
        assertEquals("degraded", answer.path("status").asText(), why + ": " + answer);
        assertEquals("small_groups_suppressed", answer.path("degradation_reason").asText(), why);
        assertEquals(0, answer.path("data").path("rows").size(), why + ": a suppressed group is never listed: " + answer);
        assertTrue(answer.path("data").path("suppressed_groups").asInt() > 0, why);
        assertFalse(answer.path("data").path("suppression").path("widening_hint").asText().isBlank(), why);
        assertFalse(answer.path("data").path("truncated").asBoolean(), why + ": nothing shown was cut: " + answer);
    }

    static String plain(Object v) {
        return v instanceof Number n ? new BigDecimal(n.toString()).stripTrailingZeros().toPlainString()
                : v instanceof JsonNode j ? new BigDecimal(j.asText()).stripTrailingZeros().toPlainString() : String.valueOf(v);
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb"})
    void theClassesAreDraftedFromTheColumns(String engine) throws Exception {
        Served s = served(engine);
        ServedCatalog catalog = new StoreCatalogProvider(s.store()).current().orElseThrow();
        Map<String, SubjectClass> classes = new HashMap<>();
        for (SubjectClasses.Assigned a : catalog.subjectClasses()) {
            classes.put(a.entity(), a.subjectClass());
        }
        assertEquals(SubjectClass.PERSON, classes.get("employee"), classes.toString());
        assertEquals(SubjectClass.NONE, classes.get("payslip"), "a payslip is about a person, not one: " + classes);
        assertEquals(SubjectClass.NONE, classes.get("expense_claim"), classes.toString());
        assertEquals(SubjectClass.ORGANISATION, classes.get("department"), classes.toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb"})
    void aPersonTwoForeignKeysAwayIsCounted(String engine) throws Exception {
        Served s = served(engine);
        String claims = metric(s, "expense_claim", "sum", "amount");
        // One employee's claims by category: claim → expense_account → employee.
        assertAllSuppressed(json(s.call("name", claims, "group_by", List.of("expense_category.name"),
                "filters", List.of(Map.of("column", "expense_account.employee_id", "op", "eq", "value", 7)))), "one employee's claims");
        assertAllSuppressed(json(s.call("name", claims, "group_by", List.of("expense_claim.account_id"))), "claims by account");
        JsonNode firstThree = json(s.call("name", claims, "group_by", List.of("expense_claim.account_id"), "limit", 3));
        assertAllSuppressed(firstThree, "claims by account, three asked for");
        assertEquals(40, firstThree.path("data").path("suppressed_groups").asInt(), "every account counted past the limit: " + firstThree);
        // The analyst's question: every category over forty people, exact.
        JsonNode byCategory = json(s.call("name", claims, "group_by", List.of("expense_category.name")));
        assertEquals("success", byCategory.path("status").asText(), byCategory.toString());
        List<List<Object>> hand = s.hand("SELECT c.name, SUM(x.amount) FROM expense_claim x JOIN expense_category c"
                + " ON c.category_id = x.category_id GROUP BY c.name ORDER BY c.name");
        assertEquals(hand.size(), byCategory.path("data").path("rows").size());
        for (int i = 0; i < hand.size(); i++) {
            JsonNode row = byCategory.path("data").path("rows").get(i);
            assertEquals(hand.get(i).get(0), row.path("expense_category.name").asText());
            assertEquals(plain(hand.get(i).get(1)), plain(row.path(claims)));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb"})
    void aPayslipsRowIdDoesNotStandInForThePerson(String engine) throws Exception {
        Served s = served(engine);
        String gross = metric(s, "payslip", "sum", "gross_amount");
        // The chief executive's yearly gross: twelve payslips, one person.
        assertAllSuppressed(json(s.call("name", gross, "group_by", List.of("payslip.employee_id", "payslip.pay_year"),
                "filters", List.of(Map.of("column", "payslip.employee_id", "op", "eq", "value", 1)))), "the CEO's gross");
        // Pay of one department's one named person: refused (a name) or suppressed, never shown.
        JsonNode named = json(s.call("name", gross, "group_by", List.of("employee.department_id"),
                "filters", List.of(Map.of("column", "employee.last_name", "op", "eq", "value", "Okafor"))));
        if (!named.path("status").asText().equals("refused")) {
            assertAllSuppressed(named, "pay by a name");
        }
        assertAllSuppressed(json(s.call("name", gross, "group_by", List.of("employee.department_id"),
                "filters", List.of(Map.of("column", "employee.employee_id", "op", "eq", "value", 1)))), "one person's pay");
        JsonNode total = json(s.call("name", gross, "group_by", List.of("payslip.pay_year")));
        assertEquals("success", total.path("status").asText(), total.toString());
        assertEquals(plain(s.hand("SELECT SUM(gross_amount) FROM payslip").get(0).get(0)),
                plain(total.path("data").path("rows").get(0).path(gross)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb"})
    void aPersonKeyWithoutAForeignKeyIsProtected(String engine) throws Exception {
        Served s = served(engine);
        String hours = metric(s, "timesheet", "sum", "hours_total");
        assertAllSuppressed(json(s.call("name", hours, "group_by", List.of("timesheet.employee_ref"))), "hours per employee_ref");
        JsonNode byDay = json(s.call("name", hours, "time_grain", "day"));
        assertEquals("success", byDay.path("status").asText(), "every day has forty people: " + byDay);
        assertEquals(10, byDay.path("data").path("rows").size());
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb"})
    void suppressedGroupsNameNobody(String engine) throws Exception {
        Served s = served(engine);
        String leave = metric(s, "sick_leave", "count", null);
        JsonNode answer = json(s.call("name", leave, "group_by", List.of("sick_leave.employee_id"),
                "filters", List.of(Map.of("column", "sick_leave.diagnosis", "op", "eq", "value", "depression"))));
        // A diagnosis is health data but no identifier: filtering by it runs, so the grouping must hide who is in it.
        assertAllSuppressed(answer, "who has depression");
        assertEquals(2, answer.path("data").path("suppressed_groups").asInt(), answer.toString());
        String text = answer.toString();
        assertFalse(text.contains("\"sick_leave.employee_id\":17") || text.contains("\"sick_leave.employee_id\":23"), text);
        // The limit keeps shown groups: a suppressed group sorts last and is counted, not listed.
        for (int limit : new int[]{1, 5}) {
            // "long" sorts first, but its two people are suppressed and sort last.
            JsonNode byDiagnosis = json(s.call("name", leave, "group_by", List.of("sick_leave.leave_type"), "limit", limit));
            assertEquals("degraded", byDiagnosis.path("status").asText(), byDiagnosis.toString());
            assertEquals(1, byDiagnosis.path("data").path("rows").size(), byDiagnosis.toString());
            assertEquals("short", byDiagnosis.path("data").path("rows").get(0).path("sick_leave.leave_type").asText());
            assertEquals(1, byDiagnosis.path("data").path("suppressed_groups").asInt(), byDiagnosis.toString());
            assertEquals(1, byDiagnosis.path("data").path("total_groups").asInt(), byDiagnosis.toString());
            assertFalse(byDiagnosis.path("data").path("truncated").asBoolean(), byDiagnosis.toString());
        }
        // A birth date through an in-list: one person, however the question is put.
        String people = metric(s, "employee", "count", null);
        assertAllSuppressed(json(s.call("name", people, "filters", List.of(Map.of("column", "employee.birth_date", "op", "in",
                "value", List.of("1963-05-13", "1999-01-01"))))), "a birth date in a list");
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb"})
    void aDryRunGivesACostClassNotTheRowsItWouldSuppress(String engine) throws Exception {
        Served s = served(engine);
        String gross = metric(s, "payslip", "sum", "gross_amount");
        JsonNode dry = json(s.call("name", gross, "group_by", List.of("payslip.employee_id"), "dry_run", true));
        assertEquals("success", dry.path("status").asText(), dry.toString());
        JsonNode explain = dry.path("data").path("explain");
        assertTrue(List.of("low", "medium", "high", "unknown").contains(explain.path("cost_class").asText()), explain.toString());
        assertEquals(1, explain.size(), "only the cost class: " + explain);
        assertFalse(dry.toString().contains("estimated_rows") || dry.toString().contains("rows="), dry.toString());
    }

    @org.junit.jupiter.api.Test
    void theOperatorOverridesAClassAndPolicyShowListsThem() throws Exception {
        Served s = served("postgresql");
        String store = s.store().toString();
        InProcessCli.Result shown = InProcessCli.run("--store", store, "policy", "show");
        assertEquals(0, shown.exitCode(), shown.stderr());
        assertTrue(shown.stdout().matches("(?s).*#\\s+employee\\s+person\\s+heuristic.*"), shown.stdout());
        assertTrue(shown.stdout().matches("(?s).*#\\s+payslip\\s+none\\s+heuristic.*"), shown.stdout());

        Path policy = dir.resolve("subjects.yaml");
        Files.writeString(policy, "subjects:\n  employe: none\n");
        InProcessCli.Result typo = InProcessCli.run("--store", store, "policy", "apply",
                policy.toString());
        assertEquals(2, typo.exitCode(), typo.stdout());
        assertTrue(typo.stderr().contains("employe") && typo.stderr().contains("did you mean employee"), typo.stderr());

        String gross = metric(s, "payslip", "sum", "gross_amount");
        Files.writeString(policy, "subjects:\n  employee: none\n");
        assertEquals(0, InProcessCli.run("--store", store, "policy", "apply", policy.toString()).exitCode());
        try {
            JsonNode open = json(s.call("name", gross, "group_by", List.of("payslip.employee_id")));
            assertEquals("success", open.path("status").asText(), "the operator said employees are not people: " + open);
            assertEquals(40, open.path("data").path("rows").size());
            InProcessCli.Result after = InProcessCli.run("--store", store, "policy", "show");
            assertTrue(after.stdout().contains("subjects:") && after.stdout().matches("(?s).*#\\s+employee\\s+none\\s+operator.*"),
                    after.stdout());
        } finally {
            Files.writeString(policy, "columns: {}\n");
            InProcessCli.run("--store", store, "policy", "apply", policy.toString());
        }
        assertAllSuppressed(json(s.call("name", gross, "group_by", List.of("payslip.employee_id"))), "the draft is back");
    }
}
