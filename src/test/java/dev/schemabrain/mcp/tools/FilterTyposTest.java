package dev.schemabrain.mcp.tools;

import dev.schemabrain.served.StoreCatalogProvider;
import dev.schemabrain.served.ServedCatalog;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemabrain.access.Access;
import dev.schemabrain.access.AccessPolicy;
import dev.schemabrain.access.Caller;
import dev.schemabrain.access.Role;
import dev.schemabrain.access.RowFilter;
import dev.schemabrain.access.TablePattern;
import dev.schemabrain.catalog.Column;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.execute.BoundQuery;
import dev.schemabrain.execute.ExecutorSettings;
import dev.schemabrain.execute.QueryExecutor;
import dev.schemabrain.index.IndexListener;
import dev.schemabrain.index.Indexer;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.semantic.model.Aggregation;
import dev.schemabrain.semantic.model.Entity;
import dev.schemabrain.semantic.model.Metric;
import dev.schemabrain.source.Sources;
import dev.schemabrain.testing.TestMariaDb;
import dev.schemabrain.testing.TestPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A typo in a text filter value (issue 46, class 6) through get_metric on real databases: refused with the nearest
 * values the catalog shows and a retry with the meant one; a correct value the index never read (past its first 1000
 * rows) still answers as hand-written SQL does; and suggestions never reveal a value the caller is not shown.
 */
class FilterTyposTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> STATUSES = List.of("shipped", "pending", "delivered", "cancelled");
    private static final List<String> CURRENCIES = List.of("EUR", "USD", "GBP");
    private static final List<String> CARRIERS = List.of("dhl", "parcelforce", "hermes");
    /** Orders in all; the last {@link #RARE} ship with a carrier the index reads no row of. */
    private static final int ORDERS = 1500;
    private static final int RARE = 12;

    @TempDir
    static Path dir;
    private static String maria;
    private static final Map<String, Served> SERVED = new HashMap<>();

    record Served(String url, Path store, String metric, String order, String customer) {
    }

    @BeforeAll
    static void create() throws Exception {
        TestPostgres.createDatabase("sb_filter_typos", ddl().toArray(String[]::new));
        maria = TestMariaDb.create("sb_typos", ddl().toArray(String[]::new));
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("orders.sqlite"));
             Statement st = c.createStatement()) {
            for (String s : ddl()) {
                st.execute(s);
            }
        }
    }

    @AfterAll
    static void drop() throws Exception {
        TestMariaDb.drop(maria);
    }

    private static List<String> ddl() {
        List<String> out = new ArrayList<>();
        out.add("CREATE TABLE customer (customer_id INTEGER PRIMARY KEY, gender VARCHAR(10) NOT NULL)");
        out.add("CREATE TABLE food_order (order_id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL REFERENCES customer (customer_id),"
                + " status VARCHAR(20) NOT NULL, currency VARCHAR(3) NOT NULL, carrier VARCHAR(20) NOT NULL, amount_cents INTEGER NOT NULL)");
        List<String> customers = new ArrayList<>();
        for (int c = 1; c <= 40; c++) {
            customers.add("(" + c + ", '" + List.of("female", "male", "diverse").get(c % 3) + "')");
        }
        out.add("INSERT INTO customer VALUES " + String.join(", ", customers));
        List<String> orders = new ArrayList<>();
        for (int i = 1; i <= ORDERS; i++) {
            String carrier = i > ORDERS - RARE ? "parcelforce24" : CARRIERS.get(i % 3);
            orders.add("(" + i + ", " + (i % 40 + 1) + ", '" + STATUSES.get(i % 4) + "', '" + CURRENCIES.get(i % 3) + "', '"
                    + carrier + "', " + (100 + i % 70) + ")");
        }
        out.add("INSERT INTO food_order VALUES " + String.join(", ", orders));
        return out;
    }

    private static synchronized Served served(String engine) throws Exception {
        Served known = SERVED.get(engine);
        if (known != null) {
            return known;
        }
        String url = switch (engine) {
            case "postgresql" -> TestPostgres.url("sb_filter_typos");
            case "mariadb" -> TestMariaDb.url(maria);
            default -> "sqlite:" + dir.resolve("orders.sqlite");
        };
        Path store = dir.resolve("store-" + engine + ".db");
        SourceUrl source = SourceUrl.parse(url);
        try (SchemaSource s = Sources.open(source)) {
            new Indexer().run(source, s, store, false, IndexListener.SILENT);
        }
        ServedCatalog catalog = new StoreCatalogProvider(store).current().orElseThrow();
        String order = entity(catalog, "food_order");
        String metric = catalog.semantic().metrics().stream()
                .filter(m -> m.entity().equals(order) && m.measure().agg() == Aggregation.COUNT).map(Metric::name)
                .findFirst().orElseThrow(() -> new AssertionError(catalog.semantic().metrics().toString()));
        Served s = new Served(url, store, metric, order, entity(catalog, "customer"));
        SERVED.put(engine, s);
        return s;
    }

    private static String entity(ServedCatalog catalog, String table) {
        return catalog.semantic().entities().stream().filter(e -> e.table().table().equals(table)).map(Entity::name)
                .findFirst().orElseThrow();
    }

    private static Column column(Served s, String table, String column) {
        ServedCatalog catalog = new StoreCatalogProvider(s.store()).current().orElseThrow();
        return catalog.catalog().tables().stream().filter(t -> t.name().table().equals(table)).findFirst().orElseThrow()
                .column(column).orElseThrow();
    }

    private static Map<String, Object> filter(String column, String op, Object value) {
        return Map.of("column", column, "op", op, "value", value);
    }

    private static JsonNode call(QueryExecutor executor, Served s, Map<String, Object> args) {
        ToolRegistry tools = StandardTools.registry(new StoreCatalogProvider(s.store()), Optional.of(executor));
        return JSON.valueToTree(tools.call("get_metric", args));
    }

    private static JsonNode metric(QueryExecutor executor, Served s, Map<String, Object>... filters) {
        return call(executor, s, Map.of("name", s.metric(), "filters", List.of(filters)));
    }

    private static long handWritten(QueryExecutor executor, String where) throws Exception {
        return ((Number) executor.execute(new BoundQuery("SELECT COUNT(*) FROM food_order WHERE " + where, List.of()), 1)
                .rows().get(0).get(0)).longValue();
    }

    private static long value(JsonNode answer) {
        JsonNode rows = answer.path("data").path("rows");
        assertEquals(1, rows.size(), answer.toString());
        JsonNode v = null;
        for (JsonNode field : rows.get(0)) {
            v = field;
        }
        return v.asLong();
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb", "sqlite"})
    void aTypoIsRefusedWithTheNearestValueAndARetryThatAnswers(String engine) throws Exception {
        Served s = served(engine);
        try (QueryExecutor executor = new QueryExecutor(SourceUrl.parse(s.url()), ExecutorSettings.defaults())) {
            Map<String, Object> usd = filter(s.order() + ".currency", "eq", "USD");
            JsonNode typo = metric(executor, s, usd, filter(s.order() + ".status", "eq", "Shiped"));
            JsonNode error = typo.path("error");
            assertEquals("invalid_argument", error.path("kind").asText(), typo.toString());
            assertEquals("No " + s.order() + ".status is 'Shiped'; the nearest value is shipped.", error.path("message").asText());
            assertEquals(List.of("shipped"), JSON.convertValue(error.path("recovery").path("fuzzy_matches"), List.class));
            JsonNode retry = error.path("recovery");
            assertEquals("get_metric", retry.path("suggested_tool").asText(), retry.toString());
            assertEquals(JSON.valueToTree(List.of(usd, filter(s.order() + ".status", "eq", "shipped"))),
                    retry.path("suggested_args").path("filters"), "the caller's other filter is kept: " + retry);
            JsonNode fixed = call(executor, s, JSON.convertValue(retry.path("suggested_args"), Map.class));
            assertEquals(handWritten(executor, "currency = 'USD' AND status = 'shipped'"), value(fixed), fixed.toString());

            // An in list with one typo: the retry replaces that value only.
            JsonNode euro = metric(executor, s, filter(s.order() + ".currency", "in", List.of("EURO", "GBP")));
            assertEquals("invalid_argument", euro.path("error").path("kind").asText(), euro.toString());
            assertEquals(JSON.valueToTree(List.of(filter(s.order() + ".currency", "in", List.of("EUR", "GBP")))),
                    euro.path("error").path("recovery").path("suggested_args").path("filters"), euro.toString());
            // ne would silently count every row.
            JsonNode ne = metric(executor, s, filter(s.order() + ".status", "ne", "deliverd"));
            assertEquals("delivered", ne.path("error").path("recovery").path("fuzzy_matches").path(0).asText(), ne.toString());

            // The probe compares as the query does: MariaDB's collation finds SHIPPED, the others hold none.
            JsonNode shouted = metric(executor, s, filter(s.order() + ".status", "eq", "SHIPPED"));
            if (engine.equals("mariadb")) {
                assertEquals(handWritten(executor, "status = 'shipped'"), value(shouted), shouted.toString());
            } else {
                assertEquals("shipped", shouted.path("error").path("recovery").path("suggested_args").path("filters")
                        .path(0).path("value").asText(), shouted.toString());
            }

            // Far from every known value: no probe, answered as before (no row holds it).
            JsonNode far = metric(executor, s, filter(s.order() + ".status", "eq", "returned"));
            assertTrue(far.path("error").isMissingNode() || far.path("error").isNull(), far.toString());
            assertEquals(0, handWritten(executor, "status = 'returned'"));
        }
    }

    /** The analyst's case: a real value the index never read is close to a known one, and still answers. */
    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb", "sqlite"})
    void aRareValueAbsentFromTheIndexedValuesStillAnswers(String engine) throws Exception {
        Served s = served(engine);
        List<String> known = column(s, "food_order", "carrier").values();
        assertTrue(known.contains("parcelforce") && !known.contains("parcelforce24"), known.toString());
        try (QueryExecutor executor = new QueryExecutor(SourceUrl.parse(s.url()), ExecutorSettings.defaults())) {
            JsonNode answer = metric(executor, s, filter(s.order() + ".carrier", "eq", "parcelforce24"));
            long expected = handWritten(executor, "carrier = 'parcelforce24'");
            assertEquals(RARE, expected);
            assertEquals(expected, value(answer), answer.toString());
            JsonNode list = metric(executor, s, filter(s.order() + ".carrier", "in", List.of("parcelforce24", "dhl")));
            assertEquals(handWritten(executor, "carrier IN ('parcelforce24', 'dhl')"), value(list), list.toString());
        }
    }

    /**
     * The attacker's case: guessing near a value the index never read is refused with known values only, never the
     * database's value; a PII column, whose values the catalog does not hold, gives no suggestion at all.
     */
    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb", "sqlite"})
    void suggestionsComeOnlyFromValuesTheCallerIsShown(String engine) throws Exception {
        Served s = served(engine);
        List<String> known = column(s, "food_order", "carrier").values();
        try (QueryExecutor executor = new QueryExecutor(SourceUrl.parse(s.url()), ExecutorSettings.defaults())) {
            JsonNode probe = metric(executor, s, filter(s.order() + ".carrier", "eq", "parcelforce2"));
            JsonNode error = probe.path("error");
            assertEquals("invalid_argument", error.path("kind").asText(), probe.toString());
            List<?> suggested = JSON.convertValue(error.path("recovery").path("fuzzy_matches"), List.class);
            assertEquals(List.of("parcelforce"), suggested, probe.toString());
            assertTrue(known.containsAll(suggested), suggested + " within " + known);
            assertFalse(probe.toString().contains("parcelforce24"), probe.toString());

            assertEquals(List.of(), column(s, "customer", "gender").values(), "a PII column keeps no values");
            for (String guess : List.of("femal", "Male", "divers")) {
                JsonNode pii = metric(executor, s, filter(s.customer() + ".gender", "eq", guess));
                String text = pii.toString();
                assertFalse(text.contains("female") || text.contains("diverse") || text.contains("\"male"), text);
                assertNotEquals("invalid_argument", pii.path("error").path("kind").asText(), text);
            }
        }
    }

    /**
     * Under a row filter the indexed values may be other callers' rows: the caller's view holds none, so a value near
     * one of them is neither suggested nor probed, and the call answers as before.
     */
    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb", "sqlite"})
    void aRowFilteredCallerIsShownNoOtherRowsValues(String engine) throws Exception {
        Served s = served(engine);
        ServedCatalog catalog = new StoreCatalogProvider(s.store()).current().orElseThrow();
        String schema = catalog.catalog().tables().get(0).name().schema();
        Role role = new Role("r", List.of(new TablePattern(schema, "customer"), new TablePattern(schema, "food_order")),
                Optional.empty(), List.of(new RowFilter(s.customer(), s.customer() + ".customer_id", RowFilter.Op.IN, "ids")),
                Set.of(), OptionalInt.empty(), Optional.empty());
        Access own = new AccessPolicy(Map.of("r", role), Optional.empty())
                .resolve(new Caller("token:typo", Optional.of("r"), Map.of("ids", "7")));
        try (QueryExecutor executor = new QueryExecutor(SourceUrl.parse(s.url()), ExecutorSettings.defaults())) {
            ToolRegistry tools = StandardTools.registry(new StoreCatalogProvider(s.store()), Optional.of(executor));
            Map<String, Object> args = Map.of("name", s.metric(), "filters", List.of(filter(s.order() + ".carrier", "eq", "parcelforc")));
            assertTrue(tools.call("get_metric", args).toJson().contains("invalid_argument"), "unrestricted, it is a typo");
            String answer = tools.call("get_metric", args, "t", own).toJson();
            assertFalse(answer.contains("invalid_argument") || answer.contains("\"parcelforce\""), answer);
        }
    }
}
