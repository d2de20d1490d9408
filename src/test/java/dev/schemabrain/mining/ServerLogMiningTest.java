package dev.schemabrain.mining;

import dev.schemabrain.store.QueryLogRepository.Example;
import dev.schemabrain.testing.StoreBytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.schemabrain.mining.MinedStore.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A PostgreSQL server of its own that logs every statement at once as stderr (prefix {@code %m [%p] %q%u@%d }),
 * csvlog and jsonlog: the search_path workload, a prepared statement with bind parameters (a status and an e-mail),
 * a statement logged by log_min_duration_statement instead of log_statement, an {@code ALTER ROLE … PASSWORD} line
 * and another database's statements. Mined from each file, the stored SELECT examples are the same, keep the
 * constants the catalog already shows (so run as they are), and no PII value or password reaches the store;
 * pg_stat_statements, mined beside them, loses those constants.
 */
class ServerLogMiningTest {

    private static final String DB = "t30_server_log";
    private static final String PASSWORD = "Hunter2-never-stored";
    private static final String PARAMETER_EMAIL = "js@example.org";

    private static LoggingPostgres server;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() throws Exception {
        server = LoggingPostgres.start("stderr,csvlog,jsonlog", "pg.log",
                Map.of("shared_preload_libraries", "pg_stat_statements"));
        try (Connection c = connect("postgres"); Statement st = c.createStatement()) {
            // A value with spaces does not survive the server's command line: set it the way an operator would.
            st.execute("ALTER SYSTEM SET log_line_prefix = '%m [%p] %q%u@%d '");
            st.execute("SELECT pg_reload_conf()");
            st.execute("CREATE DATABASE " + DB);
            st.execute("SELECT count(*) FROM pg_class WHERE relname = 'invoice'");   // another database: left out
        }
        try (Connection c = connect(DB); Statement st = c.createStatement()) {
            st.execute("CREATE EXTENSION pg_stat_statements");
            for (String sql : SearchPathMiningTest.SCHEMA) {
                st.execute(sql);
            }
        }
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    private static Connection connect(String database) throws Exception {
        return server.connect(database);
    }

    private static String url() {
        return server.url(DB);
    }

    @Test
    void theServerLogKeepsTheConstantsSoExamplesRunAsTheyAreInEachFormat() throws Exception {
        MinedStore statistics = new MinedStore(dir.resolve("statistics.db"));
        List<String> formats = List.of("pg.csv", "pg.json", "pg.log");
        // Every store indexed before the workload, so late_table is a name none of their catalogs has.
        for (String file : formats) {
            ok(new MinedStore(dir.resolve(file + ".db")).cli("index", "--source", url()));
        }
        ok(statistics.cli("index", "--source", url()));
        try (Connection c = connect(DB); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE billing.late_table (id int)");   // after indexing: a name the catalog lacks
            st.execute("SELECT pg_stat_statements_reset()");
            st.execute("SET search_path = billing");
            for (String sql : SearchPathMiningTest.WORKLOAD) {
                st.execute(sql);
            }
            // The extended protocol: logged as "execute <unnamed>: …" with a DETAIL of the bound values.
            try (PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM invoice WHERE status = ? AND total > ?")) {
                ps.setString(1, "void");
                ps.setInt(2, 50);
                ps.executeQuery().close();
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT customer_id, segment FROM customer WHERE email = ?")) {
                ps.setString(1, PARAMETER_EMAIL);
                ps.executeQuery().close();
            }
            // log_min_duration_statement writes "duration: … ms  statement: …" instead.
            st.execute("SET log_statement = 'none'");
            st.execute("SET log_min_duration_statement = 0");
            st.execute("SELECT count(*) FROM invoice WHERE status = 'draft'");
            st.execute("RESET log_min_duration_statement");
            st.execute("RESET log_statement");
            st.execute("DROP ROLE IF EXISTS t30_log_secret");
            st.execute("CREATE ROLE t30_log_secret LOGIN");
            st.execute("ALTER ROLE t30_log_secret PASSWORD '" + PASSWORD + "'");
        }
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://localhost:" + server.server().getPort() + "/" + DB
                + "?user=t30_reporter&options=-c%20search_path%3Dbilling"); Statement st = c.createStatement()) {
            st.execute("SELECT note_id FROM note WHERE note_id > 3");
        }
        server.awaitLogged("note_id > 3", "pg.csv", "pg.json", "pg.log");
        // The files as they are now: the checks below run statements the server logs too.
        Path snapshot = Files.createDirectories(dir.resolve("logs"));
        for (String file : formats) {
            Files.copy(server.logs().resolve(file), snapshot.resolve(file));
        }

        String before = ok(statistics.cli("mine-queries", "--source", url()));
        // Every file mined before any example runs here (those runs are logged too).
        Map<String, String> outs = new HashMap<>();
        for (String file : formats) {
            outs.put(file, ok(new MinedStore(dir.resolve(file + ".db")).cli("mine-queries", "--source", url(),
                    "--log-file", snapshot.resolve(file).toString())));
        }
        List<Example> statisticsSelects = selects(statistics);
        RunnableExamples statisticsRun = RunnableExamples.run(server.server().getPort(), DB, statisticsSelects);

        List<String> storedByFormat = new ArrayList<>();
        for (String file : formats) {
            MinedStore mined = new MinedStore(dir.resolve(file + ".db"));
            String out = outs.get(file);
            Matcher read = Pattern.compile("server log\\s+(\\d+) statements run in 1 file\\(s\\): (\\d+) in other databases")
                    .matcher(out);
            assertTrue(read.find(), out);
            assertTrue(Integer.parseInt(read.group(1)) > SearchPathMiningTest.WORKLOAD.size(), out);
            assertTrue(Integer.parseInt(read.group(2)) > 0, "the statement run in postgres: " + out);
            assertTrue(out.contains("skipped                 1 with a table name no indexed schema has, 1 with a name several schemas have"), out);

            List<Example> selects = selects(mined);
            List<String> sql = selects.stream().map(Example::sql).sorted().toList();
            storedByFormat.add(String.join("\n", sql));
            assertTrue(sql.contains("SELECT date_trunc('month', created_at), count(*) FROM billing.invoice WHERE status = 'paid'"
                    + " GROUP BY 1 ORDER BY 1"), "status = 'paid' kept: " + sql);
            assertTrue(sql.contains("SELECT count(*) FROM billing.invoice WHERE status = 'void' AND total > ?"),
                    "a bound status kept, a bound amount not: " + sql);
            assertTrue(sql.contains("SELECT i.invoice_id FROM billing.invoice i JOIN billing.customer c USING (customer_id)"
                    + " WHERE c.email = ?"), "the e-mail stripped: " + sql);
            assertTrue(sql.contains("SELECT customer_id, segment FROM billing.customer WHERE email = ?"), "the bound e-mail stripped: " + sql);

            RunnableExamples run = RunnableExamples.run(server.server().getPort(), DB, selects);
            assertEquals(List.of(), run.failures(), "every example runs or plans");
            // Placeholders left: three PII values (the e-mail literal, the bound e-mail, the full name) and two amounts
            // the catalog does not show (KeptLiterals keeps only values the server already serves).
            List<String> withPlaceholders = sql.stream().filter(s -> s.contains("?")).toList();
            assertEquals(List.of(
                    "SELECT count(*) FROM billing.invoice WHERE status = 'void' AND total > ?",
                    "SELECT customer_id FROM billing.customer WHERE full_name = ?",
                    "SELECT customer_id, segment FROM billing.customer WHERE email = ?",
                    "SELECT i.invoice_id FROM billing.invoice i JOIN billing.customer c USING (customer_id) WHERE c.email = ?",
                    "SELECT l.invoice_id, sum(l.amount) FROM billing.invoice_line l JOIN billing.invoice i ON i.invoice_id ="
                            + " l.invoice_id GROUP BY 1 HAVING sum(l.amount) > ?"), withPlaceholders);
            assertEquals(selects.size() - withPlaceholders.size(), run.direct());

            String bytes = StoreBytes.of(mined.file());
            for (String secret : List.of("jane.roe@example.org", PARAMETER_EMAIL, "Jane Roe", PASSWORD)) {
                assertFalse(bytes.contains(secret), secret + " reached the store from " + file);
            }
            if (file.equals("pg.csv")) {
                System.out.printf("search_path workload: pg_stat_statements %d of %d examples run as they are; server log %d of %d%n",
                        statisticsRun.direct(), statisticsSelects.size(), run.direct(), selects.size());
                assertEquals(2, statisticsRun.direct(), "pg_stat_statements keeps only ordinals: " + before);
                assertEquals(statisticsSelects.size(), selects.size(), "the same examples, with their constants");
            }
        }
        // The same file again adds nothing: its counts act as a counter that did not move.
        String again = ok(new MinedStore(dir.resolve("pg.csv.db")).cli("mine-queries", "--source", url(),
                "--log-file", snapshot.resolve("pg.csv").toString()));
        assertTrue(again.matches("(?s).*observations\\s+0 added \\(0 new statements, \\d+ seen before\\).*"), again);
        assertEquals(storedByFormat.get(0), storedByFormat.get(1), "csvlog and jsonlog");
        assertEquals(storedByFormat.get(0), storedByFormat.get(2), "csvlog and stderr");
    }

    private static List<Example> selects(MinedStore mined) throws Exception {
        return mined.stored(url()).stream().filter(e -> e.kind().equals("select")).toList();
    }
}
