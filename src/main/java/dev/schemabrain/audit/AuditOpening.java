package dev.schemabrain.audit;

import dev.schemabrain.error.AuditException;
import dev.schemabrain.error.UnsafeFileException;
import dev.schemabrain.files.PrivateFiles;
import dev.schemabrain.store.SqliteStore;
import dev.schemabrain.store.StoreLocation;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteOpenMode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.Optional;

/**
 * Opening a chain: the file beside a SQLite store, or the chain tables of a PostgreSQL store. Refuses a file
 * someone else could have planted or changed, a file that is not an audit log, a log written with another key
 * and a log whose triggers are gone; creates the file (0600) and its schema when needed.
 */
final class AuditOpening {

    /** "SBAU": marks a file as a SchemaBrain audit log. */
    static final int APPLICATION_ID = 0x53424155;

    private AuditOpening() {
    }

    /** The store's audit file opened for appending under {@code key}, and started. */
    static AuditLog forAppend(StoreLocation.SqliteFile location, AuditKey key, Optional<WitnessFile> witnessFile,
                              Clock clock, AuditDurability durability, Runnable historyPace) throws AuditException {
        Path file = location.auditFile();
        prepareFile(file);
        if (witnessFile.isPresent()) {
            witnessFile.get().prepare();
        }
        Connection c = connect(file, false);
        try {
            checkIdentity(c, file);
            Object identity = fileKey(file);
            AuditSchema.Meta meta = metaForAppend(c, file, key);
            ChainStore chain = new SqliteChain(file, location.path(), c, identity, ChainWitnesses.WITNESS_BUSY_MILLIS);
            return AuditLog.started(chain, clock, key, meta, witnessFile, durability, historyPace);
        } catch (SQLException | AuditException | RuntimeException e) {
            closeQuietly(c);
            if (e instanceof AuditException ae) {
                throw ae;
            }
            throw new AuditException("The audit log " + file + " cannot be opened (" + e.getMessage() + "); check the"
                    + " file and its permissions.", e);
        }
    }

    /** The audit file must be creatable or writable in an existing directory, and private. */
    private static void prepareFile(Path file) throws AuditException {
        Path dir = file.toAbsolutePath().getParent();
        if (dir != null && !Files.isDirectory(dir)) {
            throw new AuditException("The directory of the audit log " + file + " does not exist; create it, or pass"
                    + " --audit-log with a file in an existing writable directory.", null);
        }
        if (Files.exists(file) ? !Files.isWritable(file) : !Files.isWritable(dir)) {
            throw new AuditException("serve records every call in the audit log " + file + ", and "
                    + (Files.exists(file) ? "that file" : dir) + " cannot be written (a read-only mount?); pass"
                    + " --audit-log FILE with a path in a writable directory (the store itself may stay read-only).", null);
        }
        try {
            PrivateFiles.create(file);
        } catch (UnsafeFileException e) {
            throw new AuditException(e.getMessage(), e);
        }
    }

    /** The file's meta: created for a new log, adopted for an empty keyless one, checked for an existing one. */
    private static AuditSchema.Meta metaForAppend(Connection c, Path file, AuditKey key) throws SQLException, AuditException {
        if (!AuditSchema.hasLog(c)) {
            return create(c, key);
        }
        if (!AuditSchema.hasMeta(c)) {
            return adoptKeyless(c, file, key);
        }
        AuditSchema.Meta meta = AuditSchema.meta(c);
        // A log written before roles gains the role columns; its rows and their hashes stay as they are.
        ChainRows.inTransaction(c, () -> AuditSchema.addRoles(c));
        String problem = AuditSchema.problem(c, false);
        if (problem != null) {
            throw new AuditException("The audit log " + file + " was altered (" + problem + "); the server will not"
                    + " record into it. Run schemabrain audit verify, then schemabrain audit rotate --even-if-broken to"
                    + " keep it as evidence and start a new log.", null);
        }
        if (!meta.keyId().equals(key.id())) {
            throw new AuditException("The audit log " + file + " was written with another audit key (key id "
                    + meta.keyId() + "; this key's id is " + key.id() + "); pass the key it was written with"
                    + " (--audit-key FILE or " + AuditKey.ENV + ").", null);
        }
        return meta;
    }

    /** The chain tables of a PostgreSQL store opened for appending under {@code key}, and started. */
    static AuditLog forAppend(StoreLocation.PostgresSchema location, AuditKey key, Optional<WitnessFile> witnessFile,
                              AuditDurability durability, Runnable historyPace) throws AuditException {
        if (witnessFile.isPresent()) {
            witnessFile.get().prepare();
        }
        PostgresChain chain = PostgresChain.openForAppend(location, key, ChainWitnesses.WITNESS_BUSY_MILLIS);
        try {
            String problem = chain.problem(false);
            if (problem != null) {
                throw new AuditException("The audit log " + chain.name() + " was altered (" + problem + "); the server will"
                        + " not record into it. Run schemabrain audit verify, and have the store's owner restore the"
                        + " append-only triggers (docs/deployment.md) before serving again.", null);
            }
            AuditSchema.Meta meta = AuditSchema.meta(chain.connection());
            if (!meta.keyId().equals(key.id())) {
                throw new AuditException("The audit log " + chain.name() + " was written with another audit key (key id "
                        + meta.keyId() + "; this key's id is " + key.id() + "); every instance on one store needs the same"
                        + " key: pass it with --audit-key FILE or " + AuditKey.ENV + ".", null);
            }
            return AuditLog.started(chain, Clock.systemUTC(), key, meta, witnessFile, durability, historyPace);
        } catch (SQLException | AuditException | RuntimeException e) {
            chain.close();
            if (e instanceof AuditException ae) {
                throw ae;
            }
            throw new AuditException("The audit log " + chain.name() + " cannot be opened (" + e.getMessage() + ").", e);
        }
    }

    /** The chain tables of a PostgreSQL store, for reading. */
    static AuditLog forReading(StoreLocation.PostgresSchema location) throws AuditException {
        PostgresChain chain = PostgresChain.open(location, ChainWitnesses.WITNESS_BUSY_MILLIS);
        try {
            AuditSchema.Meta meta = null;   // tables without a key named: never served, so no rows
            if (chain.hasLog()) {
                if (AuditSchema.hasKeyId(chain.connection())) {
                    meta = AuditSchema.meta(chain.connection());
                } else if (ChainRows.lastRow(chain.connection()).count() > 0) {
                    meta = new AuditSchema.Meta("", -1);   // rows without their key id: audit_meta was emptied
                }
            }
            return AuditLog.forReading(chain, meta);
        } catch (SQLException | RuntimeException e) {
            chain.close();
            throw new AuditException("The audit log " + chain.name() + " cannot be read (" + e.getMessage() + ").", e);
        }
    }

    /** The store's audit file, for reading; a log without a file when there is none. */
    static AuditLog forReading(StoreLocation.SqliteFile location) throws AuditException {
        Path storePath = location.path();
        Path file = location.auditFile();
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS) && !Files.isSymbolicLink(file)) {
            if (!SqliteStore.exists(storePath)) {
                throw new AuditException("There is no store at " + storePath + " and no audit log beside it; pass the"
                        + " --store the server runs on.", null);
            }
            return AuditLog.forReading(new SqliteChain(file, storePath, null, null, ChainWitnesses.WITNESS_BUSY_MILLIS), null);
        }
        try {
            PrivateFiles.check(file);
        } catch (UnsafeFileException e) {
            throw new AuditLog.UntrustedFile(e.getMessage(), e);
        }
        Connection c = connect(file, true);
        try {
            checkIdentity(c, file);
            AuditSchema.Meta meta = AuditSchema.hasMeta(c) ? AuditSchema.meta(c) : null;
            return AuditLog.forReading(new SqliteChain(file, storePath, c, null, ChainWitnesses.WITNESS_BUSY_MILLIS), meta);
        } catch (SQLException | AuditException | RuntimeException e) {
            closeQuietly(c);
            if (e instanceof AuditException ae) {
                throw ae;
            }
            throw new AuditException("The audit log " + file + " cannot be read (" + e.getMessage() + ").", e);
        }
    }

    private static AuditSchema.Meta create(Connection c, AuditKey key) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("PRAGMA journal_mode = WAL");
        }
        AuditSchema.Meta meta = new AuditSchema.Meta(key.id(), 0);
        ChainRows.inTransaction(c, () -> {
            AuditSchema.create(c);
            AuditSchema.writeMeta(c, meta);
            try (Statement st = c.createStatement()) {
                st.execute("PRAGMA application_id = " + APPLICATION_ID);
            }
            return null;
        });
        return meta;
    }

    /**
     * A log without audit_meta: an empty one gets its key named; one with rows is not continued. A build
     * before audit keys wrote it, or someone rewrote it with the keyless rule and deleted audit_meta (a
     * downgrade anyone with the file can do): continuing it would sign whatever it holds as keyed.
     */
    private static AuditSchema.Meta adoptKeyless(Connection c, Path file, AuditKey key) throws SQLException, AuditException {
        if (ChainRows.lastRow(c).count() > 0) {
            throw new AuditException("The audit log " + file + " has no audit key: a SchemaBrain from before audit keys"
                    + " wrote it, or someone rewrote it without the key, so the server will not continue it; run"
                    + " schemabrain audit verify, then schemabrain audit rotate --even-if-broken keeps it as evidence and"
                    + " starts a new log.", null);
        }
        AuditSchema.Meta meta = new AuditSchema.Meta(key.id(), 0);
        ChainRows.inTransaction(c, () -> {
            AuditSchema.create(c);
            AuditSchema.writeMeta(c, meta);
            return null;
        });
        return meta;
    }

    private static Connection connect(Path file, boolean readOnly) throws AuditException {
        SQLiteConfig config = new SQLiteConfig();
        // NORMAL: a commit survives a killed process; the fsync that makes it survive a power cut is the
        // log's own (AuditFlusher), so a started row waits for it and other rows share one after they return.
        config.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
        config.setBusyTimeout(10_000);
        if (readOnly) {
            // A reader's transactions stay DEFERRED: its snapshot then takes no lock, and a server appending to the
            // log meanwhile is never held up by it (IMMEDIATE here held the write lock for a whole scan: a history
            // check or an audit verify of a large log stopped every call's row for seconds).
            config.resetOpenMode(SQLiteOpenMode.CREATE);
        } else {
            // The write lock is taken at BEGIN: two appenders queue instead of both reading the same head.
            config.setTransactionMode(SQLiteConfig.TransactionMode.IMMEDIATE);
        }
        try {
            return DriverManager.getConnection("jdbc:sqlite:" + file, config.toProperties());
        } catch (SQLException e) {
            throw new AuditException("The audit log " + file + " cannot be opened (" + e.getMessage() + "); check the"
                    + " file and its permissions.", e);
        }
    }

    private static void checkIdentity(Connection c, Path file) throws AuditException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("PRAGMA application_id")) {
            int id = rs.next() ? rs.getInt(1) : 0;
            if (id != 0 && id != APPLICATION_ID) {
                throw new AuditException(file + " is not a SchemaBrain audit log; move it away or pass another --store.", null);
            }
        } catch (SQLException e) {
            throw new AuditException(file + " is not a SchemaBrain audit log (" + e.getMessage() + "); move it away or"
                    + " pass another --store.", e);
        }
    }

    private static Object fileKey(Path file) throws AuditException {
        try {
            Object k = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey();
            return k == null ? "" : k;
        } catch (IOException e) {
            throw new AuditException("The audit log " + file + " cannot be read (" + e.getClass().getSimpleName() + ").", e);
        }
    }

    private static void closeQuietly(Connection c) {
        try {
            c.close();
        } catch (SQLException ignored) {
            // Nothing was written through it.
        }
    }
}
