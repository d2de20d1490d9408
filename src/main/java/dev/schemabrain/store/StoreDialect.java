package dev.schemabrain.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.postgresql.PGConnection;

/**
 * The few things the two stores must say differently; every other statement of the repositories is one
 * SQL for both. A repository finds its dialect from the connection it was handed.
 */
public enum StoreDialect {

    SQLITE("migrations/"),
    POSTGRESQL("postgresql/");

    private final String migrations;

    StoreDialect(String migrations) {
        this.migrations = migrations;
    }

    public static StoreDialect of(Connection c) throws SQLException {
        return c.isWrapperFor(PGConnection.class) ? POSTGRESQL : SQLITE;
    }

    /** Whether the store has {@code table} yet (a store written by an older build, or never, lacks some). */
    public static boolean hasTable(Connection c, String table) throws SQLException {
        String sql = of(c) == POSTGRESQL
                ? "SELECT 1 FROM pg_tables WHERE schemaname = current_schema() AND tablename = ?"
                : "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?";
        try (PreparedStatement st = c.prepareStatement(sql)) {
            st.setString(1, table);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next();
            }
        }
    }

    /** Whether {@code table} has {@code column} yet (a store read without migrating may be older than this build). */
    public static boolean hasColumn(Connection c, String table, String column) throws SQLException {
        String sql = of(c) == POSTGRESQL
                ? "SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ? AND column_name = ?"
                : "SELECT 1 FROM pragma_table_info(?) WHERE name = ?";
        try (PreparedStatement st = c.prepareStatement(sql)) {
            st.setString(1, table);
            st.setString(2, column);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next();
            }
        }
    }

    /** The class-path folder of this dialect's migration scripts. */
    String migrationFolder() {
        return migrations;
    }

    /** Records the version the migrations reached, inside the migrating transaction. */
    void recordVersion(Statement st, int version) throws SQLException {
        if (this == POSTGRESQL) {
            st.execute("INSERT INTO schema_version (id, version) VALUES (1, " + version
                    + ") ON CONFLICT (id) DO UPDATE SET version = excluded.version");
        } else {
            st.execute("PRAGMA user_version = " + version);
        }
    }

    /**
     * Takes the lock an index run of {@code sourceId} holds until its transaction ends; false when another
     * run holds it. SQLite needs none: its write transaction holds the whole file.
     */
    public boolean tryLockIndexRun(Connection c, String sourceId) throws SQLException {
        if (this == SQLITE) {
            return true;
        }
        try (PreparedStatement st = c.prepareStatement(
                "SELECT pg_try_advisory_xact_lock(hashtextextended('schemabrain index ' || current_schema() || ' ' || ?, 0))")) {
            st.setString(1, sourceId);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }

    /** After rows were copied in with their ids: the next generated id follows the largest one. */
    void resetIdentity(Connection c, String table, String column) throws SQLException {
        if (this == SQLITE) {
            return;   // INTEGER PRIMARY KEY continues from max(rowid) by itself
        }
        try (Statement st = c.createStatement()) {
            st.execute("SELECT setval(pg_get_serial_sequence('" + table + "', '" + column + "'), coalesce((SELECT max("
                    + column + ") FROM " + table + "), 0) + 1, false)");
        }
    }
}
