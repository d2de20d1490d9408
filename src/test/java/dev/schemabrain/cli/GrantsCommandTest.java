package dev.schemabrain.cli;

import dev.schemabrain.audit.WitnessFile;
import dev.schemabrain.testing.InProcessCli;
import dev.schemabrain.testing.TestMariaDb;
import dev.schemabrain.testing.TestPostgres;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code schemabrain grants} and doctor's wall check against a real PostgreSQL (embedded) and the MariaDB server: after
 * {@code grants --apply}, SQL sent straight over JDBC as the serving role (SQL the gate never saw) cannot read a blocked
 * column, while a served one and count(*) still work.
 */
class GrantsCommandTest {

    private static final String DB = "sb_grants_pg";
    private static final String READER = "sb_grants_reader";

    @TempDir
    static Path dir;

    static Path store;

    @BeforeAll
    static void createDatabase() throws Exception {
        TestPostgres.createDatabase(DB,
                "CREATE TABLE customers (id int PRIMARY KEY, email text, ssn text, \"Region Code\" text)",
                "INSERT INTO customers VALUES (1, 'a@example.com', '123-45-6789', 'EU'), (2, 'b@example.com',"
                        + " '987-65-4321', 'US')",
                "CREATE TABLE orders (id int PRIMARY KEY, customer_id int REFERENCES customers, total numeric(10,2))",
                "DROP ROLE IF EXISTS " + READER,
                "CREATE ROLE " + READER + " LOGIN",
                // A plain read-only role, as doctor's read-only advice makes one: it reads every column.
                "GRANT USAGE ON SCHEMA public TO " + READER,
                "GRANT SELECT ON ALL TABLES IN SCHEMA public TO " + READER);
        store = dir.resolve("pg.db");
        InProcessCli.Result index = run(Map.of(), "index", "--source", TestPostgres.url(DB), "--store", store.toString());
        assertEquals(0, index.exitCode(), index.stdout() + index.stderr());
    }

    private static InProcessCli.Result run(Map<String, String> extra, String... args) {
        Map<String, String> env = new HashMap<>(Map.of("HOME", dir.resolve("home").toString(),
                WitnessFile.ENV, dir.resolve("audit.head").toString()));
        env.putAll(extra);
        return InProcessCli.run(env, args);
    }

    private static String readerUrl() {
        return "postgresql://" + READER + "@localhost:" + TestPostgres.port() + "/" + DB;
    }

    private static Connection asReader() throws SQLException {
        return DriverManager.getConnection("jdbc:postgresql://localhost:" + TestPostgres.port() + "/" + DB, READER, "");
    }

    private static long count(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void printedGrantsNameEveryServedColumnQuotedAndLeaveOutTheBlockedOne() {
        InProcessCli.Result r = run(Map.of("SB_URL", readerUrl()), "grants", "--url-env", "SB_URL", "--store", store.toString());
        assertEquals(0, r.exitCode(), r.stdout() + r.stderr());
        String out = r.stdout();
        assertTrue(out.contains("REVOKE SELECT ON \"public\".\"customers\" FROM \"" + READER + "\";"), out);
        assertTrue(out.contains("REVOKE SELECT ON \"public\".\"orders\" FROM \"" + READER + "\";"), out);
        assertTrue(out.contains("GRANT USAGE ON SCHEMA \"public\" TO \"" + READER + "\";"), out);
        assertTrue(out.contains("GRANT SELECT (\"id\", \"email\", \"Region Code\") ON \"public\".\"customers\" TO \""
                + READER + "\";"), out);
        assertTrue(out.contains("GRANT SELECT (\"id\", \"customer_id\", \"total\") ON \"public\".\"orders\" TO \""
                + READER + "\";"), out);
        assertTrue(out.contains("-- withheld: public.customers.ssn (government_id)"), out);
        assertTrue(out.indexOf("REVOKE") < out.indexOf("GRANT SELECT"), "the REVOKEs come first: " + out);
    }

    @Test
    void afterGrantsApplyRawSqlAsTheRoleCannotReadTheBlockedColumnAndDoctorSaysSo() throws Exception {
        // Other tests apply grants too: start from the plain role whatever ran before.
        try (Connection c = TestPostgres.connect(DB); Statement st = c.createStatement()) {
            st.execute("GRANT SELECT ON ALL TABLES IN SCHEMA public TO " + READER);
        }
        Map<String, String> env = Map.of("SB_URL", readerUrl(), "SB_ADMIN_URL", TestPostgres.url(DB));
        InProcessCli.Result before = run(env, "doctor", "--url-env", "SB_URL", "--store", store.toString());
        assertTrue(before.stdout().contains("warn  wall: role '" + READER + "' can read public.customers.ssn (government_id)"),
                before.stdout());
        assertTrue(before.stdout().contains("schemabrain grants --url-env VAR --apply --admin-url-env ADMIN_VAR"),
                before.stdout());
        try (Connection c = asReader()) {
            assertEquals(0, count(c, "SELECT count(ssn) FROM customers WHERE ssn IS NULL"), "the plain role reads ssn");
        }

        InProcessCli.Result apply = run(env, "grants", "--url-env", "SB_URL", "--apply", "--admin-url-env", "SB_ADMIN_URL",
                "--store", store.toString());
        assertEquals(0, apply.exitCode(), apply.stdout() + apply.stderr());
        assertTrue(apply.stdout().startsWith("Applied "), apply.stdout());

        try (Connection c = asReader(); Statement st = c.createStatement()) {
            SQLException denied = assertThrows(SQLException.class, () -> st.executeQuery("SELECT ssn FROM customers").close());
            assertEquals("42501", denied.getSQLState(), denied.getMessage());
            assertThrows(SQLException.class, () -> st.executeQuery("SELECT * FROM customers").close());
            // The red team's escapes sent as the caller wrote them, as if the gate were bypassed: the database refuses.
            for (String bypass : List.of("SELECT E'\\'', (SELECT ssn FROM customers LIMIT 1) AS x -- ' AS y",
                    "SELECT c::text FROM customers c", "SELECT count(*) FROM customers WHERE ssn LIKE '1%'",
                    "WITH RECURSIVE r(n, v) AS (SELECT 1, ssn FROM customers UNION ALL SELECT n + 1, v FROM r WHERE n < 3)"
                            + " SELECT v FROM r")) {
                SQLException wall = assertThrows(SQLException.class, () -> st.executeQuery(bypass).close(), bypass);
                assertEquals("42501", wall.getSQLState(), bypass + ": " + wall.getMessage());
            }
            try (ResultSet rs = st.executeQuery("SELECT email FROM customers ORDER BY id")) {
                assertTrue(rs.next());
                assertEquals("a@example.com", rs.getString(1));
            }
            assertEquals(2, count(c, "SELECT count(*) FROM customers"));
            assertEquals(0, count(c, "SELECT count(*) FROM orders"));
        }

        InProcessCli.Result after = run(env, "doctor", "--url-env", "SB_URL", "--store", store.toString());
        assertTrue(after.stdout().contains("ok    wall: role '" + READER + "' is refused by the database itself the 1"
                + " withheld column doctor tried"), after.stdout());
        assertFalse(after.stdout().contains("warn  wall"), after.stdout());

        // A second run (a policy changed, the index grew) starts from nothing again on the same tables.
        InProcessCli.Result again = run(env, "grants", "--url-env", "SB_URL", "--apply", "--admin-url-env", "SB_ADMIN_URL",
                "--store", store.toString());
        assertEquals(0, again.exitCode(), again.stdout() + again.stderr());
    }

    @Test
    void aSuperuserIsFlaggedWithTheStatementThatEndsIt() {
        InProcessCli.Result r = run(Map.of(), "doctor", "--source", TestPostgres.url(DB), "--store", store.toString());
        assertTrue(r.stdout().contains("warn  wall: role 'postgres' holds superuser, which reads past any column privilege"),
                r.stdout());
        assertTrue(r.stdout().contains("        ALTER ROLE postgres NOSUPERUSER;"), r.stdout());
    }

    @Test
    void anAccessPolicyLeavesOutTheTablesNoRoleSees() throws Exception {
        Path policy = dir.resolve("policy.yaml");
        Files.writeString(policy, """
                version: 1
                roles:
                  analyst:
                    allow: [public.orders]
                default_role: none
                """);
        Files.setPosixFilePermissions(policy, PosixFilePermissions.fromString("rw-------"));
        InProcessCli.Result r = run(Map.of(), "grants", "--source", readerUrl(), "--access-policy", policy.toString(),
                "--store", store.toString());
        assertEquals(0, r.exitCode(), r.stdout() + r.stderr());
        assertTrue(r.stdout().contains("REVOKE SELECT ON \"public\".\"customers\""), r.stdout());
        assertFalse(r.stdout().contains("ON \"public\".\"customers\" TO"), r.stdout());
        assertTrue(r.stdout().contains("ON \"public\".\"orders\" TO"), r.stdout());
        assertTrue(r.stdout().contains("-- withheld: public.customers.id (no role of the access policy sees the table)"),
                r.stdout());
    }

    @Test
    void neitherURLsPasswordIsEverPrinted() {
        String serving = "postgresql://" + READER + ":serving-secret-1@localhost:" + TestPostgres.port() + "/" + DB;
        String admin = "postgresql://postgres:admin-secret-2@localhost:" + TestPostgres.port() + "/" + DB;
        String adminDown = "postgresql://postgres:admin-secret-3@127.0.0.1:1/" + DB;
        Map<String, String> env = Map.of("SB_URL", serving, "SB_ADMIN_URL", admin, "SB_DOWN_URL", adminDown);
        for (String[] args : new String[][]{
                {"grants", "--source", serving, "--store", store.toString()},
                {"grants", "--url-env", "SB_URL", "--store", store.toString()},
                {"grants", "--url-env", "SB_URL", "--apply", "--admin-url-env", "SB_ADMIN_URL", "--store", store.toString()},
                {"grants", "--url-env", "SB_URL", "--apply", "--admin-url-env", "SB_DOWN_URL", "--store", store.toString()},
                {"doctor", "--url-env", "SB_URL", "--store", store.toString()}}) {
            InProcessCli.Result r = run(env, args);
            String all = r.stdout() + r.stderr();
            assertFalse(all.contains("secret"), String.join(" ", args) + " printed a password:\n" + all);
        }
        InProcessCli.Result down = run(env, "grants", "--url-env", "SB_URL", "--apply", "--admin-url-env", "SB_DOWN_URL",
                "--store", store.toString());
        assertEquals(2, down.exitCode());
        assertTrue(down.stderr().startsWith("schemabrain: Cannot connect as the administrator to postgresql://127.0.0.1:1/"),
                down.stderr());
    }

    @Test
    void badInputGetsOneSentenceAndExitTwo() throws Exception {
        Path sqlite = dir.resolve("file.db");
        Map<String, String> env = Map.of("SB_URL", readerUrl());
        String[][] cases = {
                {"grants", "--store", store.toString()},
                {"grants", "--source", "sqlite:" + sqlite, "--store", store.toString()},
                {"grants", "--source", "duckdb:" + dir.resolve("file.duckdb"), "--store", store.toString()},
                {"grants", "--url-env", "SB_URL", "--apply", "--store", store.toString()},
                {"grants", "--url-env", "SB_URL", "--admin-url-env", "SB_URL", "--store", store.toString()},
                {"grants", "--url-env", "SB_URL", "--role", "x\"; DROP TABLE customers; --", "--store", store.toString()},
                {"grants", "--url-env", "SB_URL", "--apply", "--admin-url-env", "SB_URL", "--store", store.toString()},
                {"grants", "--url-env", "SB_URL", "--store", dir.resolve("none.db").toString()}};
        String[] says = {"pass --source URL or --url-env VAR", "the SQLite file is opened read-only and has no roles",
                "the DuckDB file is opened read-only and has no roles", "pass --admin-url-env VAR",
                "--admin-url-env is only read with --apply", "--role: the role name must be",
                "the role being granted; give an administrator's URL", "There is no store at"};
        for (int i = 0; i < cases.length; i++) {
            InProcessCli.Result r = run(env, cases[i]);
            String line = String.join(" ", cases[i]);
            assertEquals(2, r.exitCode(), line + ": " + r.stdout() + r.stderr());
            assertTrue(r.stderr().contains(says[i]), line + ": " + r.stderr());
            assertEquals(1, r.stderr().lines().count(), line + ": " + r.stderr());
            assertEquals("", r.stdout(), line);
        }
    }

    @Test
    void onMariaDbTheGrantedAccountCannotReadTheBlockedColumnByRawSql() throws Exception {
        String db = TestMariaDb.create("sb_grants",
                "CREATE TABLE customers (id int PRIMARY KEY, email varchar(80), ssn varchar(11), region varchar(4))",
                "INSERT INTO customers VALUES (1, 'a@example.com', '123-45-6789', 'EU'), (2, 'b@example.com',"
                        + " '987-65-4321', 'US')");
        String user = "sb_grants_" + db.substring(db.length() - 6);
        String account = "'" + user + "'@'%'";
        Path mariaStore = dir.resolve("maria.db");
        try (Connection c = TestMariaDb.connect(db); Statement st = c.createStatement()) {
            st.execute("CREATE USER " + account);
            st.execute("GRANT SELECT ON " + db + ".* TO " + account);
        }
        try {
            assertEquals(0, run(Map.of(), "index", "--source", TestMariaDb.url(db), "--store", mariaStore.toString())
                    .exitCode());
            Map<String, String> env = Map.of("SB_URL", "mariadb://" + user + "@" + TestMariaDb.SERVER + "/" + db,
                    "SB_ADMIN_URL", TestMariaDb.url(db));
            InProcessCli.Result before = run(env, "doctor", "--url-env", "SB_URL", "--store", mariaStore.toString());
            assertTrue(before.stdout().contains("warn  wall: role '" + user + "' can read " + db + ".customers.ssn"),
                    before.stdout());
            assertTrue(before.stdout().contains("        REVOKE SELECT ON `" + db + "`.* FROM " + account + ";"),
                    before.stdout());

            // The database-wide SELECT goes first, as doctor says; grants then writes the columns.
            try (Connection c = TestMariaDb.connect(db); Statement st = c.createStatement()) {
                st.execute("REVOKE SELECT ON `" + db + "`.* FROM " + account);
            }
            InProcessCli.Result apply = run(env, "grants", "--url-env", "SB_URL", "--apply", "--admin-url-env",
                    "SB_ADMIN_URL", "--store", mariaStore.toString());
            assertEquals(0, apply.exitCode(), apply.stdout() + apply.stderr());

            try (Connection c = DriverManager.getConnection("jdbc:mariadb://" + TestMariaDb.SERVER + "/" + db, user, "");
                 Statement st = c.createStatement()) {
                SQLException denied = assertThrows(SQLException.class,
                        () -> st.executeQuery("SELECT ssn FROM customers").close());
                assertEquals(1143, denied.getErrorCode(), denied.getMessage());
                try (ResultSet rs = st.executeQuery("SELECT email FROM customers ORDER BY id")) {
                    assertTrue(rs.next());
                    assertEquals("a@example.com", rs.getString(1));
                }
                assertEquals(2, count(c, "SELECT count(*) FROM customers"));
            }
            InProcessCli.Result after = run(env, "doctor", "--url-env", "SB_URL", "--store", mariaStore.toString());
            assertTrue(after.stdout().contains("ok    wall: role '" + user + "' is refused by the database itself"),
                    after.stdout());

            InProcessCli.Result printed = run(env, "grants", "--url-env", "SB_URL", "--store", mariaStore.toString());
            assertTrue(printed.stdout().contains("GRANT SELECT (`id`, `email`, `region`) ON `" + db + "`.`customers` TO "
                    + account + ";"), printed.stdout());
        } finally {
            try (Connection c = TestMariaDb.connect(db); Statement st = c.createStatement()) {
                st.execute("DROP USER IF EXISTS " + account);
            }
            TestMariaDb.drop(db);
        }
    }
}
