package dev.schemabrain.demo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.UUID;
import org.duckdb.DuckDBDriver;

/**
 * The demo's second database: product events in a DuckDB file beside the SQLite one, so the demo serves two sources
 * from one store. Its organisations are the SQLite database's by id, as a warehouse's copy would hold them; no key
 * joins the two, since no statement joins across databases.
 */
public final class DemoEvents {

    private static final String[] SCHEMA = {
            """
            CREATE TABLE feature_events (
              id INTEGER PRIMARY KEY,
              organization_id INTEGER NOT NULL,
              feature VARCHAR NOT NULL,
              platform VARCHAR NOT NULL,
              occurred_at TIMESTAMP NOT NULL
            )""",
            // Deterministic rows over 2024: the same file on every machine.
            """
            INSERT INTO feature_events
            SELECT i, 1 + (i * 7) % 40,
                   ['dashboards', 'exports', 'alerts', 'api', 'sso'][1 + (i * 13) % 5],
                   ['web', 'web', 'web', 'web', 'web', 'ios', 'ios', 'ios', 'android', 'android'][1 + (i * 7) % 10],
                   TIMESTAMP '2024-01-01' + to_minutes(CAST((i * 37) % 525600 AS BIGINT))
            FROM range(1, 6001) t(i)"""};

    private DemoEvents() {
    }

    /** The events file beside the demo database {@code database}: {@code NAME-events.duckdb}. */
    public static Path beside(Path database) {
        String name = database.getFileName().toString();
        int dot = name.lastIndexOf('.');
        return database.toAbsolutePath().resolveSibling((dot > 0 ? name.substring(0, dot) : name) + "-events.duckdb");
    }

    /** Creates {@code file} unless it exists; written under a temporary name and renamed, so it is whole or absent. */
    public static void ensure(Path file) {
        if (Files.exists(file)) {
            return;
        }
        Path target = file.toAbsolutePath();
        Path temp = target.resolveSibling("." + target.getFileName() + "." + UUID.randomUUID() + ".tmp");
        try {
            // The driver itself: the packaged jar does not list it for DriverManager.
            try (Connection c = new DuckDBDriver().connect("jdbc:duckdb:" + temp, new Properties());
                 Statement st = c.createStatement()) {
                for (String sql : SCHEMA) {
                    st.execute(sql);
                }
            }
            Files.move(temp, target);
        } catch (SQLException e) {
            throw new UncheckedIOException(new IOException("DuckDB could not write " + target + ": " + e.getMessage(), e));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            try {
                Files.deleteIfExists(temp);
                Files.deleteIfExists(temp.resolveSibling(temp.getFileName() + ".wal"));
            } catch (IOException e) {
                // A temporary file left behind is the demo's own; the next run writes another.
            }
        }
    }
}
