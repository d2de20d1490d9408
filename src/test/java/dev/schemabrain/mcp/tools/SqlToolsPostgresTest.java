package dev.schemabrain.mcp.tools;

import dev.schemabrain.served.StoreCatalogProvider;
import com.fasterxml.jackson.databind.JsonNode;
import dev.schemabrain.access.Access;
import dev.schemabrain.access.AccessPolicy;
import dev.schemabrain.access.AccessPolicyFile;
import dev.schemabrain.access.Caller;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.execute.ExecutorSettings;
import dev.schemabrain.execute.QueryExecutor;
import dev.schemabrain.index.IndexListener;
import dev.schemabrain.index.Indexer;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.source.Sources;
import dev.schemabrain.testing.TestPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * validate_query and execute on real PostgreSQL (Chinook): the field's incident classes and PII laundering are
 * refused before any SQL leaves (pg_stat_statements sees none of them), an analyst's aggregates equal hand-written
 * SQL, and a role's allow-list and row filters hold by rewriting.
 */
class SqlToolsPostgresTest {

    static final String DB = "chinook";   // chinook.sql creates its own database

    @TempDir
    static Path dir;
    static QueryExecutor executor;
    static ToolRegistry tools;

    @BeforeAll
    static void serve() throws Exception {
        TestPostgres.loadSample(DB, "chinook.sql");
        SourceUrl url = SourceUrl.parse(TestPostgres.url(DB));
        Path store = dir.resolve(DB + ".db");
        try (SchemaSource source = Sources.open(url)) {
            new Indexer().run(url, source, store, false, IndexListener.SILENT);
        }
        executor = new QueryExecutor(url, ExecutorSettings.defaults());
        tools = StandardTools.registry(new StoreCatalogProvider(store), Optional.of(executor));
    }

    @AfterAll
    static void close() {
        executor.close();
    }

    static JsonNode call(String tool, String sql) {
        return call(tool, sql, Access.UNRESTRICTED);
    }

    static JsonNode call(String tool, String sql, Access access) {
        Envelope e = tools.call(tool, Map.of("sql", sql), "test", access);
        return e.toTree();
    }

    static List<List<String>> bare(String sql) throws Exception {
        try (Connection c = TestPostgres.connect(DB); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            return SqlAnswers.rows(rs);
        }
    }

    static List<List<String>> rows(JsonNode answer) {
        return SqlAnswers.rows(answer);
    }

    static void resetStatements() throws Exception {
        try (Connection c = TestPostgres.connect("postgres"); Statement st = c.createStatement()) {
            st.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
            st.execute("SELECT pg_stat_statements_reset()");
        }
    }

    /** The statements the Chinook database ran since the last reset whose text is LIKE {@code pattern}. */
    static List<String> statements(String pattern) throws Exception {
        List<String> seen = new ArrayList<>();
        try (Connection c = TestPostgres.connect("postgres");
             PreparedStatement st = c.prepareStatement("SELECT query FROM pg_stat_statements s JOIN pg_database d"
                     + " ON d.oid = s.dbid WHERE d.datname = ? AND query LIKE ?")) {
            st.setString(1, DB);
            st.setString(2, pattern);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    seen.add(rs.getString(1));
                }
            }
        }
        return seen;
    }

    /** The field's incident classes, each one refused before any SQL leaves. */
    static final List<String> ATTACKS = List.of(
            "COMMIT; DROP SCHEMA public CASCADE",
            "SELECT 1; DROP TABLE invoice",
            "SELECT pg_read_file('/etc/passwd')",
            "SELECT * FROM pg_catalog.pg_authid",
            "SELECT usename FROM pg_user",
            "SELECT table_name FROM information_schema.tables",
            "WITH d AS (DELETE FROM invoice RETURNING *) SELECT count(*) FROM d",
            "WITH u AS (UPDATE invoice SET total = 0 RETURNING 1) SELECT 1",
            "SELECT * FROM invoice FOR UPDATE",
            "SELECT pg_sleep(5)",
            "SELECT lo_import('/etc/passwd')",
            "SELECT set_config('statement_timeout', '0', false)",
            "SELECT dblink('host=evil', 'SELECT 1')",
            "SELECT /*! SLEEP(5) */ 1",
            "SELECT * INTO stolen FROM invoice",
            "COPY invoice TO '/tmp/x'",
            "EXPLAIN ANALYZE SELECT * FROM invoice",
            "SET statement_timeout = 0",
            "SELECT pg_advisory_lock(1)",
            "SELECT * FROM invoice; SELECT * FROM customer",
            "SELECT query_to_xml('DELETE FROM invoice', true, true, '')",
            "SELECT * FROM nosuchtable");

    /** Personal values laundered through names, expressions and query structure. */
    static final List<String> LAUNDERING = List.of(
            "SELECT email FROM customer",
            "SELECT phone AS remark FROM customer",
            "SELECT c.email AS x FROM invoice i JOIN customer c ON c.customer_id = i.customer_id",
            "SELECT upper(email) FROM customer",
            "SELECT substring(phone, 1, 3) FROM customer",
            "SELECT first_name || ' ' || last_name FROM customer",
            "SELECT CAST(phone AS varchar(40)) FROM customer",
            "SELECT CASE WHEN email LIKE 'a%' THEN 1 ELSE 0 END FROM customer",
            "SELECT sum(CASE WHEN email LIKE 'a%' THEN 1 ELSE 0 END) FROM customer",
            "SELECT count(*) FROM customer WHERE email LIKE 'a%'",
            "SELECT count(*) FROM customer WHERE email = 'luisg@embraer.com.br'",
            "SELECT x FROM (SELECT email AS x FROM customer) s",
            "WITH c AS (SELECT phone AS p FROM customer) SELECT p FROM c",
            "SELECT string_agg(email, ',') FROM customer",
            "SELECT max(email) FROM customer",
            "SELECT first_value(email) OVER (ORDER BY customer_id) FROM customer",
            "SELECT name FROM artist UNION SELECT email FROM customer",
            "SELECT country, count(*) FROM customer GROUP BY country, email",
            "SELECT (SELECT email FROM customer c WHERE c.customer_id = i.customer_id) FROM invoice i",
            "SELECT * FROM customer",
            "SELECT customer_id, country FROM customer",
            "SELECT invoice_id, total FROM invoice");

    @Test
    void nothingRefusedReachesTheDatabase() throws Exception {
        resetStatements();
        List<String> all = new ArrayList<>(ATTACKS);
        all.addAll(LAUNDERING);
        SqlAnswers.refusedByBoth(tools, all);
        for (String sql : LAUNDERING) {
            JsonNode e = call("execute", sql);
            assertEquals("pii_blocked", e.path("error").path("kind").asText(), () -> sql + ": " + e);
            assertFalse(e.path("error").path("recovery").path("suggested_rewrite").asText().isBlank(), sql);
        }
        assertEquals(List.of(), statements("%"), "no statement reached the database");
        assertEquals("412", bare("SELECT count(*) FROM invoice").get(0).get(0), "invoice is intact");
    }

    @Test
    void allowedStatementsRunOnlyAsTheRewrittenSelect() throws Exception {
        resetStatements();
        JsonNode e = call("execute", "SELECT g.name, count(*) AS tracks FROM track t JOIN genre g ON g.genre_id = t.genre_id"
                + " GROUP BY g.name ORDER BY tracks DESC");
        assertEquals("success", e.path("status").asText(), e::toString);
        String sql = e.path("data").path("sql").asText();
        List<String> ran = statements("%genre%");
        assertEquals(1, ran.size(), ran::toString);
        assertTrue(ran.get(0).endsWith(sql.replace("LIMIT 1001", "LIMIT $1")) || ran.get(0).contains("LIMIT"), ran::toString);
        assertTrue(ran.get(0).contains("GROUP BY g.name ORDER BY tracks DESC LIMIT"), ran::toString);
    }

    @Test
    void anAnalystsAggregatesEqualHandWrittenSql() throws Exception {
        // No people behind genres and tracks: the answer is the bare query's, row for row.
        String genres = "SELECT g.name, count(*) AS tracks, sum(t.unit_price) AS value FROM track t"
                + " JOIN genre g ON g.genre_id = t.genre_id GROUP BY g.name ORDER BY tracks DESC, g.name";
        assertEquals(bare(genres), rows(call("execute", genres)));
        // Revenue by country: every country whose invoices come from at least five customers, same numbers.
        String revenue = "SELECT billing_country, sum(total) AS revenue FROM invoice GROUP BY billing_country ORDER BY 1";
        JsonNode answer = call("execute", revenue);
        assertEquals(bare("SELECT billing_country, sum(total) FROM invoice GROUP BY billing_country"
                + " HAVING count(DISTINCT customer_id) >= 5 ORDER BY 1"), rows(answer));
        assertEquals(5, answer.path("data").path("min_group_size").asInt());
        assertTrue(rows(answer).size() < bare(revenue).size(), "small countries are left out, not listed");
        assertEquals("degraded", answer.path("status").asText());
        assertEquals(bare(revenue).size() - rows(answer).size(), answer.path("data").path("suppressed_groups").asInt());
        // A CTE and a join, the way an analyst writes a monthly report.
        String monthly = "WITH m AS (SELECT date_trunc('month', invoice_date) AS month, total, customer_id FROM invoice)"
                + " SELECT extract(year FROM month) AS y, sum(total) FROM m GROUP BY 1 ORDER BY 1";
        JsonNode cte = call("execute", monthly);
        assertEquals("success", cte.path("status").asText(), cte::toString);
        assertTrue(cte.path("data").path("sql").asText().contains("HAVING count(DISTINCT m.customer_id) >= 5"), cte::toString);
        assertEquals(bare(monthly), rows(cte), "every year has more than five customers");
        // The same through a subquery; a CTE that drops the person's key cannot be counted and is refused.
        String sub = "SELECT s.country, count(*) FROM (SELECT * FROM customer) s GROUP BY s.country ORDER BY 1";
        assertEquals(bare("SELECT country, count(*) FROM customer GROUP BY country HAVING count(*) >= 5 ORDER BY 1"),
                rows(call("execute", sub)));
        JsonNode keyless = call("execute", "WITH m AS (SELECT total FROM invoice) SELECT sum(total) FROM m");
        assertEquals("pii_blocked", keyless.path("error").path("kind").asText(), keyless::toString);
    }

    @Test
    void aRolesAllowListAndRowFiltersHoldByRewriting() throws Exception {
        AccessPolicy policy = AccessPolicyFile.parse("""
                version: 1
                roles:
                  support:
                    allow: [public.customer, public.invoice, public.invoice_line]
                    min_group_size: 1
                    row_filters:
                      - {entity: customer, column: customer.support_rep_id, op: eq, claim: employee_id}
                default_role: none
                """, "p.yaml");
        Access rep3 = policy.resolve(new Caller("token:sam", Optional.of("support"), Map.of("employee_id", "3")));
        // A bare name resolves among the role's tables only, and says nothing of the others.
        JsonNode bareName = call("execute", "SELECT count(*) FROM employee", rep3);
        assertEquals("unknown_name", bareName.path("error").path("kind").asText(), bareName::toString);
        assertFalse(bareName.toString().contains("employee_id") || bareName.path("error").path("recovery")
                .path("fuzzy_matches").toString().contains("employee"), bareName::toString);
        JsonNode outside = call("execute", "SELECT count(*) FROM public.employee", rep3);
        assertEquals("allowlist_violation", outside.path("error").path("kind").asText(), outside::toString);
        assertTrue(outside.path("error").path("recovery").path("widening_hint").asText().contains("public.employee"));
        JsonNode joined = call("execute", "SELECT e.last_name FROM customer c JOIN public.employee e ON e.employee_id = c.support_rep_id", rep3);
        assertEquals("allowlist_violation", joined.path("error").path("kind").asText(), joined::toString);

        String byCountry = "SELECT c.country, count(*) AS n FROM customer c GROUP BY c.country ORDER BY c.country";
        JsonNode mine = call("execute", byCountry, rep3);
        assertEquals("success", mine.path("status").asText(), mine::toString);
        assertEquals(bare("SELECT c.country, count(*) FROM customer c WHERE c.support_rep_id = 3 GROUP BY c.country"
                + " ORDER BY c.country"), rows(mine));
        assertEquals(List.of("customer.support_rep_id"), List.of(mine.path("data").path("row_filters").get(0).asText()));
        assertFalse(mine.path("data").path("sql").asText().contains("= 3"), "the claim is a bound parameter");
        // Aliases, subqueries and CTEs reach the filtered table too.
        for (String sql : List.of("SELECT count(*) FROM customer",
                "SELECT count(*) FROM public.customer",
                "SELECT count(*) FROM \"customer\" AS k",
                "SELECT count(*) FROM (SELECT customer_id FROM customer) x",
                "WITH c AS (SELECT * FROM customer) SELECT count(*) FROM c")) {
            JsonNode a = call("execute", sql, rep3);
            assertEquals("success", a.path("status").asText(), () -> sql + ": " + a);
            assertEquals(bare("SELECT count(*) FROM customer WHERE support_rep_id = 3").get(0).get(0), rows(a).get(0).get(0), sql);
        }
        // Invoices belong to customers: each reference to invoice (or invoice_line, two hops) becomes a subselect
        // keeping the rows whose foreign keys lead to this rep's customers, so a bare FROM, a LEFT JOIN, a cross join
        // all count this rep's rows only, as the hand-written chain does.
        String mineInv = "(SELECT * FROM invoice WHERE customer_id IN (SELECT customer_id FROM customer WHERE support_rep_id = 3))";
        String mineCust = "(SELECT * FROM customer WHERE support_rep_id = 3)";
        String mineLines = "(SELECT * FROM invoice_line WHERE invoice_id IN (SELECT invoice_id FROM invoice WHERE"
                + " customer_id IN (SELECT customer_id FROM customer WHERE support_rep_id = 3)))";
        Map<String, String> byChain = new LinkedHashMap<>();
        byChain.put("SELECT count(*) FROM invoice", "SELECT count(*) FROM " + mineInv + " x");
        byChain.put("SELECT sum(i.total) FROM invoice i LEFT JOIN customer c ON c.customer_id = i.customer_id",
                "SELECT sum(i.total) FROM " + mineInv + " i LEFT JOIN " + mineCust + " c ON c.customer_id = i.customer_id");
        byChain.put("SELECT count(*) FROM invoice i CROSS JOIN customer c",
                "SELECT count(*) FROM " + mineInv + " i CROSS JOIN " + mineCust + " c");
        byChain.put("SELECT sum(l.unit_price * l.quantity) FROM invoice_line l",
                "SELECT sum(l.unit_price * l.quantity) FROM " + mineLines + " l");
        byChain.put("SELECT c.country, sum(i.total) FROM invoice i JOIN customer c ON c.customer_id = i.customer_id"
                        + " GROUP BY 1 ORDER BY 1",
                "SELECT c.country, sum(i.total) FROM " + mineInv + " i JOIN " + mineCust + " c ON c.customer_id ="
                        + " i.customer_id GROUP BY 1 ORDER BY 1");
        byChain.put("SELECT count(*) FROM (customer c JOIN invoice_line l ON false) RIGHT JOIN customer d ON true",
                "SELECT count(*) FROM (" + mineCust + " c JOIN " + mineLines + " l ON false) RIGHT JOIN " + mineCust
                        + " d ON true");
        byChain.put("SELECT count(*) FROM invoice WHERE customer_id IN (SELECT customer_id FROM customer)",
                "SELECT count(*) FROM " + mineInv + " x");
        for (Map.Entry<String, String> q : byChain.entrySet()) {
            JsonNode a = call("execute", q.getKey(), rep3);
            assertEquals("success", a.path("status").asText(), () -> q.getKey() + ": " + a);
            assertEquals(bare(q.getValue()), rows(a), q.getKey());
            assertFalse(a.path("data").path("sql").asText().contains("= 3"), "the claim is a bound parameter");
        }
        // The chain does limit: this rep's invoices are fewer than all of them, and more than none.
        long all = TestPostgres.count(DB, "SELECT count(*) FROM invoice");
        long own = Long.parseLong(rows(call("execute", "SELECT count(*) FROM invoice", rep3)).get(0).get(0));
        assertTrue(own > 0 && own < all, own + " of " + all);
        Access noClaim = policy.resolve(new Caller("token:kim", Optional.of("support"), Map.of()));
        JsonNode refused = call("execute", "SELECT count(*) FROM customer", noClaim);
        assertEquals("policy_blocked", refused.path("error").path("kind").asText(), refused::toString);
        // A claim is a value, never SQL: one that is not the column's type refuses rather than widening.
        Access odd = policy.resolve(new Caller("token:eve", Optional.of("support"), Map.of("employee_id", "3 OR 1=1")));
        JsonNode oddAnswer = call("execute", "SELECT count(*) FROM customer", odd);
        assertEquals("policy_blocked", oddAnswer.path("error").path("kind").asText(), oddAnswer::toString);
        Access nobody = policy.resolve(Caller.named("token:nobody"));
        assertEquals("allowlist_violation", call("validate_query", "SELECT count(*) FROM invoice", nobody)
                .path("error").path("kind").asText());
    }

    /** A chain through a table the role cannot see would name it in the SQL validate_query shows: refused. */
    @Test
    void aChainThroughAHiddenTableIsRefusedWithoutNamingIt() throws Exception {
        AccessPolicy policy = AccessPolicyFile.parse("""
                version: 1
                roles:
                  lines:
                    allow: [public.customer, public.invoice_line]
                    min_group_size: 1
                    row_filters:
                      - {entity: customer, column: customer.support_rep_id, op: eq, claim: employee_id}
                default_role: none
                """, "p.yaml");
        Access rep3 = policy.resolve(new Caller("token:lee", Optional.of("lines"), Map.of("employee_id", "3")));
        for (String tool : List.of("validate_query", "execute")) {
            JsonNode a = call(tool, "SELECT sum(unit_price * quantity) FROM invoice_line", rep3);
            assertEquals("policy_blocked", a.path("error").path("kind").asText(), a::toString);
            assertFalse(a.toString().replace("invoice_line", "").contains("invoice"), a::toString);
        }
    }

    @Test
    void aRowWhoseForeignKeyIsNullBelongsToNoFilteredRowAndIsNeverCounted() throws Exception {
        String db = "sqltools_semijoin_nulls";
        TestPostgres.createDatabase(db,
                "CREATE TABLE account (account_id int PRIMARY KEY, owner_id int NOT NULL)",
                "CREATE TABLE sale (sale_id int PRIMARY KEY, account_id int REFERENCES account, amount numeric NOT NULL)",
                "CREATE TABLE refund (refund_id int PRIMARY KEY, sale_id int REFERENCES sale, amount numeric NOT NULL)",
                "INSERT INTO account VALUES (1, 7), (2, 8)",
                "INSERT INTO sale VALUES (10, 1, 100), (11, 2, 1000), (12, NULL, 10000)",
                "INSERT INTO refund VALUES (20, 10, 1), (21, 11, 10), (22, 12, 100), (23, NULL, 1000)",
                "CREATE TABLE transfer (transfer_id int PRIMARY KEY, from_account int NOT NULL REFERENCES account,"
                        + " to_account int NOT NULL REFERENCES account)",
                "INSERT INTO transfer VALUES (30, 1, 2)",
                "CREATE TABLE period (account_id int NOT NULL REFERENCES account, month int, PRIMARY KEY (account_id, month))",
                "CREATE TABLE charge (charge_id int PRIMARY KEY, account_id int NOT NULL, month int NOT NULL,"
                        + " FOREIGN KEY (account_id, month) REFERENCES period)",
                "INSERT INTO period VALUES (1, 1), (2, 1)",
                "INSERT INTO charge VALUES (40, 1, 1), (41, 2, 1)");
        SourceUrl url = SourceUrl.parse(TestPostgres.url(db));
        Path store = dir.resolve(db + ".db");
        try (SchemaSource source = Sources.open(url)) {
            new Indexer().run(url, source, store, false, IndexListener.SILENT);
        }
        try (QueryExecutor own = new QueryExecutor(url, ExecutorSettings.defaults())) {
            ToolRegistry registry = StandardTools.registry(new StoreCatalogProvider(store), Optional.of(own));
            Access owner7 = AccessPolicyFile.parse("""
                    version: 1
                    roles:
                      owner:
                        allow: [public.account, public.sale, public.refund, public.transfer, public.period, public.charge]
                        min_group_size: 1
                        row_filters:
                          - {entity: account, column: account.owner_id, op: eq, claim: owner}
                    default_role: none
                    """, "p.yaml").resolve(new Caller("token:o", Optional.of("owner"), Map.of("owner", "7")));
            // A hostile caller hopes the orphan sale (no account) and orphan refund slip through a NULL key.
            for (Map.Entry<String, String> q : Map.of(
                    "SELECT count(*), sum(amount) FROM sale", "1|100",
                    "SELECT count(*), sum(amount) FROM refund", "1|1",
                    "SELECT count(*) FROM sale s LEFT JOIN account a ON a.account_id = s.account_id", "1",
                    "SELECT count(*) FROM sale WHERE account_id IS NULL", "0").entrySet()) {
                JsonNode a = registry.call("execute", Map.of("sql", q.getKey()), "test", owner7).toTree();
                assertEquals("success", a.path("status").asText(), () -> q.getKey() + ": " + a);
                assertEquals(q.getValue(), String.join("|", rows(a).get(0)), q.getKey());
            }
            JsonNode periods = registry.call("execute", Map.of("sql", "SELECT count(*) FROM period"), "test", owner7).toTree();
            assertEquals("1", rows(periods).get(0).get(0), periods::toString);
            // A transfer belongs to two accounts through two keys (no one chain says whose it is); a charge reaches
            // its account only through a two-column key, which one IN cannot follow: both are refused.
            for (String sql : List.of("SELECT count(*) FROM transfer", "SELECT count(*) FROM charge")) {
                JsonNode two = registry.call("execute", Map.of("sql", sql), "test", owner7).toTree();
                assertEquals("policy_blocked", two.path("error").path("kind").asText(), () -> sql + ": " + two);
                assertTrue(two.path("error").path("message").asText().contains("get_metric"), two::toString);
            }
        }
    }

    @Test
    void validateQueryShowsWhatWouldRunAndRunsNothing() throws Exception {
        resetStatements();
        JsonNode v = call("validate_query", "SELECT billing_country AS country, sum(total) FROM invoice GROUP BY 1");
        assertEquals("success", v.path("status").asText(), v::toString);
        JsonNode data = v.path("data");
        assertEquals("[\"public.invoice\"]", data.path("tables").toString());
        assertEquals("public.invoice.billing_country", data.path("outputs").get(0).path("values").get(0).asText());
        assertTrue(data.path("outputs").get(1).path("aggregate").asBoolean());
        assertTrue(data.path("sql").asText().contains("FROM \"public\".\"invoice\" GROUP BY 1 HAVING count(DISTINCT \"invoice\".\"customer_id\") >= 5"), data::toString);
        assertTrue(List.of("low", "medium", "high").contains(data.path("explain").path("cost_class").asText()));
        assertFalse(data.path("explain").has("estimated_rows"), "no row estimate leaves");
        // Only the EXPLAIN reached the database, never the statement itself.
        List<String> seen = statements("%invoice%");
        assertFalse(seen.isEmpty());
        for (String q : seen) {
            assertTrue(q.contains("EXPLAIN"), q);
            assertFalse(q.contains("ANALYZE"), q);
        }
    }

    @Test
    void theCostCapAndStatementTimeoutHoldForExecute() throws Exception {
        SourceUrl url = SourceUrl.parse(TestPostgres.url(DB));
        Path store = dir.resolve(DB + ".db");
        try (QueryExecutor capped = new QueryExecutor(url, new ExecutorSettings(300, 10_000, 2, 2_000, 10.0))) {
            ToolRegistry small = StandardTools.registry(new StoreCatalogProvider(store), Optional.of(capped));
            JsonNode e = small.call("execute", Map.of("sql", "SELECT t.name, a.title FROM track t JOIN album a"
                    + " ON a.album_id = t.album_id ORDER BY t.name"), "test", Access.UNRESTRICTED).toTree();
            assertEquals("cost_cap_exceeded", e.path("error").path("kind").asText(), e::toString);
        }
        try (QueryExecutor quick = new QueryExecutor(url, new ExecutorSettings(200, 10_000, 2, 2_000, null))) {
            ToolRegistry small = StandardTools.registry(new StoreCatalogProvider(store), Optional.of(quick));
            // A cross join of tracks: legal SQL whose run outlives the 200 ms statement timeout.
            JsonNode e = small.call("execute", Map.of("sql", "SELECT count(*) FROM track a, track b, genre g"
                    + " WHERE a.milliseconds + b.milliseconds > g.genre_id"), "test", Access.UNRESTRICTED).toTree();
            assertEquals("statement_timeout", e.path("error").path("kind").asText(), e::toString);
        }
    }
}
