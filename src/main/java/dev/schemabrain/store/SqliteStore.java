package dev.schemabrain.store;

import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;

/**
 * The store: one SQLite file in WAL mode, identified by its {@code application_id}, versioned by
 * {@code user_version}. Every write happens in one transaction that also applies pending migrations,
 * so a failed or interrupted run leaves the file as it was.
 */
public final class SqliteStore implements AutoCloseable {

    /** "SBRN": marks a file as a SchemaBrain store. */
    static final int APPLICATION_ID = 0x5342524E;
    private static final byte[] SQLITE_HEADER = "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII);

    private final Path path;
    private final Connection connection;

    private SqliteStore(Path path, Connection connection) {
        this.path = path;
        this.connection = connection;
    }

    public Path path() {
        return path;
    }

    /** Whether a store file with content exists at {@code path} (it may still be invalid). */
    public static boolean exists(Path path) {
        try {
            return Files.isRegularFile(path) && Files.size(path) > 0;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Opens an existing store for reading and writing, after checking it is one this build
     * understands. Nothing is written by opening.
     */
    public static SqliteStore open(Path path) throws StoreException {
        if (!exists(path)) {
            throw new StoreException("No store at " + path + "; run 'schemabrain index --source URL' first"
                    + " or pass --store PATH.");
        }
        checkHeader(path);
        SqliteStore store = connect(path);
        try {
            store.checkIdentity();
            return store;
        } catch (StoreException | RuntimeException e) {
            store.close();
            throw e;
        }
    }

    /** Opens the store at {@code path}, creating the file when it does not exist yet. */
    public static SqliteStore openOrCreate(Path path) throws StoreException {
        if (exists(path)) {
            return open(path);
        }
        try {
            Path parent = path.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
        } catch (IOException e) {
            throw new StoreException("Cannot create the directory for the store " + path
                    + "; check the path and its permissions.", e);
        }
        return connect(path);
    }

    /** Runs {@code work} in one immediate transaction, migrating the schema first if needed. */
    public <T> T write(StoreWork<T> work) throws StoreException {
        try {
            if (userVersion() == 0) {
                try (Statement st = connection.createStatement()) {
                    st.execute("PRAGMA journal_mode = WAL");
                }
            }
            connection.setAutoCommit(false);
            int version = userVersion();
            if (version < Migrations.latestVersion()) {
                try (Statement st = connection.createStatement()) {
                    st.execute("PRAGMA application_id = " + APPLICATION_ID);
                }
                Migrations.migrate(connection, version);
            }
            T result = work.run(connection);
            connection.commit();
            return result;
        } catch (SQLException e) {
            rollbackQuietly();
            throw new StoreException(writeFailure(e), e);
        } catch (RuntimeException e) {
            rollbackQuietly();
            throw e;
        } finally {
            try {
                connection.setAutoCommit(true);
            } catch (SQLException ignored) {
                // The connection is going away; nothing to restore.
            }
        }
    }

    /** Runs read-only {@code work}; a store that was never written reads as empty. */
    public <T> T read(StoreWork<T> work) throws StoreException {
        try {
            return work.run(connection);
        } catch (SQLException e) {
            throw new StoreException("Reading the store " + path + " failed (" + e.getMessage()
                    + "); rerun with -v for details.", e);
        }
    }

    @Override
    public void close() {
        try {
            connection.close();
        } catch (SQLException ignored) {
            // Closing a store we only read from cannot lose anything.
        }
    }

    private static SqliteStore connect(Path path) throws StoreException {
        SQLiteConfig config = new SQLiteConfig();
        // No journal_mode here: setting it writes to the file, and opening must not change a file
        // that may turn out not to be ours. New stores switch to WAL in write().
        config.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
        config.enforceForeignKeys(true);
        // Transactions take the write lock at BEGIN, not at the first write, so two index runs queue cleanly.
        config.setTransactionMode(SQLiteConfig.TransactionMode.IMMEDIATE);
        config.setBusyTimeout(10_000);
        // Deleted content is overwritten, not left in free pages: samples dropped when a column becomes
        // tagged must not linger in the file.
        config.setPragma(SQLiteConfig.Pragma.SECURE_DELETE, "true");
        try {
            Connection connection = DriverManager.getConnection("jdbc:sqlite:" + path, config.toProperties());
            return new SqliteStore(path, connection);
        } catch (SQLException e) {
            throw new StoreException(openFailure(path, e), e);
        }
    }

    private static void checkHeader(Path path) throws StoreException {
        byte[] header = new byte[SQLITE_HEADER.length];
        try (InputStream in = Files.newInputStream(path)) {
            int read = in.readNBytes(header, 0, header.length);
            if (read < header.length || !Arrays.equals(header, SQLITE_HEADER)) {
                throw notAStore(path);
            }
        } catch (IOException e) {
            throw new StoreException("Cannot read the store " + path + "; check that the file is readable.", e);
        }
    }

    private void checkIdentity() throws StoreException {
        try {
            int applicationId;
            try (Statement st = connection.createStatement();
                 ResultSet rs = st.executeQuery("PRAGMA application_id")) {
                applicationId = rs.next() ? rs.getInt(1) : 0;
            }
            int version = userVersion();
            if (applicationId == 0 && version == 0 && !hasTables()) {
                return; // an empty SQLite file: a store that was never written
            }
            if (applicationId != APPLICATION_ID) {
                throw notAStore(path);
            }
            if (version > Migrations.latestVersion()) {
                throw new StoreException("The store " + path + " was written by a newer SchemaBrain (store version "
                        + version + ", this build reads up to " + Migrations.latestVersion()
                        + "); upgrade SchemaBrain or pass another --store.");
            }
        } catch (SQLException e) {
            throw new StoreException(openFailure(path, e), e);
        }
    }

    private boolean hasTables() throws SQLException {
        try (Statement st = connection.createStatement();
             ResultSet rs = st.executeQuery("SELECT count(*) FROM sqlite_master")) {
            return rs.next() && rs.getInt(1) > 0;
        }
    }

    private int userVersion() throws SQLException {
        try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery("PRAGMA user_version")) {
            return rs.next() ? rs.getInt(1) : 0;
        }
    }

    private static StoreException notAStore(Path path) {
        return new StoreException(path + " is not a SchemaBrain store; pass another --store path,"
                + " or move the file away to start a new store.");
    }

    private static String openFailure(Path path, SQLException e) {
        if (e instanceof SQLiteException se && (se.getResultCode() == SQLiteErrorCode.SQLITE_NOTADB
                || se.getResultCode() == SQLiteErrorCode.SQLITE_CORRUPT)) {
            return notAStore(path).getMessage();
        }
        return "Cannot open the store " + path + " (" + e.getMessage() + "); check the path and its permissions.";
    }

    private String writeFailure(SQLException e) {
        if (e instanceof SQLiteException se && se.getResultCode() == SQLiteErrorCode.SQLITE_BUSY) {
            return "The store " + path + " is locked by another SchemaBrain process; wait for it to finish and retry.";
        }
        if (e instanceof SQLiteException se && se.getResultCode() == SQLiteErrorCode.SQLITE_FULL) {
            return "The disk holding the store " + path + " is full; free some space and retry. The store was left as it was.";
        }
        return "Writing the store " + path + " failed (" + e.getMessage()
                + "); the store was left as it was. Rerun with -v for details.";
    }

    private void rollbackQuietly() {
        try {
            connection.rollback();
        } catch (SQLException ignored) {
            // Rolling back a failed transaction; SQLite also rolls back when the connection closes.
        }
    }

    /** A unit of work on the store's connection. */
    @FunctionalInterface
    public interface StoreWork<T> {
        T run(Connection connection) throws SQLException;
    }
}
