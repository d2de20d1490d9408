package dev.schemabrain.audit;

import dev.schemabrain.error.AuditException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemabrain.files.PrivateFiles;
import dev.schemabrain.error.UnsafeFileException;
import dev.schemabrain.store.AuditWitnessStore;
import dev.schemabrain.store.SqliteStore;
import dev.schemabrain.store.StoreLocation;
import dev.schemabrain.error.StoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteOpenMode;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.channels.FileChannel;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Clock;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The keyed, hash-chained, append-only audit log (SPEC §9.2), an SQLite file beside the store
 * ({@code schemabrain.db} → {@code schemabrain.audit.db}). Each batch of appends is one immediate
 * transaction that reads the chain's head and writes the next rows, so concurrent callers, threads or
 * processes still form one linear chain; a killed process leaves either a whole batch or none of it.
 * Rows are never changed: triggers reject UPDATE and DELETE, and a log whose triggers are gone is
 * refused, not repaired. Before every append the server checks that the file at the path is still the one
 * it opened.
 *
 * <p>Durability (SPEC §10.3): a commit writes the rows into the WAL, which a killed process keeps; an
 * fsync of the WAL makes them survive a power cut too. A get_metric {@code started} row is fsynced before
 * its append returns (so before the SQL leaves); every other row returns once written, and a flusher
 * thread fsyncs whatever was written since its last fsync within 10 ms, one fsync for every row written
 * meanwhile. After every fsync a signed head (a {@link Witness}) of what it covered is written outside the
 * file: into the store, and into the operator's witness file when one is named; so a witness never vouches
 * for a row a power cut could still take. An fsync or witness check that fails stops the log: every later
 * append fails, so no more answers leave.
 */
public final class AuditLog implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(AuditLog.class);

    /** The first row's prev_hash: 32 zero bytes. */
    public static final String GENESIS = "0".repeat(64);
    static final String FORMAT = "2";
    /** How long an append waits for the store's write lock before leaving the witness behind. */
    private static final int WITNESS_BUSY_MILLIS = 50;
    /** How long closing the log keeps trying a store witness that a busy store left behind. */
    private static final int CLOSE_WITNESS_MILLIS = 3_000;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<List<String>> STRINGS = new TypeReference<>() {
    };

    /** "SBAU": marks a file as a SchemaBrain audit log. */
    static final int APPLICATION_ID = 0x53424155;

    private final ChainStore chain;
    private final String name;             // how messages name the log: a file, or the PostgreSQL store
    private final Connection connection;   // null: there is no log file (reading only)
    private final Clock clock;
    private final AuditKey key;            // null: opened for reading
    /** null: no file, or a keyless log; replaced once at open when the log is marked (see {@link KeyedMark}). */
    private volatile AuditSchema.Meta meta;
    /** The log's verified mark, parsed once; null until marked. Appends bind row {@link KeyedMark#boundFrom} to it. */
    private volatile KeyedMark mark;
    private final Optional<WitnessFile> witnessFile;
    private final AuditWitnessStore.Witnesses witnessStore;
    /** The witness this log last wrote into the store; only touched under {@link #flushing}. */
    private AuditWitnessStore.Stored lastStored;
    /** The last head whose store witness found the store busy; null once one was written after it. */
    private Head lagging;
    /** The head of the last committed batch, as this log wrote it; under this object's lock. */
    private Head written;
    /** Whether the chain went on from {@link #written} since the last witness (no other writer, no truncation). */
    private boolean ownChain = true;
    /** How many rows an fsync covered; read without a lock by appenders deciding whether to wait. */
    private volatile long durable;
    /** Why the log stopped recording, once an fsync or a witness check failed. */
    private volatile AuditException broken;
    /** {@link #written}'s row count, for the flusher to see without waiting for a batch being written. */
    private volatile long writtenCount;
    private final Object flushing = new Object();
    private final Object signal = new Object();
    /** The background fsync's pace: at most one per 10 ms, so a power cut loses at most the last ~10 ms of rows. */
    static final long FLUSH_INTERVAL_NANOS = 10_000_000;
    private Thread flusher;
    private boolean closing;   // under signal
    /** Set once {@link #close} has settled and closed the file: a late shutdown hook has nothing to do. */
    private volatile boolean closed;
    private boolean flusherIdle;   // under signal: the flusher waits for a row; pacing, it needs no wake-up
    private final AuditDurability durability;
    /** The full chain check after an open that verified only the rows since the store's witness; null before. */
    private HistoryCheck history;

    private AuditLog(ChainStore chain, Clock clock, AuditKey key, AuditSchema.Meta meta, Optional<WitnessFile> witnessFile,
                     AuditDurability durability) {
        this.chain = chain;
        this.durability = Objects.requireNonNull(durability, "durability");
        this.name = chain.name();
        this.connection = chain.connection();
        this.clock = clock;
        this.key = key;
        this.meta = meta;
        this.witnessFile = witnessFile;
        this.witnessStore = chain.witnesses();
    }

    /** The audit file of the store at {@code storePath}. */
    public static Path fileFor(Path storePath) {
        return StoreLocation.SqliteFile.besideStore(storePath);
    }

    /**
     * Opens the store's audit log for appending under {@code key}, creating the file (0600) when needed.
     * Refuses a file someone else could have planted or changed, a log written with another key, a log
     * whose triggers are gone, and a log behind its witnesses (truncated, deleted or rolled back).
     */
    public static AuditLog open(Path storePath, AuditKey key, Optional<WitnessFile> witnessFile) throws AuditException {
        return open(storePath, key, witnessFile, Clock.systemUTC());
    }

    /** As {@link #open(Path, AuditKey, Optional)}, with when appends return relative to their fsync. */
    public static AuditLog open(Path storePath, AuditKey key, Optional<WitnessFile> witnessFile, AuditDurability durability)
            throws AuditException {
        return open(new StoreLocation.SqliteFile(storePath), key, witnessFile, Clock.systemUTC(), durability);
    }

    static AuditLog open(Path storePath, AuditKey key, Optional<WitnessFile> witnessFile, Clock clock) throws AuditException {
        return open(new StoreLocation.SqliteFile(storePath), key, witnessFile, clock, AuditDurability.EVERY_ROW);
    }

    private static AuditLog open(StoreLocation.SqliteFile location, AuditKey key, Optional<WitnessFile> witnessFile,
                                 Clock clock, AuditDurability durability) throws AuditException {
        Objects.requireNonNull(key, "key");
        Path storePath = location.path();
        Path file = location.auditFile();
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
        if (witnessFile.isPresent()) {
            witnessFile.get().prepare();
        }
        Connection c = connect(file, false);
        try {
            checkIdentity(c, file);
            Object identity = fileKey(file);
            AuditSchema.Meta meta;
            if (!AuditSchema.hasLog(c)) {
                meta = create(c, key);
            } else if (!AuditSchema.hasMeta(c)) {
                meta = adoptKeyless(c, file, key);
            } else {
                meta = AuditSchema.meta(c);
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
            }
            AuditLog log = new AuditLog(new SqliteChain(file, storePath, c, identity, WITNESS_BUSY_MILLIS), clock, key, meta,
                    witnessFile, durability);
            log.start();
            return log;
        } catch (SQLException | AuditException | RuntimeException e) {
            closeQuietly(c);
            if (e instanceof AuditException ae) {
                throw ae;
            }
            throw new AuditException("The audit log " + file + " cannot be opened (" + e.getMessage() + "); check the"
                    + " file and its permissions.", e);
        }
    }

    /**
     * Opens the audit chain of the store at {@code location} for appending: the file beside a SQLite store,
     * or the chain tables of a PostgreSQL store, which every instance serving it appends to. On PostgreSQL
     * every append returns after its batch's synchronous COMMIT whichever {@code durability}: a commit is
     * the fsync there; {@link AuditDurability#STARTED_ROWS} only moves the witness write off the answer path.
     */
    public static AuditLog open(StoreLocation location, AuditKey key, Optional<WitnessFile> witnessFile,
                                AuditDurability durability) throws AuditException {
        if (location instanceof StoreLocation.SqliteFile f) {
            return open(f, key, witnessFile, Clock.systemUTC(), durability);
        }
        Objects.requireNonNull(key, "key");
        StoreLocation.PostgresSchema pg = (StoreLocation.PostgresSchema) location;
        if (witnessFile.isPresent()) {
            witnessFile.get().prepare();
        }
        PostgresChain chain = PostgresChain.openForAppend(pg, key, WITNESS_BUSY_MILLIS);
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
            AuditLog log = new AuditLog(chain, Clock.systemUTC(), key, meta, witnessFile, durability);
            log.start();
            return log;
        } catch (SQLException | AuditException | RuntimeException e) {
            chain.close();
            if (e instanceof AuditException ae) {
                throw ae;
            }
            throw new AuditException("The audit log " + chain.name() + " cannot be opened (" + e.getMessage() + ").", e);
        }
    }

    /**
     * After open: the witnesses checked, the chain verified from the store's witness on (a log that does not
     * verify is not continued), a witness of the verified head written, the log marked as keyed, the head read,
     * the flusher started, and the rest of the chain checked in the background ({@link HistoryCheck}).
     */
    private void start() throws SQLException, AuditException {
        checkWitnesses();
        VerifyResult verified = AuditVerifier.verifyForAppend(this, witnessFile);
        if (!verified.intact()) {
            throw new AuditException("The audit log " + name + " does not verify (" + verified.problem()
                    + (verified.firstBadId().isPresent() ? ", at row " + verified.firstBadId().getAsLong() : "")
                    + "), so the server will not record into it; run schemabrain audit verify and keep the log as evidence"
                    + (chain.shared() ? " (docs/operations.md: a tampered chain)." : ", then schemabrain audit rotate"
                    + " --even-if-broken starts a new log."), null);
        }
        boolean storeWitness = witnessAtOpen(lastRow(connection));
        markKeyed(storeWitness);
        written = lastRow(connection);
        writtenCount = written.count();
        durable = written.count();   // what an earlier process committed: made durable by now or never
        startFlusher();
        if (verified.rowsChecked() < written.count()) {
            history = HistoryCheck.start(chain.location(), name, key, reason -> broken = reason);
        }
    }

    /** Waits for the history check after open, if one runs; answers whether it has ended. */
    boolean awaitHistoryCheck(long millis) throws InterruptedException {
        return history == null || history.await(millis);
    }

    /**
     * A witness of the head just verified, into the store (retried while an index run holds it) and the witness
     * file: from the first serve on the store keeps one, so verify can treat a missing one as deleted. Answers
     * whether the store holds a witness now.
     */
    private boolean witnessAtOpen(Head head) throws AuditException {
        Witness w = Witness.sign(key, head);
        if (witnessFile.isPresent()) {
            witnessFile.get().append(w);
        }
        AuditWitnessStore.Stored mine = new AuditWitnessStore.Stored(head.count(), head.hash(), w.mac());
        long deadline = System.nanoTime() + CLOSE_WITNESS_MILLIS * 1_000_000L;
        try {
            while (true) {
                AuditWitnessStore.Outcome outcome = witnessStore.advance(mine,
                        previous -> checkWitness("the witness in the store", toWitness(previous)));
                switch (outcome) {
                    case WRITTEN -> {
                        lastStored = mine;
                        return true;
                    }
                    case ALREADY_AHEAD -> {
                        return true;
                    }
                    case NO_STORE -> {
                        return false;
                    }
                    case BUSY -> {
                        if (System.nanoTime() > deadline) {
                            lagging = head;
                            return false;
                        }
                        Thread.sleep(WITNESS_BUSY_MILLIS);
                    }
                }
            }
        } catch (StoreException e) {
            LOG.warn("the audit witness could not be written into the store: {}", e.getMessage());
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Signs the log as keyed once (logs of earlier builds on their first serve by this one): the keyless
     * prefix, the next row (whose HMAC will cover the mark) and whether the store keeps a witness. Under the
     * append lock, so the next row is the one every process appends next; a mark another process wrote first wins.
     */
    private void markKeyed(boolean storeWitness) throws SQLException, AuditException {
        if (meta.mark() == null) {
            Connection c = connection;
            inTransaction(c, () -> {
                chain.lockHead(c);
                AuditSchema.Meta now = AuditSchema.meta(c);
                if (now.mark() == null) {
                    String legacyHead = storedHash(now.legacyRows()).orElseThrow(
                            () -> new SQLException("row " + now.legacyRows() + " (the last keyless one) is missing"));
                    AuditSchema.insertMark(c, KeyedMark.sign(key, now.legacyRows(), legacyHead, lastRow(c).count() + 1,
                            storeWitness));
                }
                return null;
            });
            meta = AuditSchema.meta(c);
        }
        mark = KeyedMark.parse(meta.mark()).filter(m -> m.verifies(key)).orElseThrow(() -> new AuditException(
                "The audit log " + name + " holds a mark that does not verify under this key; run schemabrain audit verify.",
                null));
    }

    /** The audit chain of the store at {@code location}, for reading; see {@link #openExisting(Path)}. */
    public static AuditLog openExisting(StoreLocation location) throws AuditException {
        if (location instanceof StoreLocation.SqliteFile f) {
            return openExisting(f);
        }
        PostgresChain chain = PostgresChain.open((StoreLocation.PostgresSchema) location, WITNESS_BUSY_MILLIS);
        try {
            AuditSchema.Meta meta = null;   // tables without a key named: never served, so no rows
            if (chain.hasLog()) {
                if (AuditSchema.hasKeyId(chain.connection())) {
                    meta = AuditSchema.meta(chain.connection());
                } else if (lastRow(chain.connection()).count() > 0) {
                    meta = new AuditSchema.Meta("", -1);   // rows without their key id: audit_meta was emptied
                }
            }
            return new AuditLog(chain, Clock.systemUTC(), null, meta, Optional.empty(), AuditDurability.EVERY_ROW);
        } catch (SQLException | RuntimeException e) {
            chain.close();
            throw new AuditException("The audit log " + chain.name() + " cannot be read (" + e.getMessage() + ").", e);
        }
    }

    /**
     * Opens the store's audit log for reading; nothing is written. Empty when the file does not exist
     * (a store whose tools were never called, or a deleted log: {@link AuditVerifier} tells them apart).
     */
    public static AuditLog openExisting(Path storePath) throws AuditException {
        return openExisting(new StoreLocation.SqliteFile(storePath));
    }

    private static AuditLog openExisting(StoreLocation.SqliteFile location) throws AuditException {
        Path storePath = location.path();
        Path file = location.auditFile();
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS) && !Files.isSymbolicLink(file)) {
            if (!SqliteStore.exists(storePath)) {
                throw new AuditException("There is no store at " + storePath + " and no audit log beside it; pass the"
                        + " --store the server runs on.", null);
            }
            return new AuditLog(new SqliteChain(file, storePath, null, null, WITNESS_BUSY_MILLIS), Clock.systemUTC(), null,
                    null, Optional.empty(), AuditDurability.EVERY_ROW);
        }
        try {
            PrivateFiles.check(file);
        } catch (UnsafeFileException e) {
            throw new UntrustedFile(e.getMessage(), e);
        }
        Connection c = connect(file, true);
        try {
            checkIdentity(c, file);
            AuditSchema.Meta meta = AuditSchema.hasMeta(c) ? AuditSchema.meta(c) : null;
            return new AuditLog(new SqliteChain(file, storePath, c, null, WITNESS_BUSY_MILLIS), Clock.systemUTC(), null, meta,
                    Optional.empty(), AuditDurability.EVERY_ROW);
        } catch (SQLException | AuditException | RuntimeException e) {
            closeQuietly(c);
            if (e instanceof AuditException ae) {
                throw ae;
            }
            throw new AuditException("The audit log " + file + " cannot be read (" + e.getMessage() + ").", e);
        }
    }

    /** The audit file exists but anyone else could have written it: verify reports it as broken. */
    public static final class UntrustedFile extends AuditException {
        UntrustedFile(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** The audit file; null for a chain in a PostgreSQL store. */
    public Path file() {
        return chain instanceof SqliteChain s ? s.file() : null;
    }

    /** How messages name the log: its file, or "in the store URL (schema S)". */
    public String name() {
        return name;
    }

    /** Whether a log exists with the audit table in it. */
    boolean exists() throws SQLException {
        // A PostgreSQL store's tables exist from its first index on; its chain begins when an instance names the key.
        return connection != null && chain.hasLog() && (meta != null || !chain.shared());
    }

    /** What is wrong with the log's append-only schema, as a clause; null when nothing. */
    String schemaProblem(boolean keyless) throws SQLException {
        return chain.problem(keyless);
    }

    /** The log's key id and keyless prefix; null for a keyless log not adopted yet, or no log. */
    AuditSchema.Meta meta() {
        return meta;
    }

    Connection connection() {
        return connection;
    }

    /**
     * Reads audit_meta again; answers whether it changed since open (another process marked the log in
     * between: its bound row is then verified with the mark). A keyless or missing log has nothing to read.
     */
    boolean refreshMeta() throws AuditException {
        if (meta == null || connection == null) {
            return false;
        }
        try {
            AuditSchema.Meta now = AuditSchema.meta(connection);
            boolean changed = !now.equals(meta);
            meta = now;
            return changed;
        } catch (SQLException e) {
            throw new AuditException("The audit log " + name + " cannot be read (" + e.getMessage() + ").", e);
        }
    }

    /** The key this log appends under; null when opened for reading. */
    AuditKey key() {
        return key;
    }

    private static AuditSchema.Meta create(Connection c, AuditKey key) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("PRAGMA journal_mode = WAL");
        }
        AuditSchema.Meta meta = new AuditSchema.Meta(key.id(), 0);
        inTransaction(c, () -> {
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
        if (lastRow(c).count() > 0) {
            throw new AuditException("The audit log " + file + " has no audit key: a SchemaBrain from before audit keys"
                    + " wrote it, or someone rewrote it without the key, so the server will not continue it; run"
                    + " schemabrain audit verify, then schemabrain audit rotate --even-if-broken keeps it as evidence and"
                    + " starts a new log.", null);
        }
        AuditSchema.Meta meta = new AuditSchema.Meta(key.id(), 0);
        inTransaction(c, () -> {
            AuditSchema.create(c);
            AuditSchema.writeMeta(c, meta);
            return null;
        });
        return meta;
    }

    private static Connection connect(Path file, boolean readOnly) throws AuditException {
        SQLiteConfig config = new SQLiteConfig();
        // NORMAL: a commit survives a killed process; the fsync that makes it survive a power cut is this
        // class's own (flush), so a started row waits for it and other rows share one after they return.
        config.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
        // The write lock is taken at BEGIN: two appenders queue instead of both reading the same head.
        config.setTransactionMode(SQLiteConfig.TransactionMode.IMMEDIATE);
        config.setBusyTimeout(10_000);
        if (readOnly) {
            config.resetOpenMode(SQLiteOpenMode.CREATE);
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

    private interface Work<T> {
        T run() throws SQLException;
    }

    private static <T> T inTransaction(Connection c, Work<T> work) throws SQLException {
        c.setAutoCommit(false);
        try {
            T result = work.run();
            c.commit();
            return result;
        } catch (SQLException | RuntimeException e) {
            try {
                c.rollback();
            } catch (SQLException ignored) {
                // The connection is failing; the transaction dies with it.
            }
            throw e;
        } finally {
            c.setAutoCommit(true);
        }
    }

    private static void closeQuietly(Connection c) {
        try {
            c.close();
        } catch (SQLException ignored) {
            // Nothing was written through it.
        }
    }

    /**
     * Appends {@code entry} as the chain's next row; durable when it returns, and its witness written
     * (or, when the store is busy, left for the next batch). Answers the row's id. Appends that arrive
     * while a batch is being written wait and go into the next one together (group commit): one
     * transaction, one fsync and one witness for all of them, each still returning only once its row
     * is durable. A batch that fails fails every append in it, and none of its rows is kept.
     */
    public long append(AuditEntry entry) throws AuditException {
        if (key == null) {
            throw new AuditException("The audit log " + name + " was opened for reading only.", null);
        }
        long id = write(entry);
        if (durability.waitsFor(entry.phase())) {
            // Appends waiting here together share one fsync: the first takes it, the others find it done.
            flushTo(id);
        } else {
            synchronized (signal) {
                if (flusherIdle) {
                    signal.notify();   // the flusher fsyncs it (and whatever else was written) right after
                }
            }
        }
        return id;
    }

    /** Commits {@code entry} with the batch it joins; answers its id once the batch is written. */
    private long write(AuditEntry entry) throws AuditException {
        Pending mine = new Pending(entry);
        List<Pending> batch;
        boolean interrupted = false;
        synchronized (batching) {
            queue.add(mine);
            while (writing && !mine.done) {
                try {
                    batching.wait();
                } catch (InterruptedException e) {
                    interrupted = true;   // the row is queued: wait for its outcome all the same
                }
            }
            if (mine.done) {
                return finish(mine, interrupted);
            }
            writing = true;
            batch = queue;
            queue = new ArrayList<>();
        }
        AuditException failure = null;
        try {
            writeBatch(batch);
        } catch (AuditException e) {
            failure = e;
        } catch (RuntimeException e) {
            failure = new AuditException("The audit log could not record a call to " + ClientText.clean(entry.tool()) + ": "
                    + e.getMessage(), e);
        } finally {
            synchronized (batching) {
                for (Pending p : batch) {
                    p.done = true;
                    p.failure = failure != null ? failure : p.failure;
                }
                lastBatch = batch.size();   // before the next batch can start, so it never overwrites the next one's
                writing = false;
                batching.notifyAll();
            }
        }
        return finish(mine, interrupted);
    }

    private static long finish(Pending p, boolean interrupted) throws AuditException {
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (p.failure != null) {
            throw p.failure;
        }
        return p.id;
    }

    /** One append waiting for its batch; written under {@link #batching}. */
    private static final class Pending {
        final AuditEntry entry;
        long id;
        boolean done;
        AuditException failure;

        Pending(AuditEntry entry) {
            this.entry = entry;
        }
    }

    private final Object batching = new Object();
    private List<Pending> queue = new ArrayList<>();
    private boolean writing;
    private volatile int lastBatch;

    /** How many rows an fsync has covered (tests show that a started row is durable when its append returns). */
    long durableRows() {
        return durable;
    }

    /** How many appends the last batch held (tests show that concurrent appends shared one). */
    int lastBatchSize() {
        return lastBatch;
    }

    /** How many appends wait for the batch being written to finish; -1 when no batch is being written. */
    int waiting() {
        synchronized (batching) {
            return writing ? queue.size() : -1;
        }
    }

    /** Writes {@code batch} in one transaction, then its witness once; the rows' ids are set on success. */
    private synchronized Head writeBatch(List<Pending> batch) throws AuditException {
        if (broken != null) {
            throw broken;
        }
        chain.checkSame();
        Connection c = connection;
        Head head;
        Head[] before = new Head[1];
        try {
            head = inTransaction(c, () -> {
                chain.lockHead(c);
                Head last = lastRow(c);
                before[0] = last;
                try (PreparedStatement st = c.prepareStatement("""
                        INSERT INTO audit_log (id, occurred_at, source_id, caller, tool, phase, status, error_kind,
                          pii_categories, args_hash, sql_fingerprint, row_count, duration_ms, prev_hash, chain_hash)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""")) {
                    for (Pending p : batch) {
                        last = insert(st, last, p.entry);
                    }
                    st.executeBatch();   // one round trip (a multi-row INSERT on PostgreSQL)
                }
                return last;
            });
        } catch (SQLException | RuntimeException e) {
            throw new AuditException("The audit log could not record a call to " + ClientText.clean(batch.get(0).entry.tool())
                    + (batch.size() > 1 ? " (and " + (batch.size() - 1) + " more)" : "") + ": " + e.getMessage(), e);
        }
        long id = head.count() - batch.size();
        for (Pending p : batch) {
            p.id = ++id;
        }
        boolean continued = before[0].equals(written);
        // In a fleet another instance moving the head on is normal: only a head that went back is checked.
        boolean othersAppended = chain.shared() && before[0].count() >= written.count();
        written = head;
        writtenCount = head.count();
        if (!continued && !othersAppended) {
            // Another process appended, or rows were taken away: the witnesses must still be matched.
            ownChain = false;
            try {
                checkWitnesses();
            } catch (AuditException e) {
                broken = e;
                throw e;
            }
        }
        return head;
    }

    /**
     * Makes every row written so far survive a power cut, then writes their witness; returns at once when
     * an earlier flush covered them. Closing the log does this; tests use it to see the witness now.
     */
    public void flush() throws AuditException {
        long target;
        synchronized (this) {
            target = written == null ? 0 : written.count();
        }
        flushTo(target);
    }

    /** One fsync and one witness for everything written, unless an fsync since covered row {@code id}. */
    private void flushTo(long id) throws AuditException {
        synchronized (flushing) {
            if (broken != null) {
                throw broken;
            }
            if (durable >= id) {
                return;
            }
            Head target;
            boolean own;
            synchronized (this) {
                target = written;
                own = ownChain;
                ownChain = true;
            }
            try {
                chain.force();
                durable = target.count();
                witness(target, own);
            } catch (AuditException e) {
                broken = e;
                throw e;
            } catch (IOException | RuntimeException e) {
                broken = new AuditException("The audit log " + name + " could not be made durable (" + e.getClass().getSimpleName()
                        + ": " + e.getMessage() + "), so nothing more is recorded or answered; check the disk, then restart"
                        + " the server.", e);
                throw broken;
            }
        }
    }

    /** Fsyncs within 10 ms of appends, in the background, so an answer waits for its row's write and not its fsync. */
    private void startFlusher() {
        flusher = new Thread(() -> {
            long lastFlush = 0;
            while (true) {
                synchronized (signal) {
                    while (!closing && writtenCount <= durable) {
                        flusherIdle = true;
                        try {
                            signal.wait();
                        } catch (InterruptedException e) {
                            return;
                        } finally {
                            flusherIdle = false;
                        }
                    }
                    // Group commit over time as well: rows written within FLUSH_INTERVAL_NANOS of the last fsync
                    // share the next one (and its witness), instead of one fsync and one store write per call.
                    long wait = lastFlush + FLUSH_INTERVAL_NANOS - System.nanoTime();
                    while (!closing && wait > 0) {
                        try {
                            signal.wait(Math.max(1, wait / 1_000_000));
                        } catch (InterruptedException e) {
                            return;
                        }
                        wait = lastFlush + FLUSH_INTERVAL_NANOS - System.nanoTime();
                    }
                    if (closing) {
                        return;
                    }
                }
                lastFlush = System.nanoTime();
                try {
                    flush();
                } catch (AuditException e) {
                    LOG.error("the audit log stopped recording: {}", e.getMessage());
                    return;   // broken: every later append fails with the same sentence
                }
            }
        }, "schemabrain-audit-flush");
        flusher.setDaemon(true);
        flusher.start();
    }

    /** Inserts {@code entry} after {@code last}; answers the new head. */
    private Head insert(PreparedStatement st, Head last, AuditEntry entry) throws SQLException {
        long id = last.count() + 1;
        String occurredAt = DateTimeFormatter.ISO_INSTANT.format(clock.instant().truncatedTo(ChronoUnit.MILLIS));
        entry = withKeyedFingerprint(entry);
        KeyedMark m = mark;
        String hash = chainHash(key, last.hash(), m != null && m.boundFrom() == id ? m.binding() : null, id, occurredAt, entry);
        st.setLong(1, id);
        st.setString(2, occurredAt);
        st.setString(3, entry.sourceId());
        st.setString(4, entry.caller());
        st.setString(5, entry.tool());
        st.setString(6, entry.phase().wireName());
        st.setString(7, entry.status());
        st.setString(8, entry.errorKind());
        st.setString(9, json(entry.piiCategories()));
        st.setString(10, entry.argsHash());
        st.setString(11, entry.sqlFingerprint());
        setLong(st, 12, entry.rowCount());
        setLong(st, 13, entry.durationMs());
        st.setString(14, last.hash());
        st.setString(15, hash);
        st.addBatch();
        return new Head(id, hash);
    }

    /** The entry as the log keeps it: its SQL fingerprint keyed (see {@link SqlFingerprint}). */
    private AuditEntry withKeyedFingerprint(AuditEntry e) {
        return e.sqlFingerprint() == null ? e : new AuditEntry(e.sourceId(), e.caller(), e.tool(), e.phase(), e.status(),
                e.errorKind(), e.piiCategories(), e.argsHash(), SqlFingerprint.of(key, e.sqlFingerprint()), e.rowCount(),
                e.durationMs());
    }

    /** The chain's head: the last row's id and chain_hash; {@link Head#EMPTY} for an empty log. */
    public Head head() throws AuditException {
        if (connection == null) {
            return Head.EMPTY;
        }
        try {
            if (!chain.hasLog()) {
                return Head.EMPTY;
            }
            return lastRow(connection);
        } catch (SQLException e) {
            throw new AuditException("The audit log " + name + " cannot be read (" + e.getMessage() + ").", e);
        }
    }

    private static Head lastRow(Connection c) throws SQLException {
        try (PreparedStatement st = c.prepareStatement("SELECT id, chain_hash FROM audit_log ORDER BY id DESC LIMIT 1");
             ResultSet rs = st.executeQuery()) {
            return rs.next() ? new Head(rs.getLong(1), rs.getString(2)) : Head.EMPTY;
        }
    }

    /** The chain_hash stored at row {@code id}; empty when there is no such row. Row 0 is the genesis. */
    Optional<String> storedHash(long id) throws SQLException {
        if (id == 0) {
            return Optional.of(GENESIS);
        }
        try (PreparedStatement st = connection.prepareStatement("SELECT chain_hash FROM audit_log WHERE id = ?")) {
            st.setLong(1, id);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() ? Optional.ofNullable(rs.getString(1)) : Optional.empty();
            }
        }
    }

    /**
     * After an fsync: the signed head into the store (unless busy) and the witness file (if named). The
     * stored witness is checked against the chain first, except when it is the one this log wrote last
     * and every batch since went on from this log's own head: the chain then matches it by construction,
     * and the check (an HMAC and a read of the log) was most of the witness's cost.
     *
     * @param own whether every batch since the last witness went on from this log's own head
     */
    private void witness(Head head, boolean own) throws AuditException {
        Witness w = storeWitness(head, own);
        if (witnessFile.isPresent()) {
            witnessFile.get().append(w);
        }
    }

    /** The signed head into the store; remembers it as {@link #lagging} when the store was busy. */
    private Witness storeWitness(Head head, boolean own) throws AuditException {
        Witness w = Witness.sign(key, head);
        AuditWitnessStore.Stored mine = new AuditWitnessStore.Stored(head.count(), head.hash(), w.mac());
        AuditWitnessStore.Stored vouched = lastStored;
        try {
            AuditWitnessStore.Outcome outcome = witnessStore.advance(mine, previous -> {
                if (!(own && previous.equals(vouched))) {
                    synchronized (this) {   // the check reads the log through the appenders' connection
                        checkWitness("the witness in the store", toWitness(previous));
                    }
                }
            });
            if (outcome == AuditWitnessStore.Outcome.WRITTEN) {
                lastStored = mine;
            }
            if (outcome == AuditWitnessStore.Outcome.BUSY) {
                lagging = head;
                LOG.debug("the store is busy; the audit witness lags behind row {}", head.count());
            } else {
                lagging = null;
            }
        } catch (StoreException e) {
            LOG.warn("the audit witness could not be written into the store: {}", e.getMessage());
        }
        return w;
    }

    /**
     * Every row written so far made durable and witnessed, the store's witness caught up if a busy store left
     * it behind; for a close, and for a shutdown hook when the process is stopped by a signal (SIGTERM, which
     * stdio clients send when they close) before the log can close.
     */
    public void settle() {
        if (closed) {
            return;
        }
        try {
            flush();
            catchUpStoreWitness();
        } catch (AuditException e) {
            LOG.error("the audit log's last rows could not be made durable: {}", e.getMessage());
        }
    }

    /**
     * At close or stop: a store witness left behind by a busy store is tried again for up to {@link #CLOSE_WITNESS_MILLIS},
     * so a clean stop leaves the store vouching for the last row (else cutting that row off would go unseen
     * by a verify that has only the store's witness).
     */
    private void catchUpStoreWitness() {
        synchronized (flushing) {
            long deadline = System.nanoTime() + CLOSE_WITNESS_MILLIS * 1_000_000L;
            try {
                while (broken == null && lagging != null && System.nanoTime() < deadline) {
                    storeWitness(lagging, false);
                    if (lagging != null) {
                        Thread.sleep(WITNESS_BUSY_MILLIS);
                    }
                }
            } catch (AuditException e) {
                LOG.error("the audit witness could not be written into the store at close: {}", e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (lagging != null) {
                LOG.warn("the store stayed busy, so its audit witness lags behind row {}; the next append"
                        + " catches it up", lagging.count());
            }
        }
    }

    /** The witness kept in the store for this chain, if any. */
    Optional<AuditWitnessStore.Stored> storedWitness() throws StoreException {
        return witnessStore.read();
    }

    static Witness toWitness(AuditWitnessStore.Stored s) {
        return new Witness(new Head(s.rowCount(), s.headHash()), s.mac());
    }

    /** At open: every witness must verify and be matched by the chain, else the log went backwards. */
    private void checkWitnesses() throws AuditException {
        try {
            Optional<AuditWitnessStore.Stored> stored = witnessStore.read();
            if (stored.isPresent()) {
                checkWitness("the witness in the store", toWitness(stored.get()));
            }
        } catch (StoreException e) {
            LOG.warn("the audit witness in the store cannot be read: {}", e.getMessage());
        }
        if (witnessFile.isPresent()) {
            WitnessFile.Lines lines = witnessFile.get().read();
            if (!lines.witnesses().isEmpty()) {
                Witness latest = lines.witnesses().stream().max(java.util.Comparator.comparingLong(x -> x.head().count())).get();
                checkWitness("the witness file " + witnessFile.get().path(), latest);
            }
        }
    }

    private void checkWitness(String where, Witness w) throws AuditException {
        if (!w.verifies(key)) {
            throw new AuditException("The audit log " + name + " cannot be trusted: " + where + " does not verify under"
                    + " this audit key (forged, or written with another key); run schemabrain audit verify.", null);
        }
        Optional<String> atCount;
        try {
            atCount = storedHash(w.head().count());
        } catch (SQLException e) {
            throw new AuditException("The audit log " + name + " cannot be read (" + e.getMessage() + ").", e);
        }
        if (atCount.isEmpty() || !atCount.get().equals(w.head().hash())) {
            throw new AuditException("The audit log " + name + " is behind " + where + ", which says row "
                    + w.head().count() + " had another chain hash" + (atCount.isEmpty() ? " and the log no longer has that row" : "")
                    + ": the log was truncated, deleted, replaced or rolled back"
                    + (atCount.isEmpty() ? ", or the store was copied without it (copy both with 'schemabrain store backup DEST')" : "")
                    + ". Run schemabrain audit verify; the server"
                    + " will not record into it (schemabrain audit rotate --even-if-broken starts a new log).", null);
        }
    }

    /** Every row from {@code sinceId} in id order, inside one read snapshot. */
    interface RowVisitor {
        /** @param unreadable why the row cannot be read (then only its id is set), or null; @return false to stop */
        boolean visit(AuditRecord row, String unreadable);
    }

    void scan(OptionalLong sinceId, RowVisitor visitor) throws AuditException {
        if (connection == null) {
            return;
        }
        try {
            read(() -> {
                try (PreparedStatement st = connection.prepareStatement(SELECT + " WHERE id >= ? ORDER BY id")) {
                    st.setLong(1, sinceId.orElse(Long.MIN_VALUE));
                    try (ResultSet rs = st.executeQuery()) {
                        while (rs.next()) {
                            AuditRecord r;
                            try {
                                r = record(rs);
                            } catch (IllegalStateException | IllegalArgumentException | NullPointerException unreadable) {
                                if (!visitor.visit(new AuditRecord(rs.getLong(1), null, null, null, null),
                                        "its content cannot be read: the row was altered")) {
                                    return null;
                                }
                                continue;
                            }
                            if (!visitor.visit(r, null)) {
                                return null;
                            }
                        }
                    }
                }
                return null;
            });
        } catch (SQLException | RuntimeException e) {
            throw new AuditException("The audit log " + name + " cannot be read (" + e.getMessage() + ").", e);
        }
    }

    /** The newest {@code limit} rows with an id of at least {@code sinceId}, in id order. */
    public List<AuditRecord> list(int limit, OptionalLong sinceId) throws AuditException {
        return list(limit, sinceId, List.of());
    }

    /** As {@link #list(int, OptionalLong)}; {@code fingerprints} not empty: only rows with one of these stored fingerprints. */
    public List<AuditRecord> list(int limit, OptionalLong sinceId, List<String> fingerprints) throws AuditException {
        if (connection == null) {
            return List.of();
        }
        try {
            if (!chain.hasLog()) {
                return List.of();
            }
            return read(() -> {
                List<AuditRecord> out = new ArrayList<>();
                String only = fingerprints.isEmpty() ? ""
                        : " AND sql_fingerprint IN (" + String.join(", ", Collections.nCopies(fingerprints.size(), "?")) + ")";
                try (PreparedStatement st = connection.prepareStatement(SELECT + " WHERE id >= ?" + only + " ORDER BY id DESC LIMIT ?")) {
                    int at = 1;
                    st.setLong(at++, sinceId.orElse(Long.MIN_VALUE));
                    for (String f : fingerprints) {
                        st.setString(at++, f);
                    }
                    st.setInt(at, limit);
                    try (ResultSet rs = st.executeQuery()) {
                        while (rs.next()) {
                            out.add(record(rs));
                        }
                    }
                }
                Collections.reverse(out);
                return out;
            });
        } catch (SQLException | RuntimeException e) {
            throw new AuditException("The audit log " + name + " cannot be read (" + e.getMessage() + ").", e);
        }
    }

    /** One consistent snapshot for a multi-statement read, even while other processes append. */
    private synchronized <T> T read(Work<T> work) throws SQLException {
        chain.beginRead(connection);
        connection.setAutoCommit(false);
        try (Statement st = connection.createStatement()) {
            st.execute("SELECT 1 FROM audit_log LIMIT 1");   // holds the read snapshot
        } catch (SQLException e) {
            connection.rollback();
            connection.setAutoCommit(true);
            chain.endRead(connection);
            throw e;
        }
        try {
            return work.run();
        } finally {
            connection.rollback();
            connection.setAutoCommit(true);
            chain.endRead(connection);
        }
    }

    @Override
    public void close() {
        if (history != null) {
            history.stop();
        }
        if (flusher != null) {
            synchronized (signal) {
                closing = true;
                signal.notifyAll();
            }
            try {
                flusher.join();
                settle();   // whatever the flusher had not reached: durable, and witnessed, before the file closes
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        closed = true;
        chain.close();
    }

    private static final String SELECT = """
            SELECT id, occurred_at, source_id, caller, tool, phase, status, error_kind, pii_categories, args_hash,
                   sql_fingerprint, row_count, duration_ms, prev_hash, chain_hash FROM audit_log""";

    private static AuditRecord record(ResultSet rs) throws SQLException {
        AuditEntry entry = new AuditEntry(rs.getString(3), rs.getString(4), rs.getString(5),
                AuditEntry.Phase.fromWireName(rs.getString(6)), rs.getString(7), rs.getString(8), strings(rs.getString(9)),
                rs.getString(10), rs.getString(11), getLong(rs, 12), getLong(rs, 13));
        return new AuditRecord(rs.getLong(1), rs.getString(2), entry, rs.getString(14), rs.getString(15));
    }

    /**
     * HMAC-SHA256(chain key, prev_hash bytes ‖ canonical JSON of the content fields), hex; with no key
     * (rows of a keyless log) plain sha256 over the same bytes.
     */
    static String chainHash(AuditKey key, String prevHex, long id, String occurredAt, AuditEntry e) {
        return chainHash(key, prevHex, null, id, occurredAt, e);
    }

    /** As above; {@code bound}: the mark's MAC, hashed after prev_hash in the one row bound to the mark. */
    static String chainHash(AuditKey key, String prevHex, byte[] bound, long id, String occurredAt, AuditEntry e) {
        Map<String, Object> content = new LinkedHashMap<>();
        content.put("id", id);
        content.put("occurred_at", occurredAt);
        content.put("source_id", e.sourceId());
        content.put("caller", e.caller());
        content.put("tool", e.tool());
        content.put("phase", e.phase().wireName());
        content.put("status", e.status());
        content.put("error_kind", e.errorKind());
        content.put("pii_categories", e.piiCategories());
        content.put("args_hash", e.argsHash());
        content.put("sql_fingerprint", e.sqlFingerprint());
        content.put("row_count", e.rowCount());
        content.put("duration_ms", e.durationMs());
        byte[] prev;
        try {
            prev = HexFormat.of().parseHex(prevHex);
        } catch (IllegalArgumentException notHex) {
            prev = prevHex.getBytes(StandardCharsets.UTF_8);   // a forged, malformed prev_hash still gets a (wrong) hash
        }
        if (bound != null) {
            byte[] both = java.util.Arrays.copyOf(prev, prev.length + bound.length);
            System.arraycopy(bound, 0, both, prev.length, bound.length);
            prev = both;
        }
        byte[] body = CanonicalJson.bytes(content);
        return HexFormat.of().formatHex(key == null ? CanonicalJson.sha256(prev, body) : key.chainMac(prev, body));
    }

    private static void setLong(PreparedStatement st, int at, Long value) throws SQLException {
        if (value == null) {
            st.setNull(at, Types.INTEGER);
        } else {
            st.setLong(at, value);
        }
    }

    private static Long getLong(ResultSet rs, int at) throws SQLException {
        long v = rs.getLong(at);
        return rs.wasNull() ? null : v;
    }

    private static String json(List<String> values) {
        try {
            return JSON.writeValueAsString(values);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a list of strings always serializes", e);
        }
    }

    private static List<String> strings(String json) {
        try {
            return JSON.readValue(json, STRINGS);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("pii_categories holds invalid JSON: " + json, e);
        }
    }
}
