package dev.schemabrain.testing;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A MariaDB server of the test's own with performance_schema ON (the system server at :3306 runs with it
 * off), in a temporary data directory on a free port: mariadb-install-db, then mariadbd, stopped when the
 * JVM exits. One per JVM.
 */
public final class PerformanceSchemaMariaDb {

    private static Process server;
    private static int port;

    private PerformanceSchemaMariaDb() {
    }

    public static synchronized int port() {
        if (server == null) {
            start();
        }
        return port;
    }

    private static void start() {
        try {
            Path dir = Files.createTempDirectory("schemabrain-maria-ps");
            Path log = dir.resolve("server.log");
            run(List.of("mariadb-install-db", "--no-defaults", "--datadir=" + dir.resolve("data"),
                    "--auth-root-authentication-method=normal", "--skip-test-db", "--user=" + System.getProperty("user.name")),
                    dir.resolve("install.log"));
            try (ServerSocket free = new ServerSocket(0)) {
                port = free.getLocalPort();
            }
            server = new ProcessBuilder(List.of("mariadbd", "--no-defaults", "--datadir=" + dir.resolve("data"),
                    "--socket=" + dir.resolve("sock"), "--port=" + port, "--bind-address=127.0.0.1",
                    "--performance-schema=ON", "--skip-log-bin", "--user=" + System.getProperty("user.name"),
                    "--pid-file=" + dir.resolve("pid")))
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> server.destroy()));
            for (int i = 0; i < 300; i++) {
                try (Connection c = admin()) {
                    return;
                } catch (SQLException notYet) {
                    if (!server.isAlive()) {
                        throw new IllegalStateException("mariadbd exited:\n" + Files.readString(log));
                    }
                    Thread.sleep(100);
                }
            }
            throw new IllegalStateException("mariadbd did not accept connections in 30 s:\n" + Files.readString(log));
        } catch (IOException e) {
            throw new IllegalStateException("cannot start a test MariaDB (install mariadb-server)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void run(List<String> command, Path log) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed:\n" + Files.readString(log));
        }
    }

    public static Connection admin() throws SQLException {
        return DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + port + "/", "root", "");
    }

    public static Connection connect(String database) throws SQLException {
        return DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + port() + "/" + database, "root", "");
    }

    public static String url(String database) {
        return "mariadb://root@127.0.0.1:" + port() + "/" + database;
    }

    /** All of Chinook (its tables and foreign keys from bench/sampledbs/chinook.sql, rows from PostgreSQL) as {@code database}. */
    public static void chinook(String database) throws SQLException {
        TestPostgres.loadSample("chinook", "chinook.sql");
        port();
        String script;
        try {
            script = Files.readString(Bench.sampleDb("chinook.sql"));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        List<String> tables = new ArrayList<>();
        try (Connection c = admin(); Statement st = c.createStatement()) {
            st.execute("DROP DATABASE IF EXISTS " + database);
            st.execute("CREATE DATABASE " + database + " CHARACTER SET utf8mb4");
            st.execute("USE " + database);
            Matcher create = Pattern.compile("CREATE TABLE (\\w+)\\s*\\(.*?\\);", Pattern.DOTALL).matcher(script);
            while (create.find()) {
                st.execute(create.group().replace(";", "").replace("TIMESTAMP", "DATETIME"));   // TIMESTAMP stops at 1970
                tables.add(create.group(1));
            }
        }
        for (String table : tables) {
            try (Connection from = TestPostgres.connect("chinook"); Connection to = connect(database);
                 Statement read = from.createStatement(); ResultSet rs = read.executeQuery("SELECT * FROM " + table)) {
                ResultSetMetaData meta = rs.getMetaData();
                int n = meta.getColumnCount();
                try (PreparedStatement write = to.prepareStatement("INSERT INTO " + table + " VALUES ("
                        + String.join(", ", java.util.Collections.nCopies(n, "?")) + ")")) {
                    while (rs.next()) {
                        for (int i = 1; i <= n; i++) {
                            write.setObject(i, rs.getObject(i));
                        }
                        write.addBatch();
                    }
                    write.executeBatch();
                }
            }
        }
        try (Connection c = connect(database); Statement st = c.createStatement()) {
            Matcher fk = Pattern.compile("ALTER TABLE \\w+ ADD CONSTRAINT .*?;", Pattern.DOTALL).matcher(script);
            while (fk.find()) {
                st.execute(fk.group().replace(";", ""));
            }
        }
    }
}
