package dev.schemabrain.mcp.tools;

import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.mcp.tool.CallAudit;
import dev.schemabrain.mcp.tool.ToolCall;
import dev.schemabrain.served.StoreCatalogProvider;
import com.fasterxml.jackson.databind.JsonNode;
import dev.schemabrain.access.Access;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.execute.ExecutorSettings;
import dev.schemabrain.execute.QueryExecutor;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.testing.IndexedSqlite;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * validate_query and execute on a real SQLite file: SQLite's own incident classes (load_extension, PRAGMA, ATTACH,
 * sqlite_master, a second statement) and PII laundering refused, the file unchanged; the small-group rule's HAVING
 * runs on SQLite, grouped and ungrouped, and equals hand-written SQL.
 */
class SqlToolsSqliteTest {

    @TempDir
    static Path dir;
    static Path file;
    static QueryExecutor executor;
    static ToolRegistry tools;

    @BeforeAll
    static void serve() throws Exception {
        List<String> ddl = new ArrayList<>(List.of(
                "CREATE TABLE customer (customer_id INTEGER PRIMARY KEY, first_name TEXT, last_name TEXT, email TEXT,"
                        + " phone TEXT, birth_date TEXT, country TEXT)",
                "CREATE TABLE product (product_id INTEGER PRIMARY KEY, name TEXT, category TEXT, price NUMERIC)",
                "CREATE TABLE orders (order_id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customer(customer_id),"
                        + " product_id INTEGER REFERENCES product(product_id), amount NUMERIC, ordered_at TEXT)"));
        String[] countries = {"USA", "USA", "USA", "Canada", "Canada", "Canada", "France", "Chile"};
        for (int i = 1; i <= 24; i++) {
            ddl.add("INSERT INTO customer VALUES (" + i + ", 'First" + i + "', 'Last" + i + "', 'person" + i
                    + "@example.com', '+1 555 010" + (i % 10) + "', '1980-01-" + (10 + i % 18) + "', '"
                    + countries[i % countries.length] + "')");
        }
        for (int i = 1; i <= 6; i++) {
            ddl.add("INSERT INTO product VALUES (" + i + ", 'Product " + i + "', '" + (i % 2 == 0 ? "books" : "games")
                    + "', " + (i * 3.5) + ")");
        }
        for (int i = 1; i <= 120; i++) {
            ddl.add("INSERT INTO orders VALUES (" + i + ", " + (1 + i % 24) + ", " + (1 + i % 6) + ", " + (i % 17 + 0.25)
                    + ", '2024-0" + (1 + i % 6) + "-15')");
        }
        Path store = IndexedSqlite.index(dir, "sqltools_shop", Map.of(), ddl.toArray(String[]::new));
        file = dir.resolve("sqltools_shop.sqlite");
        executor = new QueryExecutor(SourceUrl.parse("sqlite:" + file), ExecutorSettings.defaults());
        tools = StandardTools.registry(new StoreCatalogProvider(store), Optional.of(executor));
    }

    @AfterAll
    static void close() {
        executor.close();
    }

    static JsonNode call(String tool, String sql) {
        return tools.call(tool, Map.of("sql", sql), "test", Access.UNRESTRICTED).toTree();
    }

    static List<List<String>> bare(String sql) throws Exception {
        return SqlAnswers.sqliteRows(file, sql);
    }

    @Test
    void sqlitesIncidentClassesAndLaunderingAreRefusedAndTheFileIsUnchanged() throws Exception {
        byte[] before = Files.readAllBytes(file);
        List<String> refused = List.of(
                "SELECT load_extension('/tmp/evil.so')",
                "PRAGMA writable_schema = 1",
                "SELECT * FROM pragma_table_info('customer')",
                "ATTACH DATABASE '/tmp/x.db' AS x",
                "SELECT sql FROM sqlite_master",
                "SELECT readfile('/etc/passwd')",
                "SELECT 1; DELETE FROM orders",
                "WITH d AS (DELETE FROM orders RETURNING 1) SELECT 1",
                "VACUUM INTO '/tmp/copy.db'",
                "SELECT email FROM customer",
                "SELECT phone AS remark FROM customer",
                "SELECT group_concat(email) FROM customer",
                "SELECT CASE WHEN birth_date < '1980-01-15' THEN 'old' ELSE 'young' END FROM customer",
                "WITH c AS (SELECT email AS e FROM customer) SELECT e FROM c",
                "SELECT name FROM product UNION ALL SELECT email FROM customer",
                "SELECT count(*) FROM customer WHERE email LIKE 'person1%'",
                "SELECT order_id, amount FROM orders");
        SqlAnswers.refusedByBoth(tools, refused);
        for (String sql : refused) {
            JsonNode e = call("execute", sql);
            assertEquals("refused", e.path("status").asText(), () -> sql + ": " + e);
            assertFalse(e.path("error").path("recovery").path("suggested_rewrite").asText().isBlank(), sql);
        }
        assertTrue(Arrays.equals(before, Files.readAllBytes(file)), "the SQLite file is unchanged");
    }

    @Test
    void groupedAndUngroupedAggregatesEqualHandWrittenSqlWithTheSmallGroupRule() throws Exception {
        String byCountry = "SELECT c.country, count(*) AS orders, sum(o.amount) AS revenue FROM orders o"
                + " JOIN customer c ON c.customer_id = o.customer_id GROUP BY c.country ORDER BY c.country";
        JsonNode answer = call("execute", byCountry);
        assertEquals("degraded", answer.path("status").asText(), answer::toString);
        assertEquals("small_groups_suppressed", answer.path("degradation_reason").asText());
        List<List<String>> rows = SqlAnswers.rows(answer);
        List<List<String>> expected = bare("SELECT c.country, count(*), sum(o.amount) FROM orders o JOIN customer c"
                + " ON c.customer_id = o.customer_id GROUP BY c.country HAVING count(DISTINCT o.customer_id) >= 5"
                + " ORDER BY c.country");
        assertEquals(expected, rows);
        assertFalse(rows.stream().anyMatch(r -> r.get(0).equals("Chile") || r.get(0).equals("France")),
                "countries of three customers are left out, not listed");
        assertEquals(bare("SELECT count(DISTINCT country) FROM customer").get(0).get(0),
                String.valueOf(rows.size() + answer.path("data").path("suppressed_groups").asInt()),
                "the withheld groups are counted");
        JsonNode total = call("execute", "SELECT sum(amount) FROM orders");
        // The caller's own SQL, not an authored metric: labelled so, and never HIGH.
        assertEquals("caller_sql", total.path("provenance").path("inference_method").asText(), total::toString);
        assertEquals("MEDIUM", total.path("confidence").asText(), total::toString);
        assertEquals(bare("SELECT sum(amount) FROM orders").get(0).get(0),
                DataSubjectsTest.plain(total.path("data").path("rows").get(0).get(0).decimalValue()), total::toString);
        // Products have no people behind them: listed as they are.
        JsonNode products = call("execute", "SELECT name, price FROM product ORDER BY product_id");
        assertEquals(6, products.path("data").path("row_count").asInt(), products::toString);
        JsonNode cut = tools.call("execute", Map.of("sql", "SELECT name FROM product", "limit", 2), "test",
                Access.UNRESTRICTED).toTree();
        assertEquals("partial", cut.path("status").asText(), cut::toString);
        assertEquals(2, cut.path("data").path("rows").size());
    }

    @Test
    void theAuditRecordsEveryStatementThatLeavesByAFingerprintWithoutItsLiterals() throws Exception {
        List<String> before = new ArrayList<>();
        List<String> completed = new ArrayList<>();
        ToolRegistry audited = tools.audited(new CallAudit() {
            @Override
            public void beforeSql(ToolCall call, String fingerprint) {
                before.add(fingerprint);
            }

            @Override
            public void completed(ToolCall call, Envelope result) {
                completed.add(call.tool() + ":" + result.status().name());
            }
        });
        for (String sql : List.of("SELECT email FROM customer", "SELECT load_extension('x')", "SELECT 1; SELECT 2")) {
            audited.call("execute", Map.of("sql", sql), "test", Access.UNRESTRICTED);
        }
        assertEquals(List.of(), before, "no refused statement left");
        assertEquals(3, completed.size(), "every refused call is still recorded");
        JsonNode books = audited.call("execute", Map.of("sql", "SELECT count(*) FROM product WHERE category = 'books'"),
                "test", Access.UNRESTRICTED).toTree();
        JsonNode games = audited.call("execute", Map.of("sql", "SELECT count(*) FROM product WHERE category = 'games'"),
                "test", Access.UNRESTRICTED).toTree();
        assertEquals(2, before.size());
        assertEquals(before.get(0), before.get(1), "the fingerprint keys the statement, not its literals");
        assertEquals(before.get(0), books.path("data").path("sql_fingerprint").asText());
        assertFalse(before.get(0).contains("books"));
        assertEquals("3", DataSubjectsTest.plain(games.path("data").path("rows").get(0).get(0).decimalValue()));
    }
}
