package dev.schemabrain.mcp.tools;

import dev.schemabrain.execute.SourceExecutors;
import dev.schemabrain.served.StoreCatalogProvider;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.POJONode;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.execute.BoundQuery;
import dev.schemabrain.execute.ExecutorSettings;
import dev.schemabrain.execute.QueryExecutor;
import dev.schemabrain.index.IndexListener;
import dev.schemabrain.index.Indexer;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.error.ErrorKind;
import dev.schemabrain.mcp.envelope.Recovery;
import dev.schemabrain.mcp.envelope.Status;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.demo.DemoDatabase;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.source.Sources;
import dev.schemabrain.testing.InProcessCli;
import dev.schemabrain.testing.TestPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 19 end to end, through the tools an agent calls: every drafted metric of the demo database (a real SQLite
 * file), Chinook, Northwind and Pagila (real embedded PostgreSQL; Pagila with a small hand-made data set) computed by
 * get_metric equals hand-written SQL; Northwind's "revenue by employee last name" with the name allowed in the
 * policy; "revenue by country per month" built from list_metrics and describe_entity alone; a limit that cuts
 * groups; and the hostile cases (a dimension hidden in free text, a PII group_by, an expression smuggling SQL).
 */
class AnalystMetricsTest {

    @TempDir
    static Path dir;

    /** One indexed database: its source URL, store and tools (without small-cell suppression, to compare exact values). */
    record Served(String url, Path store, QueryExecutor executor, ToolRegistry tools) {

        Envelope call(String tool, Map<String, Object> args) {
            return tools.call(tool, args);
        }

        List<List<Object>> hand(String sql) throws Exception {
            return executor.execute(new BoundQuery(sql, List.of()), 10_000).rows();
        }
    }

    static final Map<String, Served> SERVED = new HashMap<>();

    static synchronized Served served(String db) throws Exception {
        Served s = SERVED.get(db);
        if (s == null) {
            String url = switch (db) {
                case "demo" -> "sqlite:" + DemoDatabase.ensure(dir.resolve("demo.sqlite"));
                case "pagila" -> {
                    TestPostgres.loadSample("pagila_rows", "pagila-pg15.sql");
                    pagilaRows();
                    yield TestPostgres.url("pagila_rows");
                }
                default -> {
                    TestPostgres.loadSample(db, db + ".sql");
                    yield TestPostgres.url(db);
                }
            };
            Path store = dir.resolve(db + ".db");
            try (SchemaSource source = Sources.open(SourceUrl.parse(url))) {
                new Indexer().run(SourceUrl.parse(url), source, store, false, IndexListener.SILENT);
            }
            QueryExecutor ex = new QueryExecutor(SourceUrl.parse(url), ExecutorSettings.defaults());
            s = new Served(url, store, ex, StandardTools.registry(new StoreCatalogProvider(store), SourceExecutors.of(Optional.of(ex)), 1, ExampleQueries.NONE));
            SERVED.put(db, s);
        }
        return s;
    }

    private static boolean pagilaLoaded;

    /** Pagila ships without data: a few rows in every table a metric reads, written once. */
    private static void pagilaRows() throws Exception {
        if (pagilaLoaded) {
            return;
        }
        try (Connection c = TestPostgres.connect("pagila_rows"); Statement st = c.createStatement()) {
            st.execute("SET session_replication_role = replica");   // the schema's circular store/staff keys
            for (String sql : List.of(
                    "INSERT INTO country (country_id, country) VALUES (1, 'Canada'), (2, 'France')",
                    "INSERT INTO city (city_id, city, country_id) VALUES (1, 'Toronto', 1), (2, 'Paris', 2), (3, 'Lyon', 2)",
                    "INSERT INTO address (address_id, address, district, city_id, phone) VALUES (1, '1 A St', 'Ontario', 1, '555'),"
                            + " (2, '2 B St', 'IDF', 2, '556'), (3, '3 C St', 'Rhone', 3, '557'), (4, '4 D St', 'IDF', 2, '558')",
                    "INSERT INTO language (language_id, name) VALUES (1, 'English'), (2, 'French')",
                    "INSERT INTO store (store_id, manager_staff_id, address_id) VALUES (1, 1, 1), (2, 2, 2)",
                    "INSERT INTO staff (staff_id, first_name, last_name, address_id, store_id, username) VALUES"
                            + " (1, 'Mike', 'Hillyer', 1, 1, 'mike'), (2, 'Jon', 'Stephens', 2, 2, 'jon')",
                    "INSERT INTO customer (customer_id, store_id, first_name, last_name, email, address_id, create_date, active) VALUES"
                            + " (1, 1, 'Mary', 'Smith', 'm@x.org', 1, '2022-01-03', 1), (2, 1, 'Pat', 'Johnson', 'p@x.org', 3, '2022-01-10', 1),"
                            + " (3, 2, 'Linda', 'Williams', 'l@x.org', 2, '2022-02-14', 1), (4, 2, 'Barbara', 'Jones', 'b@x.org', 4, '2022-02-20', 0),"
                            + " (5, 1, 'Liz', 'Brown', 'e@x.org', 3, '2022-03-01', 1), (6, 2, 'Jen', 'Davis', 'j@x.org', 2, '2022-03-05', 1)",
                    "INSERT INTO film (film_id, title, description, release_year, language_id, rental_duration, rental_rate, length,"
                            + " replacement_cost, rating, fulltext) VALUES"
                            + " (1, 'ACADEMY DINOSAUR', 'An epic drama', 2006, 1, 6, 0.99, 86, 20.99, 'PG', to_tsvector('academy')),"
                            + " (2, 'ACE GOLDFINGER', 'A story', 2006, 1, 3, 4.99, 48, 12.99, 'G', to_tsvector('ace')),"
                            + " (3, 'ADAPTATION HOLES', 'A documentary', 2006, 2, 7, 2.99, 50, 18.99, 'NC-17', to_tsvector('adaptation')),"
                            + " (4, 'AFFAIR PREJUDICE', 'A fanciful tale', 2006, 1, 5, 2.99, 117, 26.99, 'G', to_tsvector('affair')),"
                            + " (5, 'AGENT TRUMAN', 'An intrepid story', 2006, 2, 3, 2.99, 169, 17.99, 'PG', to_tsvector('agent'))",
                    "INSERT INTO actor (actor_id, first_name, last_name) VALUES (1, 'Penelope', 'Guiness'), (2, 'Nick', 'Wahlberg'), (3, 'Ed', 'Chase')",
                    "INSERT INTO category (category_id, name) VALUES (1, 'Action'), (2, 'Comedy')",
                    "INSERT INTO film_actor (actor_id, film_id) VALUES (1, 1), (1, 2), (2, 3), (3, 4), (3, 5)",
                    "INSERT INTO film_category (film_id, category_id) VALUES (1, 1), (2, 2), (3, 1), (4, 2), (5, 1)",
                    "INSERT INTO inventory (inventory_id, film_id, store_id) VALUES (1, 1, 1), (2, 1, 2), (3, 2, 1), (4, 3, 2), (5, 4, 1),"
                            + " (6, 5, 2), (7, 5, 1)",
                    "INSERT INTO rental (rental_id, rental_date, inventory_id, customer_id, return_date, staff_id) VALUES"
                            + " (1, '2022-02-01 10:00+00', 1, 1, '2022-02-05 10:00+00', 1), (2, '2022-02-03 11:00+00', 3, 2, NULL, 1),"
                            + " (3, '2022-02-15 12:00+00', 4, 3, '2022-02-18 12:00+00', 2), (4, '2022-03-02 09:00+00', 6, 4, '2022-03-04 09:00+00', 2),"
                            + " (5, '2022-03-10 09:00+00', 5, 5, NULL, 1), (6, '2022-03-21 15:00+00', 7, 1, '2022-03-25 15:00+00', 1),"
                            + " (7, '2022-04-02 09:00+00', 2, 6, NULL, 2), (8, '2022-04-09 18:00+00', 1, 3, '2022-04-12 18:00+00', 1)",
                    "INSERT INTO payment (payment_id, customer_id, staff_id, rental_id, amount, payment_date) VALUES"
                            + " (1, 1, 1, 1, 2.99, '2022-02-01 10:05+00'), (2, 2, 1, 2, 4.99, '2022-02-03 11:05+00'),"
                            + " (3, 3, 2, 3, 0.99, '2022-02-15 12:05+00'), (4, 4, 2, 4, 5.99, '2022-03-02 09:05+00'),"
                            + " (5, 5, 1, 5, 2.99, '2022-03-10 09:05+00'), (6, 1, 1, 6, 3.99, '2022-03-21 15:05+00'),"
                            + " (7, 6, 2, 7, 7.99, '2022-04-02 09:05+00'), (8, 3, 1, 8, 1.99, '2022-04-09 18:05+00'),"
                            + " (9, 1, 1, 1, 1.00, '2022-02-06 10:00+00')")) {
                st.execute(sql);
            }
            st.execute("SET session_replication_role = origin");
            st.execute("ANALYZE");
        }
        pagilaLoaded = true;
    }

    @AfterAll
    static void close() {
        SERVED.values().forEach(s -> s.executor().close());
    }

    static Map<String, Object> args(Object... pairs) {
        Map<String, Object> m = new HashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            m.put((String) pairs[i], pairs[i + 1]);
        }
        return m;
    }

    /** A number to nine significant digits (engines differ in an average's scale), anything else as text. */
    static String canonical(Object v) {
        if (v instanceof POJONode p) {
            v = p.getPojo();
        } else if (v instanceof JsonNode n) {
            v = n.isNull() ? null : n.isNumber() ? n.decimalValue() : n.asText();
        }
        if (v instanceof Number n) {
            return new BigDecimal(n.toString()).round(new MathContext(9)).stripTrailingZeros().toPlainString();
        }
        if (v instanceof String s && s.matches("\\d{4}-\\d{2}-\\d{2}.*")) {
            return s.substring(0, 10);
        }
        return String.valueOf(v);
    }

    static List<List<String>> canonical(List<List<Object>> rows) {
        return rows.stream().map(r -> r.stream().map(AnalystMetricsTest::canonical).toList()).toList();
    }

    /** get_metric's rows as lists in its column order. */
    static List<List<String>> rows(Envelope e) {
        List<String> columns = new ArrayList<>();
        e.data().get("columns").forEach(c -> columns.add(c.asText()));
        List<List<String>> out = new ArrayList<>();
        e.data().get("rows").forEach(r -> out.add(columns.stream().map(c -> canonical(r.get(c))).toList()));
        return out;
    }

    /** The measure of a listed metric as hand-written SQL over its table: what the metric says, without the compiler. */
    static String handSql(JsonNode metric, String table) {
        JsonNode measure = metric.get("measure");
        String argument = measure.has("expression") ? measure.get("expression").asText() : measure.get("column").asText();
        String aggregate = switch (measure.get("agg").asText()) {
            case "count" -> "COUNT(" + argument + ")";
            case "count_distinct" -> "COUNT(DISTINCT " + argument + ")";
            default -> measure.get("agg").asText().toUpperCase() + "(" + argument + ")";
        };
        return "SELECT " + aggregate + " FROM " + table + where(metric);
    }

    /**
     * How a line reaches the header whose filters it carries (a void invoice's lines are void too), written by hand:
     * the metric's entity and the filter's entity to the line's key and the header's.
     */
    static final Map<String, String[]> HEADERS = Map.of("invoice_line_items>invoices", new String[] {"invoice_id", "id"});

    /** The metric's default filters (a settled status, no test or deleted rows) as a hand-written WHERE. */
    static String where(JsonNode metric) {
        JsonNode filters = metric.get("default_filters");
        if (filters == null || filters.isEmpty()) {
            return "";
        }
        String entity = metric.get("entity").asText();
        List<String> conditions = new ArrayList<>();
        for (JsonNode f : filters) {
            String[] ref = f.get("column").asText().split("\\.");
            String condition = ref[1] + switch (f.get("op").asText()) {
                case "is_null" -> " IS NULL";
                case "not_null" -> " IS NOT NULL";
                case "in" -> {
                    List<String> values = new ArrayList<>();
                    ((List<?>) plain(f.get("value"))).forEach(v -> values.add(literal(v)));
                    yield " IN (" + String.join(", ", values) + ")";
                }
                case "eq" -> " = " + literal(plain(f.get("value")));
                default -> throw new IllegalArgumentException(f.toString());
            };
            if (!ref[0].equals(entity)) {
                String[] keys = HEADERS.get(entity + ">" + ref[0]);
                condition = keys[0] + " IN (SELECT " + keys[1] + " FROM " + ref[0] + " WHERE " + condition + ")";
            }
            conditions.add(condition);
        }
        return " WHERE " + String.join(" AND ", conditions);
    }

    /** A filter value as the reply holds it: a POJO (a List, Boolean, Long or String) or plain JSON. */
    private static Object plain(JsonNode v) {
        if (v instanceof POJONode p) {
            return p.getPojo();
        }
        if (v.isArray()) {
            List<Object> out = new ArrayList<>();
            v.forEach(e -> out.add(plain(e)));
            return out;
        }
        return v.isTextual() ? v.asText() : v.isBoolean() ? (Object) v.asBoolean() : v.numberValue();
    }

    private static String literal(Object v) {
        return v instanceof String t ? "'" + t.replace("'", "''") + "'" : String.valueOf(v);
    }

    /**
     * The drafted money metrics whose rows carry a currency column known to hold several values (the demo's payments
     * are in USD, GBP and EUR): asked without the currency they are refused, so amounts never add across currencies.
     */
    static final Map<String, Set<String>> MIXED_CURRENCIES = Map.of(
            "demo", Set.of("payments_amount_cents_sum", "payments_amount_cents_avg"),
            "chinook", Set.of(), "northwind", Set.of(), "pagila", Set.of());

    /**
     * get_metric; a refusal to add amounts across currencies is followed as its recovery says (the same call grouped
     * by the currency as well), and the metric's name and its currency column are recorded in {@code refused}.
     */
    static Envelope followingTheCurrencyRule(Served s, Map<String, Object> call, Map<String, String> refused) {
        Envelope answer = s.call("get_metric", call);
        if (answer.status() != Status.ERROR || answer.error().kind() != ErrorKind.INVALID_ARGUMENT
                || !answer.error().message().contains("different currencies")) {
            return answer;
        }
        Recovery recovery = answer.error().recovery();
        assertEquals("get_metric", recovery.suggestedTool(), answer::toJson);
        List<String> groupBy = new ArrayList<>(strings(call.getOrDefault("group_by", List.of())));
        List<String> retried = strings(recovery.suggestedArgs().get("group_by"));
        assertEquals(groupBy, retried.subList(0, retried.size() - 1), () -> "the same call, grouped by the currency too: " + answer.toJson());
        String currency = retried.get(retried.size() - 1);
        assertTrue(currency.endsWith(".currency"), answer::toJson);
        refused.put((String) call.get("name"), currency);
        Map<String, Object> retry = new HashMap<>(call);
        retry.put("group_by", retried);
        return s.call("get_metric", retry);
    }

    @SuppressWarnings("unchecked")
    private static List<String> strings(Object list) {
        return list instanceof JsonNode n ? strings(n) : new ArrayList<>((List<String>) list);
    }

    @ParameterizedTest
    @ValueSource(strings = {"demo", "chinook", "northwind", "pagila"})
    void everyDraftedMetricThroughGetMetricEqualsHandWrittenSql(String db) throws Exception {
        Served s = served(db);
        JsonNode metrics = s.call("list_metrics", Map.of()).data().get("metrics");
        assertTrue(metrics.size() >= 10, db + " drafts metrics");
        Map<String, String> tables = new HashMap<>();
        int compared = 0;
        Map<String, String> refused = new HashMap<>();
        for (JsonNode m : metrics) {
            String entity = m.get("entity").asText();
            String table = tables.computeIfAbsent(entity, e -> s.call("describe_entity", Map.of("name", e)).data().get("table").asText());
            String name = m.get("name").asText();
            Envelope answer = followingTheCurrencyRule(s, args("name", name), refused);
            assertEquals(Status.SUCCESS, answer.status(), () -> name + ": " + answer.toJson());
            String currency = refused.get(name);
            if (currency == null) {
                assertEquals(canonical(s.hand(handSql(m, table))), rows(answer), name);
            } else {
                // The same measure by hand, per currency: the column is the metric's own row's.
                String[] ref = currency.split("\\.");
                assertEquals(entity, ref[0], currency);
                String hand = handSql(m, table).replaceFirst("^SELECT ", "SELECT " + ref[1] + ", ") + " GROUP BY " + ref[1]
                        + " ORDER BY " + ref[1];
                assertEquals(canonical(s.hand(hand)), rows(answer), name + " per currency");
                assertTrue(s.hand("SELECT COUNT(DISTINCT " + ref[1] + ") FROM " + table).get(0).get(0) instanceof Number n
                        && n.intValue() > 1, currency + " holds several currencies");
            }
            if (!m.get("time_dimension").isNull()) {
                // Bucketed by month, the buckets add back up to the total (for the additive ones) and none is lost.
                Envelope monthly = followingTheCurrencyRule(s, args("name", name, "time_grain", "month"), new HashMap<>());
                assertEquals(Status.SUCCESS, monthly.status(), () -> name + " by month: " + monthly.toJson());
                assertFalse(monthly.data().get("rows").isEmpty(), name);
            }
            compared++;
        }
        assertEquals(metrics.size(), compared);
        assertEquals(MIXED_CURRENCIES.get(db), refused.keySet(), "refused for mixing currencies: exactly the money metrics with one");
    }

    @Test
    void inheritedTimeBucketsEqualHandWrittenSqlOnTheParentsDate() throws Exception {
        Served northwind = served("northwind");
        Envelope e = northwind.call("get_metric", args("name", "order_details_revenue", "time_grain", "month"));
        assertEquals(Status.SUCCESS, e.status(), e::toJson);
        assertEquals(List.of("order_details_orders"), strings(e.data().get("required_joins")));
        assertEquals(canonical(northwind.hand("SELECT CAST(date_trunc('month', o.order_date) AS date), "
                + "SUM(d.unit_price * d.quantity * (1 - d.discount)) FROM order_details d LEFT JOIN orders o ON o.order_id = d.order_id "
                + "GROUP BY 1 ORDER BY 1")), rows(e));
        Served chinook = served("chinook");
        Envelope lines = chinook.call("get_metric", args("name", "invoice_line_revenue", "time_grain", "year"));
        assertEquals(canonical(chinook.hand("SELECT CAST(date_trunc('year', i.invoice_date) AS date), SUM(l.unit_price * l.quantity) "
                + "FROM invoice_line l LEFT JOIN invoice i ON i.invoice_id = l.invoice_id GROUP BY 1 ORDER BY 1")), rows(lines));
        Served demo = served("demo");
        Envelope items = demo.call("get_metric", args("name", "invoice_line_items_amount_cents_sum", "time_grain", "month"));
        assertEquals(canonical(demo.hand("SELECT strftime('%Y-%m-01', i.issued_at), SUM(l.amount_cents) FROM invoice_line_items l "
                + "LEFT JOIN invoices i ON i.id = l.invoice_id WHERE i.status IN ('paid') GROUP BY 1 ORDER BY 1")), rows(items),
                "a line of an unpaid invoice is not revenue: the header's status filter, through the same join");
    }

    @Test
    void revenueByEmployeeLastNameOnNorthwindOnceThePolicyAllowsIt() throws Exception {
        Served northwind = served("northwind");
        Map<String, Object> call = args("name", "order_details_revenue", "group_by", List.of("employees.last_name"),
                "order_by", List.of(Map.of("column", "order_details_revenue", "direction", "desc")));
        Envelope refused = northwind.call("get_metric", call);
        assertEquals(Status.REFUSED, refused.status(), refused::toJson);
        assertEquals(ErrorKind.PII_BLOCKED, refused.error().kind());
        assertNotNull(refused.error().recovery().suggestedRewrite(), "a rewrite the agent can take: " + refused.toJson());
        JsonNode lastName = dimension(northwind, "order_details", "employees.last_name");
        assertFalse(lastName.get("groupable").asBoolean(), "describe_entity says so before anyone tries");

        Path policy = dir.resolve("northwind_policy.yaml");
        Files.writeString(policy, "columns:\n  public.employees.last_name: {categories: [contact], allow: [group_by]}\n");
        InProcessCli.Result applied = InProcessCli.run("--store", northwind.store().toString(), "policy", "apply", policy.toString());
        assertEquals(0, applied.exitCode(), applied.stderr());
        try {
            Envelope answer = northwind.call("get_metric", call);
            assertEquals(Status.SUCCESS, answer.status(), answer::toJson);
            assertTrue(answer.data().get("fan_out_joins").isEmpty());
            List<List<String>> hand = canonical(northwind.hand("SELECT e.last_name, SUM(d.unit_price * d.quantity * (1 - d.discount)) "
                    + "FROM order_details d LEFT JOIN orders o ON o.order_id = d.order_id LEFT JOIN employees e ON e.employee_id = o.employee_id "
                    + "GROUP BY e.last_name ORDER BY 2 DESC"));
            assertEquals(hand, rows(answer));
            assertEquals("Peacock", rows(answer).get(0).get(0), "which employee sold the most");
            assertTrue(dimension(northwind, "order_details", "employees.last_name").get("groupable").asBoolean());
        } finally {
            Files.writeString(policy, "columns: {}\n");
            InProcessCli.run("--store", northwind.store().toString(), "policy", "apply", policy.toString());
        }
    }

    @Test
    void revenueByCountryPerMonthFromListMetricsAndDescribeEntityAlone() throws Exception {
        Served northwind = served("northwind");
        // The agent reads list_metrics: a metric called revenue, its time axis and the dimensions it can be grouped by.
        JsonNode revenue = null;
        for (JsonNode m : northwind.call("list_metrics", Map.of()).data().get("metrics")) {
            if (m.get("description").asText().toLowerCase(Locale.ROOT).contains("revenue")) {
                revenue = m;
            }
        }
        assertNotNull(revenue, "a revenue metric is drafted");
        assertTrue(strings(revenue.get("time_grains")).contains("month"));
        // describe_entity lists every dimension: the customer's country, reached over joins, groupable under the policy.
        JsonNode dimension = null;
        for (JsonNode d : northwind.call("describe_entity", Map.of("name", revenue.get("entity").asText())).data().get("dimensions")) {
            if (dimension == null && d.get("reference").asText().endsWith(".country") && d.get("reference").asText().startsWith("customer")) {
                dimension = d;
            }
        }
        assertNotNull(dimension, "a customer country dimension");
        String country = dimension.get("reference").asText();
        assertEquals("text", dimension.get("kind").asText());
        assertTrue(dimension.get("groupable").asBoolean());
        Envelope e = northwind.call("get_metric", args("name", revenue.get("name").asText(), "group_by", List.of(country),
                "time_grain", "month"));
        assertEquals(Status.SUCCESS, e.status(), e::toJson);
        assertTrue(e.data().get("fan_out_joins").isEmpty());
        assertEquals(canonical(northwind.hand("SELECT CAST(date_trunc('month', o.order_date) AS date), c.country, "
                + "SUM(d.unit_price * d.quantity * (1 - d.discount)) FROM order_details d LEFT JOIN orders o ON o.order_id = d.order_id "
                + "LEFT JOIN customers c ON c.customer_id = o.customer_id GROUP BY 1, 2 ORDER BY 1, 2")), rows(e));
    }

    @ParameterizedTest
    @ValueSource(strings = {"demo", "chinook", "northwind", "pagila"})
    void aMetricGroupedByAListedDimensionNeverFansOut(String db) throws Exception {
        Served s = served(db);
        int checked = 0;
        for (JsonNode m : s.call("list_metrics", Map.of()).data().get("metrics")) {
            List<String> dimensions = new ArrayList<>();
            s.call("describe_entity", Map.of("name", m.get("entity").asText())).data().get("dimensions").forEach(d -> {
                if (d.get("groupable").asBoolean()) {
                    dimensions.add(d.get("reference").asText());
                }
            });
            assertTrue(dimensions.containsAll(strings(m.get("dimensions"))), "list_metrics names describe_entity's dimensions");
            for (String d : dimensions) {
                // Amounts in several currencies are asked per currency too, as the refusal's recovery says.
                Envelope e = followingTheCurrencyRule(s, args("name", m.get("name").asText(), "group_by", List.of(d), "dry_run", true),
                        new HashMap<>());
                assertNotEquals(Status.DEGRADED, e.status(), () -> m.get("name") + " by " + d + ": " + e.toJson());
                assertNotEquals(Status.ERROR, e.status(), () -> m.get("name") + " by " + d + ": " + e.toJson());
                if (e.status() == Status.SUCCESS) {
                    assertTrue(e.data().get("fan_out_joins").isEmpty(), () -> m.get("name") + " by " + d);
                    checked++;
                }
            }
        }
        assertTrue(checked > 20, db + ": " + checked + " metric × dimension pairs compiled");
    }

    @Test
    void aLimitThatCutsGroupsStaysPartialAndSaysHowManyGroupsThereAre() throws Exception {
        Served northwind = served("northwind");
        Envelope e = northwind.call("get_metric", args("name", "order_details_revenue", "group_by", List.of("customers.country"),
                "order_by", List.of(Map.of("column", "order_details_revenue", "direction", "desc")), "limit", 5));
        assertEquals(Status.PARTIAL, e.status(), e::toJson);
        assertEquals(5, e.data().get("rows").size());
        assertTrue(e.data().get("truncated").asBoolean());
        long groups = TestPostgres.count("northwind", "SELECT COUNT(*) FROM (SELECT c.country FROM order_details d "
                + "LEFT JOIN orders o ON o.order_id = d.order_id LEFT JOIN customers c ON c.customer_id = o.customer_id GROUP BY c.country) g");
        assertTrue(groups > 5);
        assertEquals(groups, e.data().get("total_groups").asLong());
        Envelope whole = northwind.call("get_metric", args("name", "order_details_revenue", "group_by", List.of("customers.country")));
        assertEquals(Status.SUCCESS, whole.status());
        assertEquals(groups, whole.data().get("total_groups").asLong());
        assertEquals(groups, whole.data().get("rows").size());
    }

    @Test
    void aDimensionHiddenInFreeTextIsRefusedAsAReferenceAndBoundAsAValue() throws Exception {
        Served northwind = served("northwind");
        for (String text : List.of("revenue by customers.country per month", "customers.country; DROP TABLE orders",
                "customers.country -- x", "customers.country\u0000", "customers.\u0441ountry", "x".repeat(600))) {
            Envelope e = northwind.call("get_metric", args("name", "order_details_revenue", "group_by", List.of(text)));
            assertEquals(Status.ERROR, e.status(), e::toJson);
            assertTrue(List.of(ErrorKind.UNKNOWN_GROUP_BY_COLUMN, ErrorKind.INVALID_ARGUMENT).contains(e.error().kind()), e::toJson);
            assertFalse(e.error().message().contains("\n"), "one sentence");
        }
        // As a filter value the same text is a value, bound: it matches no country and the answer is empty, not an error.
        Envelope value = northwind.call("get_metric", args("name", "order_details_revenue", "group_by", List.of("customers.country"),
                "filters", List.of(Map.of("column", "customers.country", "op", "eq", "value", "UK' OR '1'='1"))));
        assertEquals(Status.EMPTY, value.status(), value::toJson);
        assertEquals(List.of("UK' OR '1'='1"), strings(value.data().get("params")).subList(0, 1));
    }

    @Test
    void anExpressionMeasureCannotCarrySqlThroughYaml() throws Exception {
        Served northwind = served("northwind");
        String before = northwind.call("list_metrics", Map.of()).toJson();
        for (String expression : List.of("unit_price * quantity); DROP TABLE orders; --", "pg_sleep(5)",
                "unit_price * quantity -- comment", "unit_price * 'x'", "unit_price /* x */ * quantity", "(SELECT 1)")) {
            Path project = dir.resolve("evil_" + Math.abs(expression.hashCode()));
            Files.createDirectories(project.resolve("metrics"));
            Files.writeString(project.resolve("metrics/evil.yaml"), "version: 1\nname: evil\nentity: order_details\n"
                    + "measure: {agg: sum, expression: \"" + expression.replace("\"", "\\\"") + "\"}\n");
            InProcessCli.Result r = InProcessCli.run("--store", northwind.store().toString(), "apply", project.toString());
            assertEquals(2, r.exitCode(), expression + ": " + r.stdout() + r.stderr());
            assertTrue(r.stderr().contains("evil.yaml"), "names the file: " + r.stderr());
            assertEquals(1, r.stderr().strip().lines().count(), "one sentence: " + r.stderr());
        }
        assertEquals(before, northwind.call("list_metrics", Map.of()).toJson(), "nothing was applied");
        assertEquals(830, TestPostgres.count("northwind", "SELECT COUNT(*) FROM orders"));
    }

    @Test
    void describeEntityListsOwnAndInheritedDimensionsWithPiiTagsAndTheTimeAxes() throws Exception {
        Served northwind = served("northwind");
        JsonNode data = northwind.call("describe_entity", Map.of("name", "order_details")).data();
        List<String> refs = new ArrayList<>();
        data.get("dimensions").forEach(d -> refs.add(d.get("reference").asText()));
        assertTrue(refs.containsAll(List.of("orders.order_date", "orders.ship_country", "customers.country", "employees.last_name",
                "products.product_name", "categories.category_name")), refs.toString());
        assertFalse(refs.contains("orders.ship_address"), "free text is not a dimension");
        assertFalse(refs.contains("order_details.order_id"), "keys are not dimensions");
        assertTrue(refs.stream().noneMatch(r -> r.endsWith(".phone")), refs.toString());
        assertEquals(List.of("order_details_orders", "orders_customers"), strings(dimension(northwind, "order_details", "customers.country").get("joins")));
        JsonNode lastName = dimension(northwind, "order_details", "employees.last_name");
        assertFalse(strings(lastName.get("pii_categories")).isEmpty(), "a name carries its PII tag");
        assertEquals("orders.order_date", data.get("default_time_dimension").asText());
        List<String> times = new ArrayList<>();
        data.get("time_dimensions").forEach(t -> times.add(t.get("reference").asText()));
        assertEquals("orders.order_date", times.get(0));
        assertTrue(times.containsAll(List.of("orders.required_date", "orders.shipped_date")), "the others are listed: " + times);
        JsonNode metric = null;
        for (JsonNode m : northwind.call("list_metrics", Map.of()).data().get("metrics")) {
            if (m.get("name").asText().equals("order_details_revenue")) {
                metric = m;
            }
        }
        assertNotNull(metric);
        assertEquals("orders.order_date", metric.get("time_dimension").asText());
        assertEquals(List.of("order_details_orders"), strings(metric.get("time_dimension_joins")));
        assertTrue(strings(metric.get("other_time_dimensions")).contains("orders.shipped_date"));
        assertFalse(strings(metric.get("dimensions")).contains("employees.last_name"), "not groupable under the default policy");
        for (JsonNode m : served("chinook").call("list_metrics", Map.of()).data().get("metrics")) {
            if (m.get("name").asText().equals("customer_count")) {
                assertTrue(m.get("time_dimension").isNull(), "a customer is not dated by its support rep's hire date");
            }
        }
    }

    static JsonNode dimension(Served s, String entity, String reference) {
        for (JsonNode d : s.call("describe_entity", Map.of("name", entity)).data().get("dimensions")) {
            if (d.get("reference").asText().equals(reference)) {
                return d;
            }
        }
        throw new AssertionError(entity + " lists no dimension " + reference);
    }

    static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
