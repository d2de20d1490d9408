package dev.schemabrain.audit;

import dev.schemabrain.error.AuditException;
import dev.schemabrain.error.StoreException;
import dev.schemabrain.store.AuditWitnessStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.SQLException;
import java.util.Comparator;
import java.util.Optional;

/**
 * The signed heads kept outside the log: into the store, and into the operator's witness file when one is
 * named. Checks at open (and after another writer moved the chain) that every witness verifies and is
 * matched by the chain, else the log went backwards. {@link #lastStored} and {@link #lagging} are only
 * touched by one flush at a time (the flusher's lock), or at open before any append.
 */
final class ChainWitnesses {

    private static final Logger LOG = LoggerFactory.getLogger(ChainWitnesses.class);

    /** How long an append waits for the store's write lock before leaving the witness behind. */
    static final int WITNESS_BUSY_MILLIS = 50;
    /** How long closing the log keeps trying a store witness that a busy store left behind. */
    private static final int CLOSE_WITNESS_MILLIS = 3_000;

    private final String name;
    private final AuditKey key;
    private final Optional<WitnessFile> witnessFile;
    private final AuditWitnessStore.Witnesses witnessStore;
    private final ChainReader reader;
    private final Object onConnection;
    /** The witness this log last wrote into the store. */
    private AuditWitnessStore.Stored lastStored;
    /** The last head whose store witness found the store busy; null once one was written after it. */
    private Head lagging;

    ChainWitnesses(ChainStore chain, AuditKey key, Optional<WitnessFile> witnessFile, ChainReader reader,
                   Object onConnection) {
        this.name = chain.name();
        this.key = key;
        this.witnessFile = witnessFile;
        this.witnessStore = chain.witnesses();
        this.reader = reader;
        this.onConnection = onConnection;
    }

    static Witness toWitness(AuditWitnessStore.Stored s) {
        return new Witness(new Head(s.rowCount(), s.headHash()), s.mac());
    }

    /** The witness kept in the store for this chain, if any. */
    Optional<AuditWitnessStore.Stored> stored() throws StoreException {
        return witnessStore.read();
    }

    /**
     * A witness of the head just verified, into the store (retried while an index run holds it) and the witness
     * file: from the first serve on the store keeps one, so verify can treat a missing one as deleted. Answers
     * whether the store holds a witness now.
     */
    boolean atOpen(Head head) throws AuditException {
        Witness w = Witness.sign(key, head);
        if (witnessFile.isPresent()) {
            witnessFile.get().append(w);
        }
        AuditWitnessStore.Stored mine = new AuditWitnessStore.Stored(head.count(), head.hash(), w.mac());
        long deadline = System.nanoTime() + CLOSE_WITNESS_MILLIS * 1_000_000L;
        try {
            while (true) {
                AuditWitnessStore.Outcome outcome = witnessStore.advance(mine,
                        previous -> check("the witness in the store", toWitness(previous)));
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
     * After an fsync: the signed head into the store (unless busy) and the witness file (if named). The
     * stored witness is checked against the chain first, except when it is the one this log wrote last
     * and every batch since went on from this log's own head: the chain then matches it by construction,
     * and the check (an HMAC and a read of the log) was most of the witness's cost.
     *
     * @param own whether every batch since the last witness went on from this log's own head
     */
    void witness(Head head, boolean own) throws AuditException {
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
                    synchronized (onConnection) {   // the check reads the log through the appenders' connection
                        check("the witness in the store", toWitness(previous));
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
     * At close or stop: a store witness left behind by a busy store is tried again for up to {@link #CLOSE_WITNESS_MILLIS},
     * so a clean stop leaves the store vouching for the last row (else cutting that row off would go unseen
     * by a verify that has only the store's witness). The caller holds the flusher's lock.
     */
    void catchUp(LogStop stop) {
        long deadline = System.nanoTime() + CLOSE_WITNESS_MILLIS * 1_000_000L;
        try {
            while (!stop.stopped() && lagging != null && System.nanoTime() < deadline) {
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

    /** At open: every witness must verify and be matched by the chain, else the log went backwards. */
    void checkAll() throws AuditException {
        try {
            Optional<AuditWitnessStore.Stored> stored = witnessStore.read();
            if (stored.isPresent()) {
                check("the witness in the store", toWitness(stored.get()));
            }
        } catch (StoreException e) {
            LOG.warn("the audit witness in the store cannot be read: {}", e.getMessage());
        }
        if (witnessFile.isPresent()) {
            WitnessFile.Lines lines = witnessFile.get().read();
            if (!lines.witnesses().isEmpty()) {
                Witness latest = lines.witnesses().stream().max(Comparator.comparingLong(x -> x.head().count())).get();
                check("the witness file " + witnessFile.get().path(), latest);
            }
        }
    }

    private void check(String where, Witness w) throws AuditException {
        if (!w.verifies(key)) {
            throw new AuditException("The audit log " + name + " cannot be trusted: " + where + " does not verify under"
                    + " this audit key (forged, or written with another key); run schemabrain audit verify.", null);
        }
        Optional<String> atCount;
        try {
            atCount = reader.storedHash(w.head().count());
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
}
