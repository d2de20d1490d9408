package dev.schemabrain.mcp.tools;

import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.semantic.TypedFiltersAcceptanceTest;
import dev.schemabrain.served.StoreCatalogProvider;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.execute.ExecutorSettings;
import dev.schemabrain.execute.QueryExecutor;
import dev.schemabrain.index.IndexListener;
import dev.schemabrain.index.Indexer;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.source.Sources;
import dev.schemabrain.testing.TestPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The measure: business questions over several schemas, each asked the way an agent would on its first
 * try, against real PostgreSQL with the default K = 5, compared with hand-written SQL. An analyst's question must be
 * answered exactly (small groups may be withheld if the answer says so); a per-person question must be refused or
 * fully suppressed. Nothing may come back silently wrong. Writes target/questions/business-questions.txt.
 * {@code -Dquestions.report.only=true} skips the asserts (used to measure older code).
 */
class BusinessQuestionsTest {

    @TempDir
    static Path dir;
    static final Map<String, DataSubjectsTest.Served> SERVED = new HashMap<>();

    /** Measured on this branch: answered on first try out of the answer questions (see docs/business-questions.md). */
    static final int ANSWERED_FLOOR = 35;
    /**
     * Findings the product gets wrong today, reported in docs/business-questions.md and not fixed here: the test
     * fails on any other wrong answer or leak, and when one of these is fixed (then remove it here and in the doc).
     */
    static final Map<String, String> KNOWN_FINDINGS = Map.of();

    static final String ANSWER = "answer";
    static final String PROTECTED = "protected";
    /** Stands for the metric's name in order_by, known only once list_metrics is read. */
    static final String M = "$metric";

    /**
     * One question: the metric an agent picks from list_metrics (entity, aggregation, column or a word of its
     * expression; null column: a row count), the rest of its first call, and the SQL that gives the true answer
     * (group keys first, the value last). {@code limit} > 0: a top-N; the hand SQL lists every group in order.
     */
    record Q(String schema, String question, String expected, String entity, String agg, String column,
             Map<String, Object> args, String hand, int limit) {
    }

    static Map<String, Object> args(Object... pairs) {
        Map<String, Object> a = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            a.put((String) pairs[i], pairs[i + 1]);
        }
        return a;
    }

    static Map<String, Object> eq(String column, Object value) {
        return Map.of("column", column, "op", "eq", "value", value);
    }

    static Map<String, Object> op(String column, String op, Object value) {
        return Map.of("column", column, "op", op, "value", value);
    }

    static Q q(String schema, String question, String expected, String entity, String agg, String column,
               Map<String, Object> args, String hand) {
        return new Q(schema, question, expected, entity, agg, column, args, hand, 0);
    }

    static Q top(String schema, String question, String entity, String agg, String column, Map<String, Object> args,
                 String hand, int limit) {
        Map<String, Object> a = new LinkedHashMap<>(args);
        a.put("order_by", List.of(Map.of("column", M, "direction", "desc")));
        a.put("limit", limit);
        return new Q(schema, question, ANSWER, entity, agg, column, a, hand, limit);
    }

    static final String MONTH = "to_char(date_trunc('month', %s), 'YYYY-MM-DD')";
    static final String YEAR = "to_char(date_trunc('year', %s), 'YYYY-MM-DD')";

    static List<Q> questions() {
        List<Q> qs = new ArrayList<>();
        // Chinook: a music store; customers and employees are people, invoices are facts.
        String ch = "chinook";
        qs.add(q(ch, "Total revenue", ANSWER, "invoice", "sum", "total", args(),
                "SELECT SUM(total) FROM invoice"));
        qs.add(q(ch, "Revenue by year", ANSWER, "invoice", "sum", "total", args("time_grain", "year"),
                "SELECT " + YEAR.formatted("invoice_date") + ", SUM(total) FROM invoice GROUP BY 1"));
        qs.add(q(ch, "Revenue by billing country", ANSWER, "invoice", "sum", "total",
                args("group_by", List.of("invoice.billing_country")),
                "SELECT billing_country, SUM(total) FROM invoice GROUP BY 1"));
        qs.add(q(ch, "Revenue by month in 2022 for US customers", ANSWER, "invoice", "sum", "total",
                args("time_grain", "month", "filters", List.of(eq("invoice.billing_country", "USA"),
                        op("invoice.invoice_date", "gte", "2022-01-01"), op("invoice.invoice_date", "lt", "2023-01-01"))),
                "SELECT " + MONTH.formatted("invoice_date") + ", SUM(total) FROM invoice WHERE billing_country = 'USA'"
                        + " AND invoice_date >= '2022-01-01' AND invoice_date < '2023-01-01' GROUP BY 1"));
        qs.add(q(ch, "Number of tracks by genre", ANSWER, "track", "count", null,
                args("group_by", List.of("genre.name")),
                "SELECT g.name, COUNT(*) FROM track t JOIN genre g ON g.genre_id = t.genre_id GROUP BY 1"));
        qs.add(q(ch, "Average track length by media type", ANSWER, "track", "avg", "milliseconds",
                args("group_by", List.of("media_type.name")),
                "SELECT m.name, AVG(t.milliseconds) FROM track t JOIN media_type m ON m.media_type_id = t.media_type_id GROUP BY 1"));
        qs.add(top(ch, "Top 5 genres by sales", "invoice_line", "sum", "unit_price",
                args("group_by", List.of("genre.name")),
                "SELECT g.name, SUM(l.unit_price * l.quantity) s FROM invoice_line l JOIN track t ON t.track_id = l.track_id"
                        + " JOIN genre g ON g.genre_id = t.genre_id GROUP BY 1 ORDER BY s DESC", 5));
        qs.add(q(ch, "Units sold by media type", ANSWER, "invoice_line", "sum", "quantity",
                args("group_by", List.of("media_type.name")),
                "SELECT m.name, SUM(l.quantity) FROM invoice_line l JOIN track t ON t.track_id = l.track_id"
                        + " JOIN media_type m ON m.media_type_id = t.media_type_id GROUP BY 1"));
        qs.add(q(ch, "Customers by country", ANSWER, "customer", "count", null,
                args("group_by", List.of("customer.country")),
                "SELECT country, COUNT(*) FROM customer GROUP BY 1"));
        qs.add(q(ch, "Revenue by sales support agent", PROTECTED, "invoice", "sum", "total",
                args("group_by", List.of("customer.support_rep_id")),
                "SELECT c.support_rep_id, SUM(i.total) FROM invoice i JOIN customer c ON c.customer_id = i.customer_id GROUP BY 1"));
        qs.add(q(ch, "How much did customer 5 spend", PROTECTED, "invoice", "sum", "total",
                args("filters", List.of(eq("invoice.customer_id", 5))),
                "SELECT SUM(total) FROM invoice WHERE customer_id = 5"));

        // Northwind: companies are organisations; employees are people.
        String nw = "northwind";
        String lines = "order_details d JOIN orders o ON o.order_id = d.order_id";
        String revenue = "SUM(d.unit_price * d.quantity * (1 - d.discount))";
        qs.add(q(nw, "Freight by shipper", ANSWER, "orders", "sum", "freight",
                args("group_by", List.of("shippers.company_name")),
                "SELECT h.company_name, SUM(o.freight) FROM orders o JOIN shippers h ON h.shipper_id = o.ship_via GROUP BY 1"));
        qs.add(q(nw, "Orders by ship country", ANSWER, "orders", "count", null,
                args("group_by", List.of("orders.ship_country")),
                "SELECT ship_country, COUNT(*) FROM orders GROUP BY 1"));
        qs.add(q(nw, "Orders by month in 1997", ANSWER, "orders", "count", null,
                args("time_grain", "month", "filters", List.of(op("orders.order_date", "gte", "1997-01-01"),
                        op("orders.order_date", "lt", "1998-01-01"))),
                "SELECT " + MONTH.formatted("order_date") + ", COUNT(*) FROM orders WHERE order_date >= '1997-01-01'"
                        + " AND order_date < '1998-01-01' GROUP BY 1"));
        qs.add(q(nw, "Sales revenue by category", ANSWER, "order_details", "sum", "discount",
                args("group_by", List.of("categories.category_name")),
                "SELECT c.category_name, " + revenue + " FROM order_details d JOIN products p ON p.product_id = d.product_id"
                        + " JOIN categories c ON c.category_id = p.category_id GROUP BY 1"));
        qs.add(q(nw, "Sales revenue by year", ANSWER, "order_details", "sum", "discount",
                args("time_grain", "year"),
                "SELECT " + YEAR.formatted("o.order_date") + ", " + revenue + " FROM " + lines + " GROUP BY 1"));
        qs.add(top(nw, "Top 10 customers by revenue", "order_details", "sum", "discount",
                args("group_by", List.of("customers.company_name")),
                "SELECT c.company_name, " + revenue + " r FROM " + lines + " JOIN customers c ON c.customer_id = o.customer_id"
                        + " GROUP BY 1 ORDER BY r DESC", 10));
        qs.add(q(nw, "Sales revenue by customer country since 1998", ANSWER, "order_details", "sum", "discount",
                args("group_by", List.of("customers.country"), "filters", List.of(op("orders.order_date", "gte", "1998-01-01"))),
                "SELECT c.country, " + revenue + " FROM " + lines + " JOIN customers c ON c.customer_id = o.customer_id"
                        + " WHERE o.order_date >= '1998-01-01' GROUP BY 1"));
        qs.add(q(nw, "Average list price by category", ANSWER, "products", "avg", "unit_price",
                args("group_by", List.of("categories.category_name")),
                "SELECT c.category_name, AVG(p.unit_price) FROM products p JOIN categories c ON c.category_id = p.category_id GROUP BY 1"));
        qs.add(q(nw, "Sales revenue by sales rep", PROTECTED, "order_details", "sum", "discount",
                args("group_by", List.of("orders.employee_id")),
                "SELECT o.employee_id, " + revenue + " FROM " + lines + " GROUP BY 1"));
        qs.add(q(nw, "Orders taken by Fuller", PROTECTED, "orders", "count", null,
                args("filters", List.of(eq("employees.last_name", "Fuller"))),
                "SELECT COUNT(*) FROM orders o JOIN employees e ON e.employee_id = o.employee_id WHERE e.last_name = 'Fuller'"));

        // Pagila with generated trade: two stores with one clerk each, 60 customers.
        String pg = "pagila_questions";
        qs.add(q(pg, "Total revenue", ANSWER, "payment", "sum", "amount", args(),
                "SELECT SUM(amount) FROM payment"));
        qs.add(q(pg, "Revenue by month", ANSWER, "payment", "sum", "amount", args("time_grain", "month"),
                "SELECT " + MONTH.formatted("payment_date") + ", SUM(amount) FROM payment GROUP BY 1"));
        qs.add(q(pg, "Revenue by the customer's store", ANSWER, "payment", "sum", "amount",
                args("group_by", List.of("customer.store_id")),
                "SELECT c.store_id, SUM(p.amount) FROM payment p JOIN customer c ON c.customer_id = p.customer_id GROUP BY 1"));
        qs.add(q(pg, "Average payment by month", ANSWER, "payment", "avg", "amount", args("time_grain", "month"),
                "SELECT " + MONTH.formatted("payment_date") + ", AVG(amount) FROM payment GROUP BY 1"));
        qs.add(q(pg, "Films by rating", ANSWER, "film", "count", null, args("group_by", List.of("film.rating")),
                "SELECT rating::text, COUNT(*) FROM film GROUP BY 1"));
        qs.add(q(pg, "Rentals by month", ANSWER, "rental", "count", null, args("time_grain", "month"),
                "SELECT " + MONTH.formatted("rental_date") + ", COUNT(*) FROM rental GROUP BY 1"));
        qs.add(q(pg, "Rentals by film category", ANSWER, "rental", "count", null, args("group_by", List.of("category.name")),
                "SELECT c.name, COUNT(*) FROM rental r JOIN inventory i ON i.inventory_id = r.inventory_id"
                        + " JOIN film_category fc ON fc.film_id = i.film_id JOIN category c ON c.category_id = fc.category_id GROUP BY 1"));
        qs.add(q(pg, "Customers by country", ANSWER, "customer", "count", null, args("group_by", List.of("country.country")),
                "SELECT co.country, COUNT(*) FROM customer c JOIN address a ON a.address_id = c.address_id"
                        + " JOIN city ci ON ci.city_id = a.city_id JOIN country co ON co.country_id = ci.country_id GROUP BY 1"));
        qs.add(q(pg, "Revenue by clerk", PROTECTED, "payment", "sum", "amount",
                args("group_by", List.of("payment.staff_id")),
                "SELECT staff_id, SUM(amount) FROM payment GROUP BY 1"));
        qs.add(q(pg, "Payments of customer 7 by month", PROTECTED, "payment", "sum", "amount",
                args("time_grain", "month", "filters", List.of(eq("payment.customer_id", 7))),
                "SELECT " + MONTH.formatted("payment_date") + ", SUM(amount) FROM payment WHERE customer_id = 7 GROUP BY 1"));

        // The HR schema of DataSubjectsTest: 40 employees in 4 departments.
        String hr = "sb_questions_hr";
        qs.add(q(hr, "Expense claims by category", ANSWER, "expense_claim", "sum", "amount",
                args("group_by", List.of("expense_category.name")),
                "SELECT c.name, SUM(x.amount) FROM expense_claim x JOIN expense_category c ON c.category_id = x.category_id GROUP BY 1"));
        qs.add(q(hr, "Expense claims by month", ANSWER, "expense_claim", "sum", "amount", args("time_grain", "month"),
                "SELECT " + MONTH.formatted("claimed_on") + ", SUM(amount) FROM expense_claim GROUP BY 1"));
        qs.add(q(hr, "Payroll by year", ANSWER, "payslip", "sum", "gross_amount",
                args("group_by", List.of("payslip.pay_year")),
                "SELECT pay_year, SUM(gross_amount) FROM payslip GROUP BY 1"));
        qs.add(q(hr, "Payroll by department", ANSWER, "payslip", "sum", "gross_amount",
                args("group_by", List.of("department.name")),
                "SELECT d.name, SUM(p.gross_amount) FROM payslip p JOIN employee e ON e.employee_id = p.employee_id"
                        + " JOIN department d ON d.department_id = e.department_id GROUP BY 1"));
        qs.add(q(hr, "Headcount by department", ANSWER, "employee", "count", null,
                args("group_by", List.of("department.name")),
                "SELECT d.name, COUNT(*) FROM employee e JOIN department d ON d.department_id = e.department_id GROUP BY 1"));
        qs.add(q(hr, "Sick-leave days by leave type", ANSWER, "sick_leave", "sum", "days",
                args("group_by", List.of("sick_leave.leave_type")),
                "SELECT leave_type, SUM(days) FROM sick_leave GROUP BY 1"));
        qs.add(q(hr, "Average pay by department", ANSWER, "payslip", "avg", "gross_amount",
                args("group_by", List.of("department.name")),
                "SELECT d.name, AVG(p.gross_amount) FROM payslip p JOIN employee e ON e.employee_id = p.employee_id"
                        + " JOIN department d ON d.department_id = e.department_id GROUP BY 1"));
        qs.add(q(hr, "Pay by employee id", PROTECTED, "payslip", "sum", "gross_amount",
                args("group_by", List.of("payslip.employee_id")),
                "SELECT employee_id, SUM(gross_amount) FROM payslip GROUP BY 1"));
        qs.add(q(hr, "Employee 7's expense claims by category", PROTECTED, "expense_claim", "sum", "amount",
                args("group_by", List.of("expense_category.name"), "filters", List.of(eq("expense_account.employee_id", 7))),
                "SELECT c.name, SUM(x.amount) FROM expense_claim x JOIN expense_category c ON c.category_id = x.category_id"
                        + " JOIN expense_account a ON a.account_id = x.account_id WHERE a.employee_id = 7 GROUP BY 1"));
        qs.add(q(hr, "Hours worked by employee", PROTECTED, "timesheet", "sum", "hours_total",
                args("group_by", List.of("timesheet.employee_ref")),
                "SELECT employee_ref, SUM(hours_total) FROM timesheet GROUP BY 1"));

        // TypedFiltersAcceptanceTest's SaaS billing schema: PostgreSQL ENUM statuses, a CHECK list, a boolean flag.
        String sa = "sb_questions_billing";
        // A test account's subscriptions, invoices and payments are not real (the flag travels down the NOT NULL keys).
        String live = " JOIN billing.subscriptions s ON s.subscription_id = i.subscription_id"
                + " JOIN billing.accounts a ON a.account_id = s.account_id WHERE NOT a.is_test";
        // Refused as adding USD and EUR; the recovery asks it per currency, so the hand SQL is per currency too.
        qs.add(q(sa, "Paid revenue by month", ANSWER, "invoices", "sum", "amount_cents",
                args("time_grain", "month", "filters", List.of(eq("invoices.status", "paid"))),
                "SELECT " + MONTH.formatted("i.issued_on") + ", i.currency, SUM(i.amount_cents) FROM billing.invoices i" + live
                        + " AND i.status = 'paid' GROUP BY 1, 2"));
        qs.add(q(sa, "Active or trialing subscriptions by plan", ANSWER, "subscriptions", "count", null,
                args("group_by", List.of("plans.name"), "filters", List.of(op("subscriptions.status", "in", List.of("active", "trialing")))),
                "SELECT p.name, COUNT(*) FROM billing.subscriptions s JOIN billing.plans p ON p.plan_id = s.plan_id"
                        + " JOIN billing.accounts a ON a.account_id = s.account_id"
                        + " WHERE s.status IN ('active', 'trialing') AND NOT a.is_test GROUP BY 1"));
        qs.add(q(sa, "Invoices by status", ANSWER, "invoices", "count", null, args("group_by", List.of("invoices.status")),
                "SELECT i.status::text, COUNT(*) FROM billing.invoices i" + live + " GROUP BY 1"));
        // The drafted sum of invoices.amount_cents is paid invoices only (its default_filters say so): so is the hand SQL.
        // Its description says "never add amounts in different currencies": the agent filters one.
        qs.add(q(sa, "Paid USD revenue, test accounts excluded", ANSWER, "invoices", "sum", "amount_cents",
                args("filters", List.of(eq("accounts.is_test", false), eq("invoices.currency", "USD"))),
                "SELECT SUM(i.amount_cents) FROM billing.invoices i JOIN billing.subscriptions s"
                        + " ON s.subscription_id = i.subscription_id JOIN billing.accounts a ON a.account_id = s.account_id"
                        + " WHERE NOT a.is_test AND i.currency = 'USD' AND i.status = 'paid'"));
        qs.add(q(sa, "Paid revenue by currency", ANSWER, "invoices", "sum", "amount_cents",
                args("group_by", List.of("invoices.currency")),
                "SELECT i.currency, SUM(i.amount_cents) FROM billing.invoices i" + live + " AND i.status = 'paid' GROUP BY 1"));
        return qs;
    }

    @AfterAll
    static void close() {
        SERVED.values().forEach(s -> s.executor().close());
    }

    /** Each schema in its own database (names no other test uses: the Pagila and HR rows are written here). */
    static synchronized DataSubjectsTest.Served served(String db) throws Exception {
        DataSubjectsTest.Served s = SERVED.get(db);
        if (s == null) {
            switch (db) {
                case "chinook" -> TestPostgres.loadSample("chinook", "chinook.sql");
                case "pagila_questions" -> {
                    TestPostgres.loadSample(db, "pagila-pg15.sql");
                    ShopAnalyticsTest.shopRows(db);
                }
                case "sb_questions_billing" -> TestPostgres.createDatabase(db,
                        TypedFiltersAcceptanceTest.ddl("postgresql").toArray(String[]::new));
                case "sb_questions_hr" -> {
                    List<String> all = new ArrayList<>(DataSubjectsTest.DDL);
                    all.addAll(DataSubjectsTest.rows());
                    TestPostgres.createDatabase(db, all.toArray(String[]::new));
                }
                default -> TestPostgres.loadSample(db, db + ".sql");
            }
            SourceUrl url = SourceUrl.parse(TestPostgres.url(db));
            Path store = dir.resolve(db + ".db");
            try (SchemaSource source = Sources.open(url)) {
                new Indexer().run(url, source, store, false, IndexListener.SILENT);
            }
            QueryExecutor ex = new QueryExecutor(url, ExecutorSettings.defaults());
            // The default K = 5, as an operator runs it.
            s = new DataSubjectsTest.Served(ex, StandardTools.registry(new StoreCatalogProvider(store), Optional.of(ex)), store);
            SERVED.put(db, s);
        }
        return s;
    }

    /**
     * The metric an agent picks: the entity's {@code agg} over {@code column}, or whose expression names it (a line
     * revenue); an unfiltered one first, as its name says the whole measure. Null: none is listed.
     */
    static JsonNode pick(DataSubjectsTest.Served s, Q q) {
        JsonNode chosen = null;
        for (JsonNode m : json(s.tools().call("list_metrics", Map.of())).path("data").path("metrics")) {
            JsonNode measure = m.path("measure");
            boolean over = q.column() == null
                    ? !measure.hasNonNull("column") && !measure.hasNonNull("expression")
                    : measure.path("column").asText().equals(q.column())
                    || measure.path("expression").asText().toLowerCase().matches(".*\\b" + q.column() + "\\b.*");
            if (m.path("entity").asText().equals(q.entity()) && measure.path("agg").asText().equals(q.agg()) && over) {
                if (chosen == null || (chosen.path("default_filters").size() > 0 && m.path("default_filters").size() == 0)) {
                    chosen = m;
                }
            }
        }
        if (chosen == null && q.column() == null) {
            // A count may be drafted over the key column rather than the row.
            for (JsonNode m : json(s.tools().call("list_metrics", Map.of())).path("data").path("metrics")) {
                if (m.path("entity").asText().equals(q.entity()) && m.path("measure").path("agg").asText().equals("count")) {
                    return m;
                }
            }
        }
        return chosen;
    }

    /** Exact decimals: a default ObjectMapper would read an average as a double and lose its last digits. */
    static final ObjectMapper EXACT = new ObjectMapper()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    static JsonNode json(Envelope e) {
        try {
            return EXACT.readTree(e.toJson());
        } catch (IOException x) {
            throw new AssertionError(x);
        }
    }

    static Object substitute(Object v, String metric) {
        if (M.equals(v)) {
            return metric;
        }
        if (v instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            m.forEach((k, x) -> out.put((String) k, substitute(x, metric)));
            return out;
        }
        if (v instanceof List<?> l) {
            return l.stream().map(x -> substitute(x, metric)).toList();
        }
        return v;
    }

    /** A value as compared: numbers without trailing zeros, dates and timestamps by their day. */
    static String norm(Object v) {
        if (v == null || v instanceof JsonNode j && j.isNull()) {
            return "null";
        }
        if (v instanceof JsonNode j) {
            return j.isNumber() ? new BigDecimal(j.asText()).stripTrailingZeros().toPlainString() : day(j.asText());
        }
        if (v instanceof Number n) {
            return new BigDecimal(n.toString()).stripTrailingZeros().toPlainString();
        }
        return day(String.valueOf(v));
    }

    static String day(String s) {
        return s.matches("\\d{4}-\\d{2}-\\d{2}([ T].*)?") ? s.substring(0, 10) : s;
    }

    record Outcome(String outcome, String detail) {
    }

    static final String ANSWERED = "answered";
    static final String WITHHELD = "answered, small groups withheld";
    static final String PROTECTED_OK = "protected";
    static final String NOT_ANSWERABLE = "not answerable on first try";
    static final String WRONG = "SILENTLY WRONG";
    static final String LEAK = "LEAK";

    static Outcome ask(Q q, List<String> calls) throws Exception {
        DataSubjectsTest.Served s = served(q.schema());
        JsonNode metric = pick(s, q);
        if (metric == null && q.expected().equals(PROTECTED)) {
            // No metric to ask: the agent falls back to execute with the SQL it would write (the hand SQL).
            calls.add(q.schema() + " | " + q.question() + " | execute " + q.hand());
            JsonNode answer = json(s.tools().call("execute", Map.of("sql", q.hand())));
            String status = answer.path("status").asText();
            int shown = answer.path("data").path("rows").size();
            if (status.equals("refused") || shown == 0 && answer.path("data").path("suppressed_groups").asInt(0) > 0) {
                return new Outcome(PROTECTED_OK, "execute: " + (status.equals("refused") ? "refused "
                        + answer.path("error").path("kind").asText() : "all " + answer.path("data").path("suppressed_groups").asInt()
                        + " groups suppressed"));
            }
            return shown == 0 ? new Outcome(NOT_ANSWERABLE, "execute -> " + status + ": " + answer.path("error").path("message").asText())
                    : new Outcome(LEAK, "execute -> " + status + " with " + shown + " rows shown");
        }
        if (metric == null) {
            calls.add(q.question() + ": no metric");
            return new Outcome(NOT_ANSWERABLE, "no drafted " + q.agg() + " of " + q.entity() + "." + q.column() + " in list_metrics");
        }
        String name = metric.path("name").asText();
        Map<String, Object> args = new LinkedHashMap<>();
        args.put("name", name);
        q.args().forEach((k, v) -> args.put(k, substitute(v, name)));
        calls.add(q.schema() + " | " + q.question() + " | " + args);
        JsonNode answer = json(s.tools().call("get_metric", args));
        // An invalid_argument whose recovery is the same metric asked another way (amounts grouped by currency) is
        // followed once, as an agent does; the outcome's detail says so.
        JsonNode recovery = answer.path("error").path("recovery");
        String followed = "";
        List<String> added = new ArrayList<>();
        if (answer.path("error").path("kind").asText().equals("invalid_argument")
                && recovery.path("suggested_tool").asText().equals("get_metric")
                && recovery.path("suggested_args").path("name").asText().equals(name)) {
            @SuppressWarnings("unchecked")
            Map<String, Object> retry = new ObjectMapper().convertValue(
                    recovery.path("suggested_args"), Map.class);
            calls.add(q.schema() + " | " + q.question() + " | recovery " + retry);
            answer = json(s.tools().call("get_metric", retry));
            followed = " (after the refusal's recovery)";
            // The columns the recovery grouped by besides the caller's: compared by the caller's keys, one row each.
            if (retry.get("group_by") instanceof List<?> by) {
                by.stream().map(String::valueOf).filter(g -> !(args.get("group_by") instanceof List<?> mine && mine.contains(g)))
                        .forEach(added::add);
            }
        }
        String status = answer.path("status").asText();
        JsonNode data = answer.path("data");
        // Older code listed a suppressed group as a row flagged "suppressed" with a null value: counted, not shown.
        List<JsonNode> rows = new ArrayList<>();
        int flagged = 0;
        for (JsonNode row : data.path("rows")) {
            if (row.path("suppressed").asBoolean(false)) {
                flagged++;
            } else {
                rows.add(row);
            }
        }
        int suppressed = Math.max(data.path("suppressed_groups").asInt(0), flagged);
        String older = flagged > 0 ? " (as " + flagged + " rows flagged suppressed, keys listed, values null)" : "";
        String call = name + " " + q.args() + followed;
        if (status.equals("refused") || status.equals("error")) {
            String why = status + " " + answer.path("error").path("kind").asText() + ": " + answer.path("error").path("message").asText();
            return q.expected().equals(PROTECTED) && status.equals("refused")
                    ? new Outcome(PROTECTED_OK, name + ": " + why) : new Outcome(NOT_ANSWERABLE, call + " -> " + why);
        }
        if (rows.isEmpty() && suppressed > 0) {
            return q.expected().equals(PROTECTED)
                    ? new Outcome(PROTECTED_OK, name + ": all " + suppressed + " groups suppressed" + older)
                    : new Outcome(NOT_ANSWERABLE, call + " -> protected: all " + suppressed + " groups suppressed" + older
                    + (System.getProperty("questions.debug") != null ? " " + answer : ""));
        }
        if (q.expected().equals(PROTECTED)) {
            // No row at all says no number about anyone; it is not counted as protected either.
            return rows.isEmpty() ? new Outcome(NOT_ANSWERABLE, call + " -> " + status + " with no rows")
                    : new Outcome(LEAK, call + " -> " + status + " with " + rows.size() + " rows shown: " + rows);
        }
        // Compare every shown row with the hand SQL, keyed by its group values.
        Map<String, String> hand = new LinkedHashMap<>();
        List<String> order = new ArrayList<>();
        for (List<Object> row : s.hand(q.hand())) {
            TreeSet<String> key = new TreeSet<>();
            for (int i = 0; i < row.size() - 1; i++) {
                key.add(norm(row.get(i)));
            }
            hand.put(key.toString(), norm(row.get(row.size() - 1)));
            order.add(key.toString());
        }
        List<String> problems = new ArrayList<>();
        List<String> shown = new ArrayList<>();
        // The recovery's extra keys are compared away only where the hand SQL does not group by them too.
        int handWidth = s.hand(q.hand()).stream().findFirst().map(r -> r.size() - 1).orElse(0);
        int answerWidth = data.path("columns").size() - 1;
        if (answerWidth <= handWidth) {
            added.clear();
        }
        for (JsonNode row : rows) {
            TreeSet<String> key = new TreeSet<>();
            row.fieldNames().forEachRemaining(f -> {
                if (!f.equals(name) && !f.equals("suppressed") && !added.contains(f)) {
                    key.add(norm(row.get(f)));
                }
            });
            String got = norm(row.get(name));
            if (shown.contains(key.toString())) {
                problems.add("group " + key + " comes back in several rows (" + added + ")");
            }
            shown.add(key.toString());
            if (!hand.containsKey(key.toString())) {
                problems.add("extra group " + key + " = " + got);
            } else if (!hand.get(key.toString()).equals(got)) {
                problems.add("group " + key + " got " + got + ", expected " + hand.get(key.toString()));
            }
        }
        List<String> expectedKeys = q.limit() > 0 ? order.subList(0, Math.min(q.limit(), order.size())) : order;
        List<String> missing = expectedKeys.stream().filter(k -> !shown.contains(k)).toList();
        boolean truncated = data.path("truncated").asBoolean(false);
        if (!missing.isEmpty() && missing.size() > suppressed && !truncated) {
            problems.add("missing " + missing.size() + " groups " + missing + " with suppressed_groups = " + suppressed);
        }
        if (q.limit() > 0 && suppressed == 0 && !shown.equals(expectedKeys)) {
            problems.add("top " + q.limit() + " in order " + shown + ", expected " + expectedKeys);
        }
        if (rows.isEmpty()) {
            return new Outcome(NOT_ANSWERABLE, call + " -> " + status + " with no rows: " + answer);
        }
        if (!problems.isEmpty()) {
            return new Outcome(WRONG, call + " -> " + status + ": " + String.join("; ", problems));
        }
        if (suppressed > 0) {
            String said = answer.path("degradation_reason").asText();
            if (!said.equals("small_groups_suppressed") && flagged == 0) {
                return new Outcome(WRONG, call + " -> " + status + ", " + suppressed + " groups left out, degradation_reason '" + said + "'");
            }
            return new Outcome(WITHHELD, name + ": " + rows.size() + " of " + expectedKeys.size() + " groups shown, " + suppressed + " withheld, all exact" + older + followed);
        }
        String reason = answer.path("degradation_reason").asText("");
        return new Outcome(ANSWERED, name + ": " + rows.size() + " rows exact (" + status + (reason.isEmpty() || reason.equals("null") ? "" : ": " + reason) + ")" + followed);
    }

    @Test
    void businessQuestionsAreAnsweredOrProtectedAndNeverSilentlyWrong() throws Exception {
        List<Q> qs = questions();
        List<String> calls = new ArrayList<>();
        Map<String, Integer> totals = new LinkedHashMap<>();
        StringBuilder table = new StringBuilder(String.format("%-20s | %-50s | %-9s | %-31s | %s%n",
                "schema", "question", "expected", "outcome", "detail"));
        List<String> findings = new ArrayList<>();
        for (Q q : qs) {
            Outcome o;
            try {
                o = ask(q, calls);
            } catch (RuntimeException e) {
                o = new Outcome(NOT_ANSWERABLE, "threw " + e);
            }
            totals.merge(q.expected() + " -> " + o.outcome(), 1, Integer::sum);
            if (o.outcome().equals(WRONG) || o.outcome().equals(LEAK)) {
                findings.add(q.schema() + " | " + q.question());
            }
            table.append(String.format("%-20s | %-50s | %-9s | %-31s | %s%n", q.schema(), q.question(), q.expected(),
                    o.outcome(), o.detail().replace('\n', ' ')));
        }
        long answers = qs.stream().filter(q -> q.expected().equals(ANSWER)).count();
        long schemas = qs.stream().map(Q::schema).distinct().count();
        int answered = totals.getOrDefault(ANSWER + " -> " + ANSWERED, 0) + totals.getOrDefault(ANSWER + " -> " + WITHHELD, 0);
        int withheld = totals.getOrDefault(ANSWER + " -> " + WITHHELD, 0);
        int protectedOk = totals.getOrDefault(PROTECTED + " -> " + PROTECTED_OK, 0);
        int notAnswerable = totals.getOrDefault(ANSWER + " -> " + NOT_ANSWERABLE, 0)
                + totals.getOrDefault(PROTECTED + " -> " + NOT_ANSWERABLE, 0);
        int wrong = totals.getOrDefault(ANSWER + " -> " + WRONG, 0);
        int leaks = totals.getOrDefault(PROTECTED + " -> " + LEAK, 0);
        String summary = String.format("%d questions over %d schemas: %d answer, %d protected%n"
                        + "answered on first try: %d of %d answer questions (%d of them with small groups withheld)%n"
                        + "protected as expected: %d of %d%n"
                        + "correct on first try: %d of %d%n"
                        + "not answerable on first try: %d%n"
                        + "silently wrong: %d%nleaks: %d%n",
                qs.size(), schemas, answers, qs.size() - answers, answered, answers, withheld, protectedOk, qs.size() - answers,
                answered + protectedOk, qs.size(), notAnswerable, wrong, leaks);
        Path out = Path.of("target", "questions");
        Files.createDirectories(out);
        Files.writeString(out.resolve("business-questions.txt"), table + "\n" + summary + "\n" + totals + "\n");
        Files.writeString(out.resolve("business-questions-calls.txt"), String.join("\n", calls) + "\n");
        System.out.println(table + "\n" + summary);
        // The metrics each first call chose from, to read a result against what the agent saw.
        for (String db : SERVED.keySet()) {
            StringBuilder m = new StringBuilder();
            for (JsonNode x : json(SERVED.get(db).tools().call("list_metrics", Map.of())).path("data").path("metrics")) {
                m.append(String.join(" | ", x.path("name").asText(), x.path("entity").asText(), x.path("measure").toString(),
                        x.path("default_filters").toString(), x.path("description").asText())).append('\n');
            }
            Files.writeString(out.resolve("metrics-" + db + ".txt"), m);
        }
        if (Boolean.getBoolean("questions.report.only")) {
            return;
        }
        assertTrue(qs.size() >= 32 && schemas >= 4, summary);
        // Silently wrong = 0 and leaks = 0 beyond the documented findings; a fixed finding must leave the list.
        assertEquals(new TreeSet<>(KNOWN_FINDINGS.keySet()), new TreeSet<>(findings), "silently wrong or leaked:\n" + table);
        assertTrue(answered >= ANSWERED_FLOOR, "answered fell below the measured floor:\n" + table + summary);
    }
}
