package dev.schemabrain.store;

import dev.schemabrain.engine.sqlite.SqliteLibrary;
import dev.schemabrain.error.StoreException;
import dev.schemabrain.files.PrivateFiles;
import dev.schemabrain.error.UnsafeFileException;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;
import org.sqlite.SQLiteOpenMode;

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
import java.util.Optional;

/**
 * The store: one SQLite file in WAL mode, identified by its {@code application_id}, versioned by
 * {@code user_version}. Every write happens in one transaction that also applies pending migrations,
 * so a failed or interrupted run leaves the file as it was.
 */
public final class SqliteStore implements Store {

    /** "SBRN": marks a file as a SchemaBrain store. */
    static final int APPLICATION_ID = 0x5342524E;
    private static final byte[] SQLITE_HEADER = "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII);

    private final Path path;
    private final Connection connection;
    private final boolean readOnly;

    private SqliteStore(Path path, Connection connection, boolean readOnly) {
        this.path = path;
        this.connection = connection;
        this.readOnly = readOnly;
    }

    public Path path() {
        return path;
    }

    @Override
    public String describe() {
        return "the store " + path;
    }

    @Override
    public StoreLocation location() {
        return new StoreLocation.SqliteFile(path);
    }

    @Override
    public StoreDialect dialect() {
        return StoreDialect.SQLITE;
    }

    /** Read through a read-only connection of its own, as the served catalog always asked it. */
    @Override
    public Optional<String> catalogVersion() throws StoreException {
        return CatalogVersion.of(path);
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
     * Opens an existing store for reading and writing, after checking that nobody else could have planted
     * or changed it (see {@link #checkPrivate}) and that it is one this build understands. Nothing is
     * written by opening.
     */
    public static SqliteStore open(Path path) throws StoreException {
        if (!exists(path)) {
            throw new StoreException("No store at " + path + "; run 'schemabrain index --source URL' first"
                    + " or pass --store PATH.");
        }
        checkPrivate(path);
        checkHeader(path);
        // A store nothing can write (a read-only mount, a ConfigMap) is still read: the commands that write say so.
        SqliteStore store = writable(path) ? connect(path) : connectReadOnly(path);
        try {
            store.checkIdentity();
            return store;
        } catch (StoreException | RuntimeException e) {
            store.close();
            throw e;
        }
    }

    /**
     * Opens the store at {@code path}, creating the file when it does not exist yet: mode 0600 in a
     * 0700 directory, before SQLite opens it, so its -wal and -shm files (which SQLite creates with the
     * database file's mode) are private too.
     */
    public static SqliteStore openOrCreate(Path path) throws StoreException {
        if (exists(path)) {
            return open(path);
        }
        checkPrivate(path);
        try {
            PrivateFiles.create(path);
        } catch (UnsafeFileException e) {
            throw new StoreException(e.getMessage(), e);
        }
        return connect(path);
    }

    /**
     * Refuses a store that someone else could have planted or changed: the file, its -wal and -shm
     * (SQLite replays a planted WAL) and its directory must pass {@link PrivateFiles#check}. A store
     * that does not exist yet passes when its directory does.
     */
    public static void checkPrivate(Path path) throws StoreException {
        try {
            for (String suffix : new String[]{"", "-wal", "-shm", "-journal"}) {
                PrivateFiles.check(Path.of(path + suffix));
            }
        } catch (UnsafeFileException e) {
            throw new StoreException("Refusing the store: " + lowerFirst(e.getMessage()), e);
        }
    }

    private static String lowerFirst(String s) {
        return s.isEmpty() || s.startsWith("/") ? s : Character.toLowerCase(s.charAt(0)) + s.substring(1);
    }

    /**
     * Copies every committed page into the database file and empties the WAL, so values a transaction
     * overwrote (with secure_delete on) linger in no file; answers false when a reader kept part of
     * the WAL alive.
     */
    public boolean checkpoint() throws StoreException {
        try (Statement st = connection.createStatement();
             ResultSet rs = st.executeQuery("PRAGMA wal_checkpoint(TRUNCATE)")) {
            return rs.next() && rs.getInt(1) == 0;
        } catch (SQLException e) {
            throw new StoreException(writeFailure(e), e);
        }
    }

    /**
     * Whether SQLite can write the store at {@code path}: the file and its directory (where the -wal and -shm go) are
     * writable. A read-only mount says no even to root.
     */
    public static boolean writable(Path path) {
        Path dir = path.toAbsolutePath().getParent();
        return Files.isWritable(dir) && (!Files.exists(path) || Files.isWritable(path));
    }

    /** The one sentence for a write into a store that cannot be written. */
    public static String readOnlyMessage(Path path) {
        return "The store " + path + " is read-only (its file or directory cannot be written, as on a read-only mount);"
                + " write it where it is writable, or pass --store with a writable path.";
    }

    /**
     * A read-only connection to the store at {@code path}. SQLite reads a WAL-mode file only with a -shm beside it;
     * in a directory it cannot write, and with no -wal (so no transaction of another writer to see), the file is
     * opened immutable instead, which needs none.
     */
    public static Connection readOnlyConnection(Path path, SQLiteConfig config) throws SQLException {
        SqliteLibrary.load();
        config.resetOpenMode(SQLiteOpenMode.CREATE);
        config.setReadOnly(true);
        Path wal = Path.of(path + "-wal");
        boolean immutable = !Files.isWritable(path.toAbsolutePath().getParent()) && !Files.exists(wal)
                && !Files.exists(Path.of(path + "-shm"));
        String url = immutable ? "jdbc:sqlite:" + path.toAbsolutePath().toUri() + "?immutable=1" : "jdbc:sqlite:" + path;
        if (immutable) {
            config.setOpenMode(SQLiteOpenMode.OPEN_URI);
        }
        return DriverManager.getConnection(url, config.toProperties());
    }

    /** Runs {@code work} in one immediate transaction, migrating the schema first if needed. */
    @Override
    public <T> T write(StoreWork<T> work) throws StoreException {
        if (readOnly) {
            throw new StoreException(readOnlyMessage(path));
        }
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
            connection.setAutoCommit(true);
            // Old page images (values a tagged column no longer has) must not outlive the write in the WAL.
            checkpointQuietly();
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
    @Override
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
        SqliteLibrary.load();
        try {
            Connection connection = DriverManager.getConnection("jdbc:sqlite:" + path, config.toProperties());
            return new SqliteStore(path, connection, false);
        } catch (SQLException e) {
            throw new StoreException(openFailure(path, e), e);
        }
    }

    private static SqliteStore connectReadOnly(Path path) throws StoreException {
        SQLiteConfig config = new SQLiteConfig();
        config.setBusyTimeout(10_000);
        try {
            return new SqliteStore(path, readOnlyConnection(path, config), true);
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

    private void checkpointQuietly() {
        try {
            checkpoint();
        } catch (StoreException e) {
            // Committed already; the WAL is checkpointed again by the next write and when the last connection closes.
        }
    }

    private void rollbackQuietly() {
        try {
            connection.rollback();
        } catch (SQLException ignored) {
            // Rolling back a failed transaction; SQLite also rolls back when the connection closes.
        }
    }
}
