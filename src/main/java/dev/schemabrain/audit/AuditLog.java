package dev.schemabrain.audit;

import dev.schemabrain.error.AuditException;
import dev.schemabrain.error.StoreException;
import dev.schemabrain.store.AuditWitnessStore;
import dev.schemabrain.store.StoreLocation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The keyed, hash-chained, append-only audit log, an SQLite file beside the store
 * ({@code schemabrain.db} → {@code schemabrain.audit.db}). Each batch of appends is one immediate
 * transaction that reads the chain's head and writes the next rows, so concurrent callers, threads or
 * processes still form one linear chain; a killed process leaves either a whole batch or none of it.
 * Rows are never changed: triggers reject UPDATE and DELETE, and a log whose triggers are gone is
 * refused, not repaired. Before every append the server checks that the file at the path is still the one
 * it opened.
 *
 * <p>Durability: a commit writes the rows into the WAL, which a killed process keeps; an
 * fsync of the WAL makes them survive a power cut too. A get_metric {@code started} row is fsynced before
 * its append returns (so before the SQL leaves); every other row returns once written, and a flusher
 * thread fsyncs whatever was written since its last fsync within 10 ms, one fsync for every row written
 * meanwhile. After every fsync a signed head (a {@link Witness}) of what it covered is written outside the
 * file: into the store, and into the operator's witness file when one is named; so a witness never vouches
 * for a row a power cut could still take. An fsync or witness check that fails stops the log: every later
 * append fails, so no more answers leave.
 *
 * <p>This class is the log's face; each job has its own class: {@link AuditOpening} (opening and checking the
 * file or tables), {@link GroupCommit} and {@link ChainAppender} (batched appends), {@link AuditFlusher}
 * (fsyncs), {@link ChainWitnesses} (signed heads outside the log), {@link ChainReader} (reads) and
 * {@link ChainRows} (the row format and its hash).
 */
public final class AuditLog implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(AuditLog.class);

    /** The first row's prev_hash: 32 zero bytes. */
    public static final String GENESIS = "0".repeat(64);
    static final String FORMAT = "2";

    private final ChainStore chain;
    private final AuditKey key;            // null: opened for reading
    /** null: no file, or a keyless log; replaced once at open when the log is marked (see {@link KeyedMark}). */
    private volatile AuditSchema.Meta meta;
    private final Optional<WitnessFile> witnessFile;
    private final AuditDurability durability;
    private final LogStop stop = new LogStop();
    private final ChainReader reader;
    private final ChainWitnesses witnesses;
    private final ChainAppender appender;
    private final GroupCommit commit;
    private final AuditFlusher flusher;
    /** The full chain check after an open that verified only the rows since the store's witness; null before. */
    private HistoryCheck history;
    /** Run by the history check before it reads and between batches of rows: a server's start and calls go first. */
    private Runnable historyPace = () -> { };
    /** Set once {@link #close} has settled and closed the file: a late shutdown hook has nothing to do. */
    private volatile boolean closed;

    private AuditLog(ChainStore chain, Clock clock, AuditKey key, AuditSchema.Meta meta, Optional<WitnessFile> witnessFile,
                     AuditDurability durability) {
        this.chain = chain;
        this.durability = Objects.requireNonNull(durability, "durability");
        this.key = key;
        this.meta = meta;
        this.witnessFile = witnessFile;
        // Reads, appends and witness checks share the one connection under this log's monitor (a test holds it
        // to stall a batch's writer).
        Object onConnection = this;
        this.reader = new ChainReader(chain, onConnection);
        this.witnesses = new ChainWitnesses(chain, key, witnessFile, reader, onConnection);
        this.appender = new ChainAppender(chain, clock, key, witnesses, stop, onConnection);
        this.commit = new GroupCommit(appender);
        this.flusher = new AuditFlusher(chain, appender, witnesses, stop);
    }

    /** A log for appending on an opened {@code chain}, started (see {@link #start}). */
    static AuditLog started(ChainStore chain, Clock clock, AuditKey key, AuditSchema.Meta meta,
                            Optional<WitnessFile> witnessFile, AuditDurability durability, Runnable historyPace)
            throws SQLException, AuditException {
        AuditLog log = new AuditLog(chain, clock, key, meta, witnessFile, durability);
        log.historyPace = Objects.requireNonNull(historyPace, "historyPace");
        log.start();
        return log;
    }

    /** A log for reading an opened {@code chain}. */
    static AuditLog forReading(ChainStore chain, AuditSchema.Meta meta) {
        return new AuditLog(chain, Clock.systemUTC(), null, meta, Optional.empty(), AuditDurability.EVERY_ROW);
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
        return open(new StoreLocation.SqliteFile(storePath), key, witnessFile, Clock.systemUTC(), durability, () -> { });
    }

    static AuditLog open(Path storePath, AuditKey key, Optional<WitnessFile> witnessFile, Clock clock) throws AuditException {
        return open(new StoreLocation.SqliteFile(storePath), key, witnessFile, clock, AuditDurability.EVERY_ROW, () -> { });
    }

    private static AuditLog open(StoreLocation.SqliteFile location, AuditKey key, Optional<WitnessFile> witnessFile,
                                 Clock clock, AuditDurability durability, Runnable historyPace) throws AuditException {
        Objects.requireNonNull(key, "key");
        return AuditOpening.forAppend(location, key, witnessFile, clock, durability, historyPace);
    }

    /**
     * Opens the audit chain of the store at {@code location} for appending: the file beside a SQLite store,
     * or the chain tables of a PostgreSQL store, which every instance serving it appends to. On PostgreSQL
     * every append returns after its batch's synchronous COMMIT whichever {@code durability}: a commit is
     * the fsync there; {@link AuditDurability#STARTED_ROWS} only moves the witness write off the answer path.
     */
    public static AuditLog open(StoreLocation location, AuditKey key, Optional<WitnessFile> witnessFile,
                                AuditDurability durability) throws AuditException {
        return open(location, key, witnessFile, durability, () -> { });
    }

    /**
     * As above, the background history check running {@code historyPace} before it reads and between batches of rows
     * (a server passes what makes it wait for its warm-up and give way to calls in flight: on two cores the check of an
     * 18,000-row log beside a start made the first answer about 300 ms later).
     */
    public static AuditLog open(StoreLocation location, AuditKey key, Optional<WitnessFile> witnessFile,
                                AuditDurability durability, Runnable historyPace) throws AuditException {
        if (location instanceof StoreLocation.SqliteFile f) {
            return open(f, key, witnessFile, Clock.systemUTC(), durability, historyPace);
        }
        Objects.requireNonNull(key, "key");
        return AuditOpening.forAppend((StoreLocation.PostgresSchema) location, key, witnessFile, durability, historyPace);
    }

    /**
     * After open: the witnesses checked, the chain verified from the store's witness on (a log that does not
     * verify is not continued), a witness of the verified head written, the log marked as keyed, the head read,
     * the flusher started, and the rest of the chain checked in the background ({@link HistoryCheck}).
     */
    private void start() throws SQLException, AuditException {
        witnesses.checkAll();
        VerifyResult verified = AuditVerifier.verifyForAppend(this, witnessFile);
        if (!verified.intact()) {
            throw new AuditException("The audit log " + name() + " does not verify (" + verified.problem()
                    + (verified.firstBadId().isPresent() ? ", at row " + verified.firstBadId().getAsLong() : "")
                    + "), so the server will not record into it; run schemabrain audit verify and keep the log as evidence"
                    + (chain.shared() ? " (docs/operations.md: a tampered chain)." : ", then schemabrain audit rotate"
                    + " --even-if-broken starts a new log."), null);
        }
        boolean storeWitness = witnesses.atOpen(ChainRows.lastRow(chain.connection()));
        meta = appender.markKeyed(meta, storeWitness);
        Head written = appender.begin();
        flusher.start(written.count());   // what an earlier process committed: made durable by now or never
        if (verified.rowsChecked() < written.count()) {
            history = HistoryCheck.start(chain.location(), name(), key, stop::stop, historyPace);
        }
    }

    /** Waits for the history check after open, if one runs; answers whether it has ended. */
    boolean awaitHistoryCheck(long millis) throws InterruptedException {
        return history == null || history.await(millis);
    }

    /** The audit chain of the store at {@code location}, for reading; see {@link #openExisting(Path)}. */
    public static AuditLog openExisting(StoreLocation location) throws AuditException {
        if (location instanceof StoreLocation.SqliteFile f) {
            return AuditOpening.forReading(f);
        }
        return AuditOpening.forReading((StoreLocation.PostgresSchema) location);
    }

    /**
     * Opens the store's audit log for reading; nothing is written. Empty when the file does not exist
     * (a store whose tools were never called, or a deleted log: {@link AuditVerifier} tells them apart).
     */
    public static AuditLog openExisting(Path storePath) throws AuditException {
        return openExisting(new StoreLocation.SqliteFile(storePath));
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
        return chain.name();
    }

    /** Whether a log exists with the audit table in it. */
    boolean exists() throws SQLException {
        // A PostgreSQL store's tables exist from its first index on; its chain begins when an instance names the key.
        return chain.connection() != null && chain.hasLog() && (meta != null || !chain.shared());
    }

    /** What is wrong with the log's append-only schema, as a clause; null when nothing. */
    String schemaProblem(boolean keyless) throws SQLException {
        return chain.problem(keyless);
    }

    /** The log's key id and keyless prefix; null for a keyless log not adopted yet, or no log. */
    AuditSchema.Meta meta() {
        return meta;
    }

    /**
     * Reads audit_meta again; answers whether it changed since open (another process marked the log in
     * between: its bound row is then verified with the mark). A keyless or missing log has nothing to read.
     */
    boolean refreshMeta() throws AuditException {
        if (meta == null || chain.connection() == null) {
            return false;
        }
        try {
            AuditSchema.Meta now = AuditSchema.meta(chain.connection());
            boolean changed = !now.equals(meta);
            meta = now;
            return changed;
        } catch (SQLException e) {
            throw new AuditException("The audit log " + name() + " cannot be read (" + e.getMessage() + ").", e);
        }
    }

    /** The key this log appends under; null when opened for reading. */
    AuditKey key() {
        return key;
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
            throw new AuditException("The audit log " + name() + " was opened for reading only.", null);
        }
        long id = commit.write(entry);
        if (durability.waitsFor(entry.phase())) {
            // Appends waiting here together share one fsync: the first takes it, the others find it done.
            flusher.flushTo(id);
        } else {
            flusher.wake();
        }
        return id;
    }

    /** How many rows an fsync has covered (tests show that a started row is durable when its append returns). */
    long durableRows() {
        return flusher.durableRows();
    }

    /** How many appends the last batch held (tests show that concurrent appends shared one). */
    int lastBatchSize() {
        return commit.lastBatchSize();
    }

    /** How many appends wait for the batch being written to finish; -1 when no batch is being written. */
    int waiting() {
        return commit.waiting();
    }

    /**
     * Makes every row written so far survive a power cut, then writes their witness; returns at once when
     * an earlier flush covered them. Closing the log does this; tests use it to see the witness now.
     */
    public void flush() throws AuditException {
        flusher.flush();
    }

    /** The chain's head: the last row's id and chain_hash; {@link Head#EMPTY} for an empty log. */
    public Head head() throws AuditException {
        return reader.head();
    }

    /** The chain_hash stored at row {@code id}; empty when there is no such row. Row 0 is the genesis. */
    Optional<String> storedHash(long id) throws SQLException {
        return reader.storedHash(id);
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
            flusher.flush();
            flusher.catchUpWitness();
        } catch (AuditException e) {
            LOG.error("the audit log's last rows could not be made durable: {}", e.getMessage());
        }
    }

    /** The witness kept in the store for this chain, if any. */
    Optional<AuditWitnessStore.Stored> storedWitness() throws StoreException {
        return witnesses.stored();
    }

    /** Every row from {@code sinceId} in id order, inside one read snapshot. */
    void scan(OptionalLong sinceId, ChainReader.RowVisitor visitor) throws AuditException {
        reader.scan(sinceId, visitor);
    }

    /** The newest {@code limit} rows with an id of at least {@code sinceId}, in id order. */
    public List<AuditRecord> list(int limit, OptionalLong sinceId) throws AuditException {
        return list(limit, sinceId, List.of());
    }

    /** As {@link #list(int, OptionalLong)}; {@code fingerprints} not empty: only rows with one of these stored fingerprints. */
    public List<AuditRecord> list(int limit, OptionalLong sinceId, List<String> fingerprints) throws AuditException {
        return reader.list(limit, sinceId, fingerprints, Optional.empty());
    }

    /** As above; {@code role} present: only rows of callers with that role ({@code none}: callers the policy gave nothing). */
    public List<AuditRecord> list(int limit, OptionalLong sinceId, List<String> fingerprints, Optional<String> role)
            throws AuditException {
        return reader.list(limit, sinceId, fingerprints, role);
    }

    @Override
    public void close() {
        if (history != null) {
            history.stop();
        }
        try {
            if (flusher.end()) {
                settle();   // whatever the flusher had not reached: durable, and witnessed, before the file closes
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        closed = true;
        chain.close();
    }
}
