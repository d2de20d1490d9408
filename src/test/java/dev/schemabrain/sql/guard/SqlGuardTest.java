package dev.schemabrain.sql.guard;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.engine.IntrospectionOptions;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.engine.sqlite.SqliteSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The guard over a catalog read from a real SQLite file: incidents refused on every dialect, lineage followed. */
class SqlGuardTest {

    @TempDir
    static Path dir;
    static Catalog catalog;

    @BeforeAll
    static void createDatabase() throws Exception {
        Path file = dir.resolve("guard-shop.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT, phone TEXT, email TEXT, country TEXT)");
            st.execute("CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers,"
                    + " total NUMERIC, status TEXT, created_at TEXT, year INTEGER)");
            st.execute("CREATE TABLE flags (id INTEGER PRIMARY KEY, \"true\" INTEGER, \"false\" INTEGER)");
            st.execute("CREATE TABLE api_keys (id INTEGER PRIMARY KEY, customer_id INTEGER, secret TEXT)");
        }
        try (SqliteSource source = new SqliteSource(SourceUrl.parse("sqlite:" + file))) {
            catalog = source.introspect(IntrospectionOptions.withoutSamples());
        }
    }

    private static Refusal refused(String sql, TestEngine engine) {
        GuardResult result = SqlGuard.check(sql, engine.rules(), catalog);
        return assertInstanceOf(Refusal.class, result, () -> "expected a refusal for " + sql + " on " + engine);
    }

    private static BoundSelect bound(String sql, TestEngine engine) {
        GuardResult result = SqlGuard.check(sql, engine.rules(), catalog);
        if (result instanceof Refusal r) {
            throw new AssertionError("refused " + sql + " on " + engine + ": " + r.reason() + " " + r.message());
        }
        return (BoundSelect) result;
    }

    private static void assertRefused(Refusal.Reason reason, String sql, TestEngine engine) {
        Refusal r = refused(sql, engine);
        assertEquals(reason, r.reason(), () -> sql + " on " + engine + ": " + r.message());
        assertFalse(r.message().contains("Exception"), r.message());
    }

    /** "table.column" names of one output's values, then of its derived columns. */
    private static Set<String> names(Set<ColumnRef> refs) {
        Set<String> names = new TreeSet<>();
        refs.forEach(r -> names.add(r.shortName()));
        return names;
    }

    /** What a hostile agent sends, and the reason each must be refused with, on every dialect. */
    private static final List<Object[]> INCIDENTS = List.of(
            new Object[] {Refusal.Reason.NOT_A_SINGLE_SELECT, "COMMIT; DROP SCHEMA public CASCADE"},
            new Object[] {Refusal.Reason.NOT_A_SINGLE_SELECT, "SELECT 1; DROP TABLE customers"},
            new Object[] {Refusal.Reason.NOT_A_SINGLE_SELECT, "SELECT name FROM customers; COMMIT"},
            new Object[] {Refusal.Reason.FUNCTION_NOT_ALLOWED, "SELECT pg_read_file('/etc/passwd')"},
            new Object[] {Refusal.Reason.FUNCTION_NOT_ALLOWED, "SELECT pg_catalog.pg_read_file('/etc/passwd')"},
            new Object[] {Refusal.Reason.FUNCTION_NOT_ALLOWED, "SELECT load_file('/etc/passwd') FROM customers"},
            new Object[] {Refusal.Reason.FUNCTION_NOT_ALLOWED, "SELECT load_extension('/tmp/evil.so')"},
            new Object[] {Refusal.Reason.FUNCTION_NOT_ALLOWED, "SELECT name FROM customers WHERE pg_sleep(10) IS NULL"},
            new Object[] {Refusal.Reason.FUNCTION_NOT_ALLOWED, "SELECT sleep(5), name FROM customers"},
            new Object[] {Refusal.Reason.FUNCTION_NOT_ALLOWED, "SELECT set_config('role', 'admin', false)"},
            new Object[] {Refusal.Reason.DML_IN_STATEMENT, "WITH gone AS (DELETE FROM orders RETURNING id) SELECT count(*) FROM gone"},
            new Object[] {Refusal.Reason.DML_IN_STATEMENT, "DELETE FROM orders"},
            new Object[] {Refusal.Reason.DML_IN_STATEMENT, "UPDATE customers SET phone = NULL"},
            new Object[] {Refusal.Reason.EXECUTABLE_COMMENT, "SELECT name /*!50000 , phone */ FROM customers"},
            new Object[] {Refusal.Reason.EXECUTABLE_COMMENT, "SELECT name /*M! , phone */ FROM customers"},
            new Object[] {Refusal.Reason.EXECUTABLE_COMMENT,
                    "SELECT /*+ SET_VAR(max_execution_time=0) */ count(*) FROM orders a, orders b, orders c"},
            new Object[] {Refusal.Reason.SYNTAX_ERROR, "SELECT id FROM customers\u0000; DROP TABLE customers"},
            new Object[] {Refusal.Reason.INTO_OUTFILE, "SELECT phone FROM customers INTO OUTFILE '/tmp/phones'"},
            new Object[] {Refusal.Reason.INTO_OUTFILE, "SELECT phone INTO DUMPFILE '/tmp/p' FROM customers"},
            new Object[] {Refusal.Reason.NOT_A_SINGLE_SELECT, "PRAGMA table_info(customers)"},
            new Object[] {Refusal.Reason.NOT_A_SINGLE_SELECT, "EXPLAIN ANALYZE SELECT * FROM orders"},
            new Object[] {Refusal.Reason.NOT_A_SINGLE_SELECT, "EXPLAIN SELECT * FROM orders"},
            new Object[] {Refusal.Reason.LOCKING_CLAUSE, "SELECT * FROM orders FOR UPDATE"},
            new Object[] {Refusal.Reason.LOCKING_CLAUSE, "SELECT * FROM orders FOR SHARE"},
            new Object[] {Refusal.Reason.LOCKING_CLAUSE, "SELECT * FROM orders LOCK IN SHARE MODE"},
            new Object[] {Refusal.Reason.SYSTEM_CATALOG, "SELECT * FROM pg_catalog.pg_authid"},
            new Object[] {Refusal.Reason.SYSTEM_CATALOG, "SELECT rolpassword FROM pg_authid"},
            new Object[] {Refusal.Reason.SYSTEM_CATALOG, "SELECT * FROM information_schema.tables"},
            new Object[] {Refusal.Reason.SYSTEM_CATALOG, "SELECT sql FROM sqlite_master"},
            new Object[] {Refusal.Reason.SYSTEM_CATALOG, "SELECT * FROM mysql.user"},
            new Object[] {Refusal.Reason.SYSTEM_CATALOG, "SELECT name FROM customers WHERE id IN (SELECT 1 FROM pg_shadow)"},
            new Object[] {Refusal.Reason.FUNCTION_NOT_ALLOWED, "SELECT * FROM read_csv('/etc/passwd')"},
            new Object[] {Refusal.Reason.FUNCTION_NOT_ALLOWED, "SELECT @@version"},
            new Object[] {Refusal.Reason.FUNCTION_NOT_ALLOWED, "SELECT dblink('host=evil', 'select 1')"},
            new Object[] {Refusal.Reason.EXECUTABLE_COMMENT, "SELECT name /* outer /* inner */ , phone */ FROM customers"},
            new Object[] {Refusal.Reason.FUNCTION_NOT_ALLOWED, "SELECT * FROM '/etc/passwd'"},
            new Object[] {Refusal.Reason.FUNCTION_NOT_ALLOWED, "SELECT * FROM pragma_table_info('customers')"},
            new Object[] {Refusal.Reason.FUNCTION_NOT_ALLOWED, "SELECT lo_import('/etc/passwd')"},
            new Object[] {Refusal.Reason.FUNCTION_NOT_ALLOWED, "SELECT current_setting('data_directory')"},
            new Object[] {Refusal.Reason.FUNCTION_NOT_ALLOWED, "SELECT query_to_xml('select * from pg_authid', true, true, '')"},
            new Object[] {Refusal.Reason.FUNCTION_NOT_ALLOWED, "SELECT name FROM customers WHERE pg_terminate_backend(1)"},
            new Object[] {Refusal.Reason.FUNCTION_NOT_ALLOWED, "SELECT phone::regclass FROM customers"},
            new Object[] {Refusal.Reason.INTO_OUTFILE, "SELECT * INTO stolen FROM customers"},
            new Object[] {Refusal.Reason.NOT_A_SINGLE_SELECT, "ATTACH DATABASE '/tmp/x.db' AS x"},
            new Object[] {Refusal.Reason.NOT_A_SINGLE_SELECT, "SET ROLE postgres"},
            new Object[] {Refusal.Reason.LOCKING_CLAUSE, "SELECT * FROM customers FOR UPDATE SKIP LOCKED"},
            // JSqlParser keeps MySQL's PROCEDURE ANALYSE as a clause of its own, which MariaDB runs.
            new Object[] {Refusal.Reason.FUNCTION_NOT_ALLOWED, "SELECT status FROM orders PROCEDURE ANALYSE()"},
            new Object[] {Refusal.Reason.FUNCTION_NOT_ALLOWED, "SELECT count(*) FROM orders o PROCEDURE ANALYSE(10, 100)"},
            // ... and a time-travel clause as raw text, which MariaDB evaluates (and reads deleted rows through).
            new Object[] {Refusal.Reason.UNSUPPORTED_CONSTRUCT, "SELECT count(*) FROM orders FOR SYSTEM_TIME AS OF (SELECT sleep(5))"},
            new Object[] {Refusal.Reason.UNSUPPORTED_CONSTRUCT, "SELECT count(*) FROM orders o FOR SYSTEM_TIME AS OF load_file('/etc/passwd')"},
            new Object[] {Refusal.Reason.UNSUPPORTED_CONSTRUCT, "SELECT count(*) FROM orders FOR SYSTEM_TIME AS OF TIMESTAMP '2020-01-01'"},
            new Object[] {Refusal.Reason.UNSUPPORTED_CONSTRUCT, "SELECT count(*) FROM orders AT(TIMESTAMP => sleep(5))"},
            new Object[] {Refusal.Reason.UNSUPPORTED_CONSTRUCT, "SELECT count(*) FROM orders BEFORE(STATEMENT => 'x')"},
            new Object[] {Refusal.Reason.UNSUPPORTED_CONSTRUCT, "SELECT count(*) FROM orders VERSION AS OF 5"});

    @ParameterizedTest
    @EnumSource(TestEngine.class)
    void incidentClassesAreRefusedOnEveryDialect(TestEngine engine) {
        // Whole-row references (PostgreSQL returns every column as one record) are among them: not a known column.
        for (Object[] incident : INCIDENTS) {
            assertRefused((Refusal.Reason) incident[0], (String) incident[1], engine);
        }
    }

    @Test
    void aWholeRowReferenceBindsAsEveryColumnOfTheRow() {
        // PostgreSQL and DuckDB read a FROM item's bare name as its whole row: every column is shown, so the
        // disclosure rules see them all (the gate refuses a tagged one); elsewhere the name is no column.
        for (TestEngine engine : List.of(TestEngine.POSTGRESQL, TestEngine.DUCKDB)) {
            BoundSelect whole = bound(engine == TestEngine.POSTGRESQL ? "SELECT json_build_object('row', c) FROM customers c"
                    : "SELECT c::text FROM customers c", engine);
            Set<String> shown = whole.outputs().get(0).values().stream().map(ColumnRef::column)
                    .collect(Collectors.toSet());
            assertTrue(shown.contains("email") && shown.contains("id"), shown::toString);
            assertTrue(bound("SELECT c::text FROM customers c", engine).outputs().get(0).values().size() > 2);
        }
        assertRefused(Refusal.Reason.UNKNOWN_NAME, "SELECT c FROM customers c", TestEngine.SQLITE);
        assertRefused(Refusal.Reason.UNKNOWN_NAME, "SELECT c FROM customers c", TestEngine.MYSQL);
        bound("SELECT json_build_object('id', c.id) FROM customers c", TestEngine.POSTGRESQL);
    }

    @Test
    void mysqlCommentsThatOtherParsersReadDifferentlyAreRefused() {
        // MySQL reads '--1' as minus minus one: a parser treating it as a comment would miss ', phone'.
        assertRefused(Refusal.Reason.EXECUTABLE_COMMENT, "SELECT id --1, phone\nFROM customers", TestEngine.MYSQL);
        assertRefused(Refusal.Reason.EXECUTABLE_COMMENT, "SELECT id # comment\nFROM customers", TestEngine.MYSQL);
        // A backslash closes nothing in PostgreSQL but escapes the quote in MySQL: both readings are checked.
        assertRefused(Refusal.Reason.NOT_A_SINGLE_SELECT,
                "SELECT name FROM customers WHERE name = 'a\\'; DROP TABLE customers; -- '", TestEngine.POSTGRESQL);
        // A ';' inside a literal is data, not a second statement.
        bound("SELECT name FROM customers WHERE name LIKE '%;%'", TestEngine.POSTGRESQL);
    }

    @Test
    void maskingCannotBeDefeatedByAnAliasOrAWrapper() {
        BoundSelect alias = bound("SELECT phone AS remark FROM customers", TestEngine.POSTGRESQL);
        assertEquals("remark", alias.outputs().get(0).name());
        assertEquals(Set.of("customers.phone"), names(alias.outputs().get(0).values()));

        BoundSelect nested = bound("SELECT r FROM (SELECT upper(phone) AS r FROM customers c) AS x", TestEngine.SQLITE);
        assertEquals(Set.of("customers.phone"), names(nested.outputs().get(0).values()));

        BoundSelect cte = bound("WITH a AS (SELECT email AS note FROM customers), b AS (SELECT note AS memo FROM a)"
                + " SELECT memo FROM b", TestEngine.DUCKDB);
        assertEquals(Set.of("customers.email"), names(cte.outputs().get(0).values()));

        BoundSelect union = bound("SELECT name FROM customers UNION ALL SELECT phone FROM customers", TestEngine.MYSQL);
        assertEquals(Set.of("customers.name", "customers.phone"), names(union.outputs().get(0).values()));

        BoundSelect max = bound("SELECT max(phone) AS m, count(email) AS n FROM customers", TestEngine.POSTGRESQL);
        assertEquals(Set.of("customers.phone"), names(max.outputs().get(0).values()), "max() returns a phone");
        assertTrue(max.outputs().get(0).aggregate());
        assertEquals(Set.of(), names(max.outputs().get(1).values()), "count() shows no email");
        assertEquals(Set.of("customers.email"), names(max.outputs().get(1).derived()));

        BoundSelect lag = bound("SELECT lag(phone) OVER (ORDER BY id) AS prev FROM customers", TestEngine.POSTGRESQL);
        assertEquals(Set.of("customers.phone"), names(lag.outputs().get(0).values()));
        assertFalse(lag.outputs().get(0).aggregate(), "lag returns another row's value");

        BoundSelect agg = bound("SELECT country, string_agg(email, ',') FROM customers GROUP BY country", TestEngine.POSTGRESQL);
        assertEquals(Set.of("customers.email"), names(agg.outputs().get(1).values()));

        BoundSelect concat = bound("SELECT group_concat(phone) FROM customers", TestEngine.SQLITE);
        assertEquals(Set.of("customers.phone"), names(concat.outputs().get(0).values()));

        BoundSelect cast = bound("SELECT CAST(phone AS varchar(20)) || '' AS p, phone::text AS q FROM customers",
                TestEngine.POSTGRESQL);
        assertEquals(Set.of("customers.phone"), names(cast.outputs().get(0).values()));
        assertEquals(Set.of("customers.phone"), names(cast.outputs().get(1).values()));

        BoundSelect star = bound("SELECT * FROM (SELECT * FROM api_keys) k", TestEngine.SQLITE);
        assertEquals(Set.of("api_keys.secret"), names(star.outputs().get(2).values()), "copying the secrets table out");
        assertEquals(Set.of(QualifiedName.of("main", "api_keys")), star.tables());

        BoundSelect scalar = bound("SELECT c.name, (SELECT k.secret FROM api_keys k WHERE k.customer_id = c.id) AS s"
                + " FROM customers c", TestEngine.POSTGRESQL);
        assertEquals(Set.of("api_keys.secret"), names(scalar.outputs().get(1).values()));
        assertTrue(names(scalar.filters()).containsAll(Set.of("api_keys.customer_id", "customers.id")));
    }

    @Test
    void caseConditionsAndRanksDeriveWithoutShowing() {
        BoundSelect b = bound("SELECT CASE WHEN o.total > 100 THEN 'big' ELSE o.status END AS size,"
                + " rank() OVER (PARTITION BY c.country ORDER BY o.total DESC) AS r"
                + " FROM orders o JOIN customers c ON c.id = o.customer_id WHERE c.email LIKE '%@example.com'",
                TestEngine.POSTGRESQL);
        assertEquals(Set.of("orders.status"), names(b.outputs().get(0).values()));
        assertEquals(Set.of("orders.total"), names(b.outputs().get(0).derived()));
        assertEquals(Set.of(), names(b.outputs().get(1).values()));
        assertEquals(Set.of("customers.country", "orders.total"), names(b.outputs().get(1).derived()));
        assertEquals(Set.of("customers.email", "customers.id", "orders.customer_id"), names(b.filters()));
    }

    @Test
    void starOutputsLineUpWithTheEnginesColumnsOrAreRefused() {
        BoundSelect b = bound("SELECT * FROM customers c JOIN orders o ON o.customer_id = c.id", TestEngine.POSTGRESQL);
        assertEquals(5 + 6, b.outputs().size());
        assertEquals(Set.of("customers.phone"), names(b.outputs().get(2).values()));
        assertEquals(Set.of("orders.total"), names(b.outputs().get(7).values()));
        assertEquals(Refusal.Reason.UNSUPPORTED_CONSTRUCT,
                refused("SELECT * FROM orders JOIN api_keys USING (customer_id)", TestEngine.SQLITE).reason());
        assertEquals(Refusal.Reason.UNSUPPORTED_CONSTRUCT,
                refused("SELECT * FROM customers NATURAL JOIN api_keys", TestEngine.POSTGRESQL).reason());
        assertEquals(Refusal.Reason.UNSUPPORTED_CONSTRUCT,
                refused("SELECT * EXCLUDE (phone) FROM customers", TestEngine.DUCKDB).reason());
        bound("SELECT o.*, k.secret FROM orders o JOIN api_keys k USING (customer_id)", TestEngine.SQLITE);
    }

    @Test
    void namedWindowsAreFollowed() {
        BoundSelect b = bound("SELECT rank() OVER w AS r, sum(o.total) OVER w AS running FROM orders o"
                + " JOIN customers c ON c.id = o.customer_id WINDOW w AS (PARTITION BY c.country ORDER BY o.created_at)",
                TestEngine.POSTGRESQL);
        assertEquals(Set.of("customers.country", "orders.created_at"), names(b.outputs().get(0).derived()));
        assertEquals(Set.of("orders.total"), names(b.outputs().get(1).derived()));
        assertTrue(names(b.shaping()).containsAll(Set.of("customers.country", "orders.created_at")));
        assertEquals(Refusal.Reason.UNKNOWN_NAME,
                refused("SELECT rank() OVER v FROM orders WINDOW w AS (ORDER BY total)", TestEngine.POSTGRESQL).reason());
    }

    @Test
    void filtersIncludeEverythingASubqueryInThemReads() {
        BoundSelect b = bound("SELECT count(*) FROM customers c WHERE EXISTS (SELECT 1 FROM api_keys k"
                + " WHERE k.customer_id = c.id AND k.secret LIKE 'sk_live%') HAVING count(*) > 1", TestEngine.SQLITE);
        assertTrue(names(b.filters()).contains("api_keys.secret"), "a probe on the secret is a filter on it");
        assertTrue(b.outputs().get(0).aggregate());
        assertTrue(b.outputs().get(0).lineage().isEmpty());
    }

    @Test
    void unknownNamesComeWithTheNearestCatalogNames() {
        Refusal table = refused("SELECT name FROM customer", TestEngine.POSTGRESQL);
        assertEquals(Refusal.Reason.UNKNOWN_NAME, table.reason());
        assertEquals("main.customers", table.suggestions().get(0));
        Refusal column = refused("SELECT c.phon FROM customers c", TestEngine.MYSQL);
        assertEquals(Refusal.Reason.UNKNOWN_NAME, column.reason());
        assertEquals("phone", column.suggestions().get(0));
        Refusal bare = refused("SELECT emial FROM customers", TestEngine.SQLITE);
        assertEquals(Refusal.Reason.UNKNOWN_NAME, bare.reason());
        assertTrue(bare.suggestions().contains("customers.email"), bare.suggestions().toString());
        assertEquals(Refusal.Reason.AMBIGUOUS_NAME,
                refused("SELECT id FROM customers c JOIN orders o ON o.customer_id = c.id", TestEngine.POSTGRESQL).reason());
    }

    @Test
    void anAnalystsQueryPassesOnEachDialect() {
        String pg = """
                WITH monthly AS (
                  SELECT c.country, date_trunc('month', o.created_at::timestamp) AS bucket, sum(o.total) AS revenue
                  FROM orders o JOIN customers c USING (id)
                  WHERE o.status <> 'cancelled'
                  GROUP BY 1, 2)
                SELECT country, bucket, revenue,
                       revenue - lag(revenue) OVER (PARTITION BY country ORDER BY bucket) AS change,
                       CASE WHEN revenue > 1000 THEN 'high' ELSE 'low' END AS band
                FROM monthly ORDER BY country, bucket LIMIT 100""";
        BoundSelect b = bound(pg, TestEngine.POSTGRESQL);
        assertEquals(List.of("country", "bucket", "revenue", "change", "band"),
                b.outputs().stream().map(OutputColumn::name).toList());
        assertEquals(Set.of("customers.country"), names(b.outputs().get(0).values()));
        assertEquals(Set.of("orders.total"), names(b.outputs().get(2).derived()));
        assertTrue(b.outputs().get(2).aggregate());
        String mysql = "SELECT `c`.`country`, DATE_FORMAT(o.created_at, '%Y-%m') AS ym, ROUND(AVG(o.total), 2) AS avg_total,"
                + " GROUP_CONCAT(DISTINCT o.status ORDER BY o.status SEPARATOR ',') AS statuses"
                + " FROM orders o INNER JOIN customers c ON c.id = o.customer_id GROUP BY c.country, ym LIMIT 10, 20";
        BoundSelect m = bound(mysql, TestEngine.MYSQL);
        assertEquals(Set.of("orders.status"), names(m.outputs().get(3).values()));
        bound("SELECT strftime('%Y', created_at) AS y, count(*), total(total) FROM orders GROUP BY y", TestEngine.SQLITE);
        bound("SELECT date_trunc('month', CAST(created_at AS timestamp)) AS m, median(total) FROM orders GROUP BY ALL",
                TestEngine.DUCKDB);
    }

    @Test
    void anOrderByNameThatIsBothAnAliasAndAColumnCountsBoth() {
        // PostgreSQL orders by the output alias (the phone), MySQL by the same; the column is counted too.
        BoundSelect b = bound("SELECT phone AS id FROM customers ORDER BY id LIMIT 1", TestEngine.POSTGRESQL);
        assertEquals(Set.of("customers.id", "customers.phone"), names(b.shaping()));
    }

    @Test
    void aggregatesAreAllowedPerEngine() {
        bound("SELECT array_agg(name) FROM customers", TestEngine.POSTGRESQL);
        bound("SELECT array_agg(name) FROM customers", TestEngine.DUCKDB);
        assertRefused(Refusal.Reason.FUNCTION_NOT_ALLOWED, "SELECT array_agg(name) FROM customers", TestEngine.SQLITE);
        assertRefused(Refusal.Reason.FUNCTION_NOT_ALLOWED, "SELECT string_agg(name, ',') FROM customers", TestEngine.MYSQL);
        bound("SELECT group_concat(name) FROM customers", TestEngine.MYSQL);
    }

    @Test
    void sqliteDoubleQuotedStringsAreLiterals() {
        BoundSelect b = bound("SELECT name FROM customers WHERE country = \"France\"", TestEngine.SQLITE);
        assertEquals(Set.of("customers.country"), names(b.filters()));
        assertEquals(Refusal.Reason.UNKNOWN_NAME,
                refused("SELECT name FROM customers WHERE country = \"France\"", TestEngine.POSTGRESQL).reason());
    }

    @Test
    void columnsNamedLikeDateUnitsAreColumns() {
        // JSqlParser reads a bare YEAR as a date unit; the engines read the column (found by the Spider comparison).
        BoundSelect b = bound("SELECT year, count(*) FROM orders GROUP BY year", TestEngine.SQLITE);
        assertEquals(Set.of("orders.year"), names(b.outputs().get(0).values()));
        // Found by a sweep of keyword-named columns: SQLite reads a column named "true" for TRUE.
        BoundSelect flag = bound("SELECT true FROM flags WHERE false = 1", TestEngine.SQLITE);
        assertEquals(Set.of("flags.true"), names(flag.outputs().get(0).values()));
        assertEquals(Set.of("flags.false"), names(flag.filters()));
        BoundSelect unit = bound("SELECT TIMESTAMPDIFF(DAY, created_at, created_at) AS d FROM orders", TestEngine.MYSQL);
        assertEquals(Set.of("orders.created_at"), names(unit.outputs().get(0).values()));
    }

    /** Column names JSqlParser may read as something else (a date unit, a literal, a special value). */
    private static final List<String> KEYWORD_COLUMNS = List.of(
            "date", "time", "timestamp", "year", "month", "day", "hour", "minute", "second", "week", "quarter",
            "user", "value", "key", "type", "status", "level", "position", "text", "comment", "row", "range", "index",
            "first", "last", "left", "right", "current_user", "session_user", "interval", "zone", "epoch", "dow",
            "timezone", "rownum", "rowid", "name", "data", "uuid", "json", "char", "signed", "nulls", "true", "false",
            "mode", "share", "skip", "locked", "lines", "fields", "column", "table", "schema", "database", "role",
            "password", "action", "sequence", "nextval", "rows", "repeat", "separator", "percent", "top");

    @ParameterizedTest
    @EnumSource(TestEngine.class)
    void noKeywordNamedColumnEscapesLineage(TestEngine engine) throws Exception {
        Path file = dir.resolve("guard-keywords-" + engine + ".db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE kw (id INTEGER PRIMARY KEY, "
                    + String.join(", ", KEYWORD_COLUMNS.stream().map(n -> "\"" + n + "\" TEXT").toList()) + ")");
        }
        Catalog keywords;
        try (SqliteSource source = new SqliteSource(SourceUrl.parse("sqlite:" + file))) {
            keywords = source.introspect(IntrospectionOptions.withoutSamples());
        }
        for (String name : KEYWORD_COLUMNS) {
            for (String sql : List.of("SELECT " + name + " FROM kw", "SELECT id FROM kw WHERE " + name + " = 'x'",
                    "SELECT k." + name + " FROM kw k")) {
                // Refusing is safe; binding without the column in outputs or filters is the hole this looks for.
                if (SqlGuard.check(sql, engine.rules(), keywords) instanceof BoundSelect b) {
                    Set<String> reached = new TreeSet<>();
                    b.outputs().forEach(o -> reached.addAll(names(o.lineage())));
                    reached.addAll(names(b.filters()));
                    assertTrue(reached.contains("kw." + name), () -> sql + " on " + engine + " bound without kw." + name);
                }
            }
        }
    }

    @Test
    void parserBombsAreRefusedQuickly() {
        String parens = "SELECT " + "(".repeat(5000) + "phone" + ")".repeat(5000) + " FROM customers";
        String ors = "SELECT phone FROM customers WHERE " + String.join(" OR ", Collections.nCopies(6000, "id = 1"));
        for (String sql : List.of(parens, ors)) {
            long start = System.nanoTime();
            Refusal r = refused(sql, TestEngine.POSTGRESQL);
            assertEquals(Refusal.Reason.SYNTAX_ERROR, r.reason(), r.message());
            assertTrue(System.nanoTime() - start < 3_000_000_000L, "refused in under 3 s");
        }
        bound("SELECT " + "(".repeat(20) + "phone" + ")".repeat(20) + " FROM customers", TestEngine.POSTGRESQL);
    }

    @Test
    void recursiveCtesAreFollowed() {
        // SQLite recurses without the keyword: "customers" inside names the CTE, whose second column is a phone.
        BoundSelect sqlite = bound("WITH customers(a, b) AS (SELECT name, phone FROM main.customers WHERE id = 1"
                + " UNION ALL SELECT b, a FROM customers LIMIT 10) SELECT a FROM customers", TestEngine.SQLITE);
        assertEquals(Set.of("customers.name", "customers.phone"), names(sqlite.outputs().get(0).values()));
        BoundSelect b = bound("WITH RECURSIVE chain(n, who) AS (SELECT 1, name FROM customers WHERE id = 1"
                + " UNION ALL SELECT n + 1, who FROM chain WHERE n < 5) SELECT who FROM chain", TestEngine.POSTGRESQL);
        assertEquals(Set.of("customers.name"), names(b.outputs().get(0).values()));
    }
}
