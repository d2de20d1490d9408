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
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** doctor and check against a real PostgreSQL (embedded) and the MariaDB server, in process. */
class DoctorCheckTest {

    private static final String DB = "doctor_check";

    @TempDir
    static Path dir;

    static Map<String, String> env;

    @BeforeAll
    static void createDatabase() throws Exception {
        TestPostgres.createDatabase(DB,
                "CREATE EXTENSION IF NOT EXISTS pg_stat_statements",
                "CREATE TABLE customers (id int PRIMARY KEY, name text, region text)",
                "CREATE TABLE orders (id int PRIMARY KEY, customer_id int REFERENCES customers, total numeric(10,2),"
                        + " placed_at date)",
                "DROP ROLE IF EXISTS sb_doctor_reader",
                "CREATE ROLE sb_doctor_reader LOGIN",
                "GRANT USAGE ON SCHEMA public TO sb_doctor_reader",
                "GRANT SELECT ON ALL TABLES IN SCHEMA public TO sb_doctor_reader");
        // An empty home: no MCP client configured, so that check is skipped, not warned.
        // A witness outside the store is configured, as docs/operations.md recommends: doctor has nothing to warn about.
        env = Map.of("HOME", dir.resolve("home").toString(), WitnessFile.ENV,
                dir.resolve("audit.head").toString());
    }

    private static String readerUrl() {
        return "postgresql://sb_doctor_reader@localhost:" + TestPostgres.port() + "/" + DB;
    }

    private static InProcessCli.Result run(String... args) {
        return InProcessCli.run(env, args);
    }

    @Test
    void aRoleThatCanWriteIsAWarningWithTheGrantsOfAReadOnlyRole() {
        Path store = dir.resolve("writer.db");
        assertEquals(0, run("index", "--source", TestPostgres.url(DB), "--store", store.toString()).exitCode());
        InProcessCli.Result r = run("doctor", "--source", TestPostgres.url(DB), "--store", store.toString());
        assertEquals(1, r.exitCode(), r.stdout() + r.stderr());
        assertTrue(r.stdout().contains("warn  role: role 'postgres' can write (superuser"), r.stdout());
        for (String grant : List.of("CREATE ROLE schemabrain_reader LOGIN PASSWORD",
                "GRANT CONNECT ON DATABASE doctor_check TO schemabrain_reader;",
                "GRANT USAGE ON SCHEMA public TO schemabrain_reader;",
                "GRANT SELECT ON ALL TABLES IN SCHEMA public TO schemabrain_reader;",
                "ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT ON TABLES TO schemabrain_reader;")) {
            assertTrue(r.stdout().contains("        " + grant), grant + "\n" + r.stdout());
        }
        assertTrue(r.stdout().contains("ok    store: " + store + " indexed from"), r.stdout());
        assertTrue(r.stdout().contains("ok    embeddings:"), r.stdout());
        assertTrue(r.stdout().contains("skip  client:"), r.stdout());
    }

    @Test
    void aReadOnlyRolePassesEveryCheck() {
        Path store = dir.resolve("reader.db");
        assertEquals(0, run("index", "--source", readerUrl(), "--store", store.toString()).exitCode());
        InProcessCli.Result r = run("doctor", "--source", readerUrl(), "--store", store.toString());
        assertEquals(0, r.exitCode(), r.stdout() + r.stderr());
        assertTrue(r.stdout().contains("ok    role: role 'sb_doctor_reader' cannot write"), r.stdout());
        assertTrue(r.stdout().contains("ok    keys: 2 of 2 tables have a primary key, 1 foreign key in all"), r.stdout());
        assertTrue(r.stdout().contains("ok    query log: pg_stat_statements"), r.stdout());
        assertFalse(r.stdout().contains("GRANT"), r.stdout());
    }

    @Test
    void aMissingPgStatStatementsPointsAtTheServerLog() throws Exception {
        TestPostgres.createDatabase(DB + "_nopgss", "CREATE TABLE t (id int PRIMARY KEY)");
        String url = TestPostgres.url(DB + "_nopgss");
        InProcessCli.Result r = run("doctor", "--source", url, "--store", dir.resolve("nopgss.db").toString());
        assertTrue(r.stdout().contains("skip  query log (optional, for mine-queries): pg_stat_statements is not installed in"
                + " database " + DB + "_nopgss;"), r.stdout());
        assertFalse(r.stdout().contains("warn  query log"), "an optional feature does not fail doctor: " + r.stdout());
        assertTrue(r.stdout().contains("Without it, mine-queries --log-file PATH reads the server's own statement log instead."),
                r.stdout());
    }

    @Test
    void aGrantedWriteIsFoundOnARoleThatIsNoSuperuser() throws Exception {
        try (Connection c = TestPostgres.connect(DB); Statement st = c.createStatement()) {
            st.execute("DROP ROLE IF EXISTS sb_doctor_clerk");
            st.execute("CREATE ROLE sb_doctor_clerk LOGIN");
            st.execute("GRANT USAGE ON SCHEMA public TO sb_doctor_clerk");
            st.execute("GRANT SELECT ON ALL TABLES IN SCHEMA public TO sb_doctor_clerk");
            st.execute("GRANT INSERT, DELETE ON orders TO sb_doctor_clerk");
        }
        String url = "postgresql://sb_doctor_clerk@localhost:" + TestPostgres.port() + "/" + DB;
        InProcessCli.Result r = run("doctor", "--source", url, "--store", dir.resolve("clerk.db").toString());
        assertTrue(r.stdout().contains("warn  role: role 'sb_doctor_clerk' can write (DELETE/INSERT on public.orders)"),
                r.stdout());
    }

    @Test
    void aSourceThatIsDownFails() {
        InProcessCli.Result r = run("doctor", "--source", "postgresql://postgres@127.0.0.1:1/nothing",
                "--store", dir.resolve("down.db").toString());
        assertEquals(2, r.exitCode(), r.stdout());
        assertTrue(r.stdout().contains("FAIL  source: Cannot reach the PostgreSQL server at 127.0.0.1:1"), r.stdout());
        assertTrue(r.stdout().contains("FAIL  store: there is none at"), r.stdout());
        assertFalse(r.stdout().contains("Exception") || r.stderr().contains("\tat "), r.stdout() + r.stderr());
    }

    @Test
    void mariaDbRootCanWriteAndAReadOnlyAccountCannot() throws Exception {
        String db = TestMariaDb.create("sb_doctor", "CREATE TABLE t (id int PRIMARY KEY, v varchar(20))");
        String user = "sb_ro_" + db.substring(db.length() - 6);
        try (Connection c = TestMariaDb.connect(db); Statement st = c.createStatement()) {
            st.execute("CREATE USER '" + user + "'@'%'");
            st.execute("GRANT SELECT ON " + db + ".* TO '" + user + "'@'%'");
        }
        try {
            Path store = dir.resolve("maria.db");
            InProcessCli.Result root = run("doctor", "--source", TestMariaDb.url(db), "--store", store.toString());
            assertTrue(root.stdout().contains("warn  role: role 'root' can write ("), root.stdout());
            assertTrue(root.stdout().contains("        GRANT SELECT, SHOW VIEW ON `" + db + "`.* TO 'schemabrain_reader'@'%';"),
                    root.stdout());
            String readerUrl = "mariadb://" + user + "@" + TestMariaDb.SERVER + "/" + db;
            InProcessCli.Result reader = run("doctor", "--source", readerUrl, "--store", store.toString());
            assertTrue(reader.stdout().contains("ok    role: role '" + user + "' cannot write"), reader.stdout());
            assertTrue(reader.stdout().contains("ok    source: mariadb://"), reader.stdout());
        } finally {
            try (Connection c = TestMariaDb.connect(db); Statement st = c.createStatement()) {
                st.execute("DROP USER IF EXISTS '" + user + "'@'%'");
            }
            TestMariaDb.drop(db);
        }
    }

    @Test
    void checkNamesEachAddedRemovedAndRetypedColumn() throws Exception {
        String db = "check_drift";
        TestPostgres.createDatabase(db,
                "CREATE TABLE items (id int PRIMARY KEY, label text, price int, legacy_code text)",
                "CREATE TABLE gone (id int)");
        Path store = dir.resolve("drift.db");
        String url = TestPostgres.url(db);
        assertEquals(0, run("index", "--source", url, "--store", store.toString()).exitCode());
        InProcessCli.Result inSync = run("check", "--source", url, "--store", store.toString());
        assertEquals(0, inSync.exitCode(), inSync.stdout() + inSync.stderr());
        assertTrue(inSync.stdout().startsWith("In sync: "), inSync.stdout());

        try (Connection c = TestPostgres.connect(db); Statement st = c.createStatement()) {
            st.execute("ALTER TABLE items ADD COLUMN discount numeric(5,2)");
            st.execute("ALTER TABLE items DROP COLUMN legacy_code");
            st.execute("ALTER TABLE items ALTER COLUMN price TYPE bigint");
            st.execute("DROP TABLE gone");
            // A name with a line break must not forge a line of the report.
            st.execute("CREATE TABLE \"new\nIn sync: forged\" (id int)");
        }
        InProcessCli.Result r = run("check", "--source", url, "--store", store.toString());
        assertEquals(1, r.exitCode(), r.stdout() + r.stderr());
        List<String> lines = r.stdout().lines().toList();
        assertTrue(lines.contains("+ column public.items.discount (numeric(5,2))"), r.stdout());
        assertTrue(lines.contains("- column public.items.legacy_code"), r.stdout());
        assertTrue(lines.contains("~ column public.items.price: integer -> bigint"), r.stdout());
        assertTrue(lines.contains("- table public.gone"), r.stdout());
        assertTrue(lines.stream().noneMatch(l -> l.startsWith("In sync")), r.stdout());
        assertTrue(lines.get(lines.size() - 1).startsWith("5 differences since the last index of"), r.stdout());

        InProcessCli.Result noStore = run("check", "--source", url, "--store", dir.resolve("none.db").toString());
        assertEquals(2, noStore.exitCode());
        assertTrue(noStore.stderr().startsWith("schemabrain: There is no store at"), noStore.stderr());
    }

    /** The index command check suggests, taken from its message and run as it is. */
    private static InProcessCli.Result runSuggestedIndex(String message, Map<String, String> withEnv) {
        Matcher m = Pattern.compile("'schemabrain (index[^']*)'").matcher(message);
        assertTrue(m.find(), message);
        return InProcessCli.run(withEnv, m.group(1).split(" "));
    }

    @Test
    void theIndexCommandCheckSuggestsWorksAsItIs() throws Exception {
        String db = "check_advice";
        TestPostgres.createDatabase(db, "CREATE TABLE items (id int PRIMARY KEY)");
        String url = TestPostgres.url(db);
        Path store = dir.resolve("advice.db");
        assertEquals(0, run("index", "--source", url, "--store", store.toString()).exitCode());
        try (Connection c = TestPostgres.connect(db); Statement st = c.createStatement()) {
            st.execute("ALTER TABLE items ADD COLUMN label text");
        }
        InProcessCli.Result drift = run("check", "--source", url, "--store", store.toString());
        assertEquals(1, drift.exitCode(), drift.stdout() + drift.stderr());
        InProcessCli.Result again = runSuggestedIndex(drift.stdout(), env);
        assertEquals(0, again.exitCode(), drift.stdout() + again.stderr());
        assertEquals(0, run("check", "--source", url, "--store", store.toString()).exitCode());

        // With --url-env the advice repeats it, and a store never indexed gets the same advice.
        Map<String, String> withUrl = new HashMap<>(env);
        withUrl.put("ADVICE_URL", url);
        Path none = dir.resolve("advice-none.db");
        InProcessCli.Result noStore = InProcessCli.run(withUrl, "check", "--url-env", "ADVICE_URL", "--store", none.toString());
        assertEquals(2, noStore.exitCode(), noStore.stderr());
        assertTrue(noStore.stderr().contains("'schemabrain index --url-env ADVICE_URL --store " + none + "'"), noStore.stderr());
        assertEquals(0, runSuggestedIndex(noStore.stderr(), withUrl).exitCode());
        assertEquals(0, InProcessCli.run(withUrl, "check", "--url-env", "ADVICE_URL", "--store", none.toString()).exitCode());

        // A password never shows: the advice says to put the URL in a variable.
        String secretUrl = "postgresql://" + TestPostgres.passwordRole() + ":right-password@127.0.0.1:" + TestPostgres.port()
                + "/" + db;
        InProcessCli.Result secret = run("check", "--source", secretUrl, "--store", dir.resolve("advice-secret.db").toString());
        assertEquals(2, secret.exitCode(), secret.stderr());
        assertFalse(secret.stderr().contains("right-password"), secret.stderr());
        assertTrue(secret.stderr().contains("--url-env DATABASE_URL"), secret.stderr());
    }

    /** init's advice for Claude Desktop, which reads no variables: the password in ~/.pgpass, the URL without it. */
    @Test
    void aUrlWithoutItsPasswordLogsInWithThePasswordInPgpass() throws Exception {
        String role = TestPostgres.passwordRole();
        Path home = Files.createDirectories(dir.resolve("pgpass-home"));
        Files.writeString(home.resolve(".pgpass"), "127.0.0.1:" + TestPostgres.port() + ":" + DB + ":" + role
                + ":right-password\n");
        String url = "postgresql://" + role + "@127.0.0.1:" + TestPostgres.port() + "/" + DB;
        String userHome = System.getProperty("user.home");
        System.setProperty("user.home", home.toString());   // where the driver looks for .pgpass
        try {
            InProcessCli.Result r = run("index", "--source", url, "--store", dir.resolve("pgpass.db").toString());
            assertEquals(0, r.exitCode(), r.stderr());
        } finally {
            System.setProperty("user.home", userHome);
        }
        InProcessCli.Result without = run("index", "--source", url, "--store", dir.resolve("pgpass.db").toString());
        assertEquals(2, without.exitCode(), "without .pgpass the login is refused: " + without.stderr());
    }

    @Test
    void doctorSaysWhenAClientsEntryHoldsAnotherSourceURL() throws Exception {
        Path home = dir.resolve("desktop-home");
        Files.createDirectories(home.resolve(".config/Claude"));
        Path store = dir.resolve("desktop.db");
        Path jar = Files.writeString(dir.resolve("desktop.jar"), "a jar");
        Map<String, String> wiredEnv = new HashMap<>(Map.of("HOME", home.toString(),
                WitnessFile.ENV, dir.resolve("desktop.head").toString(), "DB", TestPostgres.url(DB)));
        assertEquals(0, InProcessCli.run(wiredEnv, "index", "--url-env", "DB", "--store", store.toString()).exitCode());
        // The entry is written with the superuser's URL (it holds no password, so Claude Desktop gets it whole) ...
        InProcessCli.Result init = InProcessCli.run(wiredEnv, "init", "--client", "claude-desktop", "--url-env", "DB",
                "--jar", jar.toString(), "--store", store.toString());
        assertEquals(0, init.exitCode(), init.stderr());
        InProcessCli.Result same = InProcessCli.run(wiredEnv, "doctor", "--url-env", "DB", "--store", store.toString());
        assertTrue(same.stdout().contains("ok    client: Claude Desktop starts this server"), same.stdout());

        // ... and the source is now the reader: the entry still connects as the superuser, which doctor says.
        wiredEnv.put("DB", readerUrl());
        InProcessCli.Result r = InProcessCli.run(wiredEnv, "doctor", "--url-env", "DB", "--store", store.toString());
        String user = TestPostgres.url(DB).replaceFirst("^postgresql://([^@:]+)@.*$", "$1");
        assertTrue(r.stdout().contains("warn  client: Claude Desktop's entry in " + home.resolve(".config/Claude/claude_desktop_config.json")
                + " connects to postgresql://localhost:" + TestPostgres.port() + "/" + DB + " as user '" + user + "', not"
                + " postgresql://localhost:" + TestPostgres.port() + "/" + DB + " as user 'sb_doctor_reader' as given here;"
                + " run 'schemabrain init --client claude-desktop --url-env DB' with DB holding the current URL to replace it."),
                r.stdout());
        assertEquals(1, r.exitCode(), r.stdout());
    }

    @Test
    void doctorChecksTheClientsEntriesAgainstThisStore() throws Exception {
        Path home = dir.resolve("wired-home");
        Path sqlite = dir.resolve("wired.sqlite");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + sqlite); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE notes (id integer PRIMARY KEY, body text)");
        }
        Path store = dir.resolve("wired.db");
        Path jar = Files.writeString(dir.resolve("wired.jar"), "a jar");
        Map<String, String> wiredEnv = Map.of("HOME", home.toString(), WitnessFile.ENV,
                dir.resolve("wired.head").toString());
        assertEquals(0, InProcessCli.run(wiredEnv, "index", "--source", "sqlite:" + sqlite, "--store", store.toString()).exitCode());
        Files.createDirectories(home.resolve(".cursor"));
        assertEquals(0, InProcessCli.run(wiredEnv, "init", "--client", "cursor", "--jar", jar.toString(), "--store",
                store.toString()).exitCode());

        InProcessCli.Result wired = InProcessCli.run(wiredEnv, "doctor", "--store", store.toString());
        assertEquals(0, wired.exitCode(), wired.stdout());
        assertTrue(wired.stdout().contains("ok    client: Cursor starts this server"), wired.stdout());
        assertTrue(wired.stdout().contains("skip  source: none given"), wired.stdout());

        Path other = dir.resolve("other.db");
        assertEquals(0, InProcessCli.run(wiredEnv, "index", "--source", "sqlite:" + sqlite, "--store", other.toString()).exitCode());
        InProcessCli.Result elsewhere = InProcessCli.run(wiredEnv, "doctor", "--store", other.toString());
        assertEquals(1, elsewhere.exitCode(), elsewhere.stdout());
        assertTrue(elsewhere.stdout().contains("warn  client: Cursor serves another store than " + other), elsewhere.stdout());

        Files.writeString(home.resolve(".cursor/mcp.json"), "{\"mcpServers\": ");
        InProcessCli.Result broken = InProcessCli.run(wiredEnv, "doctor", "--store", store.toString());
        assertEquals(1, broken.exitCode(), broken.stdout());
        assertTrue(broken.stdout().contains("warn  client: Cursor: " + home.resolve(".cursor/mcp.json") + " is not valid JSON"),
                broken.stdout());
    }
}
