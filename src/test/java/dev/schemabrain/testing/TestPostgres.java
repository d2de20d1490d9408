package dev.schemabrain.testing;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * One real PostgreSQL server per test JVM (embedded binaries from Maven Central, no service to
 * install), with the bench sample databases loaded on demand through the real psql client.
 */
public final class TestPostgres {

    private static EmbeddedPostgres server;
    private static Path dataDirectory;
    private static boolean passwordRole;
    private static final Set<String> LOADED = new HashSet<>();

    private TestPostgres() {
    }

    public static synchronized EmbeddedPostgres server() {
        if (server == null) {
            try {
                dataDirectory = Files.createTempDirectory("schemabrain-pg");
                server = EmbeddedPostgres.builder()
                        .setDataDirectory(dataDirectory)
                        .setCleanDataDirectory(true)
                        .setServerConfig("shared_preload_libraries", "pg_stat_statements")
                        .setServerConfig("pg_stat_statements.max", "20000")   // the mining benchmark keeps 10,000 statements
                        .setServerConfig("max_connections", "100")
                        .setServerConfig("fsync", "off")
                        .setServerConfig("synchronous_commit", "off")
                        .start();
            } catch (IOException e) {
                throw new IllegalStateException("cannot start the embedded PostgreSQL", e);
            }
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    server.close();
                } catch (IOException ignored) {
                    // The JVM is exiting.
                }
            }));
        }
        return server;
    }

    /**
     * A role that must log in with a password over TCP (the server trusts everyone else), for tests of
     * authentication failures. Returns its name; the password is {@code right-password}.
     */
    public static synchronized String passwordRole() throws SQLException, IOException {
        server();
        if (!passwordRole) {
            try (Connection c = connect("postgres"); Statement st = c.createStatement()) {
                st.execute("DROP ROLE IF EXISTS sb_password_user");
                st.execute("CREATE ROLE sb_password_user LOGIN PASSWORD 'right-password'");
                Path hba = dataDirectory.resolve("pg_hba.conf");
                Files.writeString(hba, "host all sb_password_user 127.0.0.1/32 scram-sha-256\n"
                        + "host all sb_password_user ::1/128 scram-sha-256\n" + Files.readString(hba));
                st.execute("SELECT pg_reload_conf()");
            }
            passwordRole = true;
        }
        return "sb_password_user";
    }

    public static int port() {
        return server().getPort();
    }

    /** A SchemaBrain source URL for a database on the test server. */
    public static String url(String database) {
        return "postgresql://postgres@localhost:" + port() + "/" + database;
    }

    public static Connection connect(String database) throws SQLException {
        return server().getDatabase("postgres", database).getConnection();
    }

    /** Creates {@code database} (dropping an older copy) and runs {@code sql} in it. */
    public static synchronized void createDatabase(String database, String... sql) throws SQLException {
        try (Connection c = connect("postgres"); Statement st = c.createStatement()) {
            st.execute("DROP DATABASE IF EXISTS \"" + database + "\" WITH (FORCE)");
            st.execute("CREATE DATABASE \"" + database + "\"");
        }
        try (Connection c = connect(database); Statement st = c.createStatement()) {
            for (String statement : sql) {
                st.execute(statement);
            }
        }
    }

    /**
     * Loads a file of bench/sampledbs into its own database once per JVM. chinook.sql
     * creates and connects to its own database; the others are loaded into {@code database}.
     */
    public static synchronized void loadSample(String database, String file) {
        if (LOADED.contains(database)) {
            return;
        }
        try {
            boolean createsItself = file.equals("chinook.sql");
            try (Connection c = connect("postgres"); Statement st = c.createStatement()) {
                st.execute("DROP DATABASE IF EXISTS \"" + database + "\" WITH (FORCE)");
                if (!createsItself) {
                    st.execute("CREATE DATABASE \"" + database + "\"");
                }
            }
            psql(createsItself ? "postgres" : database, Bench.sampleDb(file));
            try (Connection c = connect(database); Statement st = c.createStatement()) {
                st.execute("ANALYZE");
            }
            LOADED.add(database);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot load " + file, e);
        }
    }

    /** Runs a script through psql, stopping at the first error. */
    public static void psql(String database, Path script) {
        try {
            Path log = Files.createTempFile("psql", ".log");
            Process p = new ProcessBuilder(List.of("psql", "-X", "-q", "-v", "ON_ERROR_STOP=1",
                    "-h", "localhost", "-p", Integer.toString(port()), "-U", "postgres", "-d", database,
                    "-f", script.toString()))
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            if (!p.waitFor(300, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException("psql failed on " + script + ":\n" + Files.readString(log));
            }
            Files.deleteIfExists(log);
        } catch (IOException e) {
            throw new IllegalStateException("cannot run psql (install the PostgreSQL client)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public static long count(String database, String sql) throws SQLException {
        try (Connection c = connect(database); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
