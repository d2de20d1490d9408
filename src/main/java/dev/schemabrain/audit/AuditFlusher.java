package dev.schemabrain.audit;

import dev.schemabrain.error.AuditException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;

/**
 * Durability: fsyncs of the rows written, each followed by the witness of what it covered, so a witness never
 * vouches for a row a power cut could still take. A background thread fsyncs within 10 ms of appends, one fsync
 * for every row written meanwhile; an append that must be durable on return flushes itself. An fsync that
 * fails stops the log.
 */
final class AuditFlusher {

    private static final Logger LOG = LoggerFactory.getLogger(AuditFlusher.class);

    /** The background fsync's pace: at most one per 10 ms, so a power cut loses at most the last ~10 ms of rows. */
    static final long FLUSH_INTERVAL_NANOS = 10_000_000;

    private final ChainStore chain;
    private final ChainAppender appender;
    private final ChainWitnesses witnesses;
    private final LogStop stop;
    /** One fsync and its witness at a time. */
    private final Object flushing = new Object();
    /** Wakes the flusher thread. */
    private final Object signal = new Object();
    /** How many rows an fsync covered; read without a lock by appenders deciding whether to wait. */
    private volatile long durable;
    private Thread thread;
    private boolean closing;   // under signal
    private boolean idle;   // under signal: the thread waits for a row; pacing, it needs no wake-up

    AuditFlusher(ChainStore chain, ChainAppender appender, ChainWitnesses witnesses, LogStop stop) {
        this.chain = chain;
        this.appender = appender;
        this.witnesses = witnesses;
        this.stop = stop;
    }

    /** How many rows an fsync has covered (tests show that a started row is durable when its append returns). */
    long durableRows() {
        return durable;
    }

    /** Starts the background fsync; {@code durableRows}: what an earlier process committed, durable by now or never. */
    void start(long durableRows) {
        durable = durableRows;
        thread = new Thread(this::run, "schemabrain-audit-flush");
        thread.setDaemon(true);
        thread.start();
    }

    /** After a row is written that does not wait for its fsync: the thread fsyncs it (and whatever else) right after. */
    void wake() {
        synchronized (signal) {
            if (idle) {
                signal.notify();
            }
        }
    }

    /** Every row written so far made durable and witnessed; at once when an earlier flush covered them. */
    void flush() throws AuditException {
        flushTo(appender.writtenSoFar());
    }

    /** One fsync and one witness for everything written, unless an fsync since covered row {@code id}. */
    void flushTo(long id) throws AuditException {
        synchronized (flushing) {
            stop.check();
            if (durable >= id) {
                return;
            }
            ChainAppender.Unflushed target = appender.takeUnflushed();
            try {
                chain.force();
                durable = target.head().count();
                witnesses.witness(target.head(), target.own());
            } catch (AuditException e) {
                throw stop.stop(e);
            } catch (IOException | RuntimeException e) {
                throw stop.stop(new AuditException("The audit log " + chain.name() + " could not be made durable ("
                        + e.getClass().getSimpleName() + ": " + e.getMessage() + "), so nothing more is recorded or"
                        + " answered; check the disk, then restart the server.", e));
            }
        }
    }

    /** A store witness a busy store left behind, tried again (see {@link ChainWitnesses#catchUp}). */
    void catchUpWitness() {
        synchronized (flushing) {
            witnesses.catchUp(stop);
        }
    }

    /** Ends the background thread; answers whether one ran. */
    boolean end() throws InterruptedException {
        if (thread == null) {
            return false;
        }
        synchronized (signal) {
            closing = true;
            signal.notifyAll();
        }
        thread.join();
        return true;
    }

    private void run() {
        long lastFlush = 0;
        while (awaitRows(lastFlush)) {
            lastFlush = System.nanoTime();
            try {
                flush();
            } catch (AuditException e) {
                LOG.error("the audit log stopped recording: {}", e.getMessage());
                return;   // stopped: every later append fails with the same sentence
            }
        }
    }

    /** Waits for rows to fsync and for the pace; answers false when closing or interrupted. */
    private boolean awaitRows(long lastFlush) {
        synchronized (signal) {
            try {
                while (!closing && appender.writtenCount() <= durable) {
                    idle = true;
                    try {
                        signal.wait();
                    } finally {
                        idle = false;
                    }
                }
                // Group commit over time as well: rows written within FLUSH_INTERVAL_NANOS of the last fsync
                // share the next one (and its witness), instead of one fsync and one store write per call.
                long wait = lastFlush + FLUSH_INTERVAL_NANOS - System.nanoTime();
                while (!closing && wait > 0) {
                    signal.wait(Math.max(1, wait / 1_000_000));
                    wait = lastFlush + FLUSH_INTERVAL_NANOS - System.nanoTime();
                }
                return !closing;
            } catch (InterruptedException e) {
                return false;
            }
        }
    }
}
