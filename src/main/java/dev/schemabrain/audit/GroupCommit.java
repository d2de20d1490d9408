package dev.schemabrain.audit;

import dev.schemabrain.error.AuditException;

import java.util.ArrayList;
import java.util.List;

/**
 * Group commit: appends that arrive while a batch is being written wait and go into the next one together,
 * one transaction for all of them. A batch that fails fails every append in it.
 */
final class GroupCommit {

    /** Writes a batch in one transaction and sets each append's id; throws to fail them all. */
    interface BatchWriter {
        void write(List<Pending> batch) throws AuditException;
    }

    /** One append waiting for its batch; written under {@link #batching}. */
    static final class Pending {
        final AuditEntry entry;
        long id;
        boolean done;
        AuditException failure;

        Pending(AuditEntry entry) {
            this.entry = entry;
        }
    }

    private final BatchWriter writer;
    private final Object batching = new Object();
    private List<Pending> queue = new ArrayList<>();
    private boolean writing;
    private volatile int lastBatch;

    GroupCommit(BatchWriter writer) {
        this.writer = writer;
    }

    /** Commits {@code entry} with the batch it joins; answers its id once the batch is written. */
    long write(AuditEntry entry) throws AuditException {
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
        writeAll(batch, entry);
        return finish(mine, interrupted);
    }

    private void writeAll(List<Pending> batch, AuditEntry entry) {
        AuditException failure = null;
        try {
            writer.write(batch);
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
}
