package dev.schemabrain.audit;

import dev.schemabrain.error.AuditException;
import dev.schemabrain.store.StoreLocation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Consumer;

/**
 * The whole chain, verified once more after a server started on a log whose store witness let it check only
 * the rows since that witness (a start in milliseconds, not seconds per hundred thousand rows). It reads
 * through its own connection while the server appends; a chain that does not verify stops the log, so
 * every later call is refused with the reason, as a log that failed at open would have been.
 */
final class HistoryCheck {

    private static final Logger LOG = LoggerFactory.getLogger(HistoryCheck.class);

    private final Thread thread;

    private HistoryCheck(Thread thread) {
        this.thread = thread;
    }

    /** Starts checking {@code location}'s chain under {@code key}; {@code stop} receives the reason when it is broken. */
    static HistoryCheck start(StoreLocation location, String name, AuditKey key, Consumer<AuditException> stop,
                              Runnable pace) {
        Thread t = new Thread(() -> {
            try {
                pace.run();
                // Only the store's witness: the witness file's newest lines may cover rows written after this snapshot.
                VerifyResult r = AuditVerifier.verify(location,
                        new AuditVerifier.Options(Optional.of(key), Optional.empty(), Optional.empty(), OptionalLong.empty(),
                                pace));
                if (!r.intact()) {
                    AuditException broken = new AuditException("The audit log " + name + " does not verify (" + r.problem()
                            + (r.firstBadId().isPresent() ? ", at row " + r.firstBadId().getAsLong() : "")
                            + "), so the server stopped recording into it; run schemabrain audit verify and keep the log as"
                            + " evidence.", null);
                    LOG.error("{}", broken.getMessage());
                    stop.accept(broken);
                } else {
                    LOG.debug("the audit log's history verified: {} rows", r.rowsChecked());
                }
            } catch (AuditException | RuntimeException e) {
                if (!Thread.currentThread().isInterrupted()) {
                    LOG.warn("the audit log's history could not be checked ({}); run schemabrain audit verify", e.getMessage());
                }
            }
        }, "schemabrain-audit-history");
        t.setDaemon(true);
        t.setPriority(Thread.MIN_PRIORITY);
        t.start();
        return new HistoryCheck(t);
    }

    /** Stops a check still running and waits for it to let go of its connection. */
    void stop() {
        thread.interrupt();
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits for the check to end (tests, and a close that must not leave a reader behind). */
    boolean await(long millis) throws InterruptedException {
        thread.join(millis);
        return !thread.isAlive();
    }
}
