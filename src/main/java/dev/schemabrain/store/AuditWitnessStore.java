package dev.schemabrain.store;

import dev.schemabrain.error.StoreException;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;
import org.sqlite.SQLiteOpenMode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.Optional;

/**
 * The audit chain's witness row in the store (V4). Written after every append with a short busy
 * timeout: an index run holds the store's write lock for its whole transaction, and a call must never
 * wait for it, so a busy store just leaves the witness lagging until the next append. It only moves
 * forward; the row it replaces is handed to a check first, so a witness that the chain no longer
 * matches (a truncated or rolled-back log) is never overwritten. Serving never creates a store: a
 * missing or never-written store gets no witness.
 */
public final class AuditWitnessStore {

    /** A stored witness, as written; the audit package checks its MAC. */
    public record Stored(long rowCount, String headHash, String mac) {
    }

    /** What happened to one write. */
    public enum Outcome { WRITTEN, ALREADY_AHEAD, NO_STORE, BUSY }

    /** Checks the witness about to be replaced; throws to keep it. */
    @FunctionalInterface
    public interface Check<E extends Exception> {
        void accept(Stored previous) throws E;
    }

    private AuditWitnessStore() {
    }

    /** Where a chain's witness is kept: the SQLite store file, or the PostgreSQL store's schema. */
    public interface Witnesses extends AutoCloseable {
        /** Writes {@code witness} if it is ahead of the stored one, after {@code check} accepted the stored one. */
        <E extends Exception> Outcome advance(Stored witness, Check<E> check) throws E, StoreException;

        /** The stored witness; empty when there is none (or no store). */
        Optional<Stored> read() throws StoreException;

        @Override
        void close();
    }

    /** The witnesses of the store at {@code location}; nothing is opened before the first write or read. */
    public static Witnesses of(StoreLocation location, int busyMillis) {
        return location instanceof StoreLocation.SqliteFile f ? new Writer(f.path(), busyMillis)
                : new PostgresWriter((StoreLocation.PostgresSchema) location, busyMillis);
    }

    /**
     * Writes {@code witness} if it is ahead of the stored one, after {@code check} accepted the stored
     * one. Migrates a store of an older version first (in the same transaction). Opens and closes its
     * own connection; a server writing after every append batch keeps a {@link Writer} instead.
     */
    public static <E extends Exception> Outcome advance(Path store, Stored witness, int busyMillis, Check<E> check)
            throws E, StoreException {
        try (Writer writer = new Writer(store, busyMillis)) {
            return writer.advance(witness, check);
        }
    }

    /**
     * Writes witnesses through one connection kept open between writes: opening one per append cost more
     * than the write. The connection is dropped and opened again when the file at the path is no longer
     * the one it was opened on (deleted, or replaced by a new store) or when a write failed.
     */
    public static final class Writer implements Witnesses {

        private final Path store;
        private final int busyMillis;
        private Connection connection;
        private Object openedOn;
        private int version = -1;   // the store's schema version as this connection found it; -1: not asked yet

        public Writer(Path store, int busyMillis) {
            this.store = store;
            this.busyMillis = busyMillis;
        }

        @Override
        public Optional<Stored> read() throws StoreException {
            return AuditWitnessStore.read(store);
        }

        /** See {@link AuditWitnessStore#advance}. */
        @Override
        public synchronized <E extends Exception> Outcome advance(Stored witness, Check<E> check) throws E, StoreException {
            if (!SqliteStore.exists(store) || !SqliteStore.writable(store)) {
                close();   // a read-only store (a read-only mount) keeps no witness, like a missing one
                return Outcome.NO_STORE;
            }
            try {
                Connection c = connection();
                if (version < 0) {
                    // Asked once per connection: the file it is open on keeps its identity, and a migration
                    // by this writer (below) or by an index run only moves it to the version this build knows.
                    int v = pragma(c, "user_version");
                    version = v == 0 || v > Migrations.latestVersion() || pragma(c, "application_id") != SqliteStore.APPLICATION_ID
                            ? 0 : v;
                }
                if (version == 0) {
                    version = -1;   // never indexed, newer, or not ours: nothing to write into (asked again next time)
                    return Outcome.NO_STORE;
                }
                Outcome written = write(c, version, witness, check);
                version = Migrations.latestVersion();
                return written;
            } catch (SQLException e) {
                close();
                if (e instanceof SQLiteException se && (se.getResultCode() == SQLiteErrorCode.SQLITE_BUSY
                        || se.getResultCode() == SQLiteErrorCode.SQLITE_LOCKED)) {
                    return Outcome.BUSY;
                }
                throw new StoreException("Writing the audit witness into the store " + store + " failed (" + e.getMessage() + ").", e);
            }
        }

        private Connection connection() throws SQLException {
            Object now = fileKey(store);
            if (connection != null && (now == null || !now.equals(openedOn))) {
                close();
            }
            if (connection == null) {
                connection = connect(store, busyMillis, false);
                openedOn = now;
            }
            return connection;
        }

        @Override
        public synchronized void close() {
            closeQuietly(connection);
            connection = null;
            version = -1;
        }
    }

    private static <E extends Exception> Outcome write(Connection c, int version, Stored witness, Check<E> check)
            throws E, SQLException {
        c.setAutoCommit(false);
        try {
            if (version < Migrations.latestVersion()) {
                Migrations.migrate(c, version);
            }
            Optional<Stored> previous = read(c);
            if (previous.isPresent()) {
                check.accept(previous.get());
                if (previous.get().rowCount() >= witness.rowCount()) {
                    c.rollback();
                    return Outcome.ALREADY_AHEAD;
                }
            }
            try (PreparedStatement st = c.prepareStatement("""
                    INSERT INTO audit_witness (id, row_count, head_hash, mac, written_at) VALUES (1, ?, ?, ?, ?)
                    ON CONFLICT (id) DO UPDATE SET row_count = excluded.row_count, head_hash = excluded.head_hash,
                      mac = excluded.mac, written_at = excluded.written_at
                    WHERE excluded.row_count > audit_witness.row_count""")) {
                st.setLong(1, witness.rowCount());
                st.setString(2, witness.headHash());
                st.setString(3, witness.mac());
                st.setString(4, Instant.now().toString());
                st.executeUpdate();
            }
            c.commit();
            return Outcome.WRITTEN;
        } catch (Exception e) {
            rollbackQuietly(c);
            throw e;
        } finally {
            try {
                c.setAutoCommit(true);
            } catch (SQLException ignored) {
                // A broken connection: the next write opens another.
            }
        }
    }

    /**
     * The witness row of a PostgreSQL store (V4's audit_witness), written through a connection of its own:
     * the chain's appends hold theirs in their transaction. A row lock held longer than {@code busyMillis}
     * (another instance writing it) leaves this witness behind, as a busy SQLite store does. Every instance
     * of a fleet writes here; the row only moves forward.
     */
    static final class PostgresWriter implements Witnesses {

        private final StoreLocation.PostgresSchema location;
        private final int busyMillis;
        private Connection connection;

        PostgresWriter(StoreLocation.PostgresSchema location, int busyMillis) {
            this.location = location;
            this.busyMillis = busyMillis;
        }

        @Override
        public synchronized <E extends Exception> Outcome advance(Stored witness, Check<E> check) throws E, StoreException {
            try {
                // The schema is migrated by the store's owner, never by a serving instance: nothing to migrate here.
                return write(connection(), Migrations.latestVersion(), witness, check);
            } catch (SQLException e) {
                close();
                if ("55P03".equals(e.getSQLState())) {   // lock_not_available: another instance is writing it
                    return Outcome.BUSY;
                }
                throw new StoreException("Writing the audit witness into the store " + location + " failed ("
                        + PostgresStore.reason(e) + ").", e);
            }
        }

        @Override
        public synchronized Optional<Stored> read() throws StoreException {
            try {
                Connection c = connection();
                return StoreDialect.hasTable(c, "audit_witness") ? AuditWitnessStore.read(c) : Optional.empty();
            } catch (SQLException e) {
                close();
                throw new StoreException("Reading the audit witness from the store " + location + " failed ("
                        + PostgresStore.reason(e) + ").", e);
            }
        }

        private Connection connection() throws StoreException, SQLException {
            if (connection == null) {
                Connection c = PostgresStore.connect(location, "schemabrain-audit-witness");
                try (Statement st = c.createStatement()) {
                    st.execute("SET lock_timeout = " + busyMillis);
                    st.execute("SET synchronous_commit TO on");
                }
                connection = c;
            }
            return connection;
        }

        @Override
        public synchronized void close() {
            closeQuietly(connection);
            connection = null;
        }
    }

    private static void closeQuietly(Connection c) {
        if (c != null) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // Nothing is pending on it: every write commits or rolls back.
            }
        }
    }

    /** The file's identity (inode), or null when it is gone. */
    private static Object fileKey(Path file) {
        try {
            Object k = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey();
            return k == null ? "" : k;
        } catch (IOException gone) {
            return null;
        }
    }

    /**
     * Forgets the witness: only {@code audit rotate} does this, after archiving the log it vouched for.
     * Waits for the store's write lock like any writer.
     */
    public static void clear(Path store) throws StoreException {
        if (!SqliteStore.exists(store)) {
            return;
        }
        try (Connection c = connect(store, 10_000, false)) {
            if (pragma(c, "application_id") == SqliteStore.APPLICATION_ID && hasTable(c, "audit_witness")) {
                try (Statement st = c.createStatement()) {
                    st.execute("DELETE FROM audit_witness");
                }
            }
        } catch (SQLException e) {
            throw new StoreException("Clearing the audit witness in the store " + store + " failed (" + e.getMessage()
                    + "); retry when no index run holds the store.", e);
        }
    }

    /** The stored witness; empty when the store, its V4 table or the row does not exist. Read-only. */
    public static Optional<Stored> read(Path store) throws StoreException {
        if (!SqliteStore.exists(store)) {
            return Optional.empty();
        }
        try (Connection c = connect(store, 5_000, true)) {
            if (pragma(c, "application_id") != SqliteStore.APPLICATION_ID || !hasTable(c, "audit_witness")) {
                return Optional.empty();
            }
            return read(c);
        } catch (SQLException e) {
            throw new StoreException("Reading the audit witness from the store " + store + " failed (" + e.getMessage() + ").", e);
        }
    }

    private static Optional<Stored> read(Connection c) throws SQLException {
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT row_count, head_hash, mac FROM audit_witness WHERE id = 1")) {
            return rs.next() ? Optional.of(new Stored(rs.getLong(1), rs.getString(2), rs.getString(3))) : Optional.empty();
        }
    }

    static boolean hasTable(Connection c, String name) throws SQLException {
        try (PreparedStatement st = c.prepareStatement("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?")) {
            st.setString(1, name);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next();
            }
        }
    }

    static int pragma(Connection c, String name) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("PRAGMA " + name)) {
            return rs.next() ? rs.getInt(1) : 0;
        }
    }

    static Connection connect(Path store, int busyMillis, boolean readOnly) throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.resetOpenMode(SQLiteOpenMode.CREATE);   // never create a store file
        config.setBusyTimeout(busyMillis);
        if (readOnly) {
            return SqliteStore.readOnlyConnection(store, config);
        }
        config.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
        config.setTransactionMode(SQLiteConfig.TransactionMode.IMMEDIATE);
        config.setPragma(SQLiteConfig.Pragma.SECURE_DELETE, "true");
        return DriverManager.getConnection("jdbc:sqlite:" + store, config.toProperties());
    }

    private static void rollbackQuietly(Connection c) {
        try {
            c.rollback();
        } catch (SQLException ignored) {
            // The transaction dies with the connection.
        }
    }
}
