package dev.schemabrain.execute;

import dev.schemabrain.engine.Engine;
import dev.schemabrain.engine.Purpose;
import dev.schemabrain.engine.SourceUrl;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Query sessions kept open between calls. It never admits anyone: the executor's semaphore does, and every borrower
 * holds a permit, so open connections (lent plus idle) never exceed {@code maxConcurrent}. A session comes back only
 * after its engine reset it to the state {@link Engine#connect} left it in; anything else closes it. Idle sessions
 * are closed after {@code idleMillis}; the newest is lent first, so a quiet server keeps only what it uses. A session on
 * a server ({@link Engine#sessionsOnAServer}) is reset after its call's answer has left ({@link #giveBackLater}): the
 * reset's round trips (a rollback, then {@code DISCARD ALL} and the settings on PostgreSQL) cost an agent's execute
 * about 1.2 ms after an idle gap. An in-process engine's session is reset before the answer, because DuckDB refuses
 * another configuration's connection to its file while ours is open.
 */
final class SessionPool implements AutoCloseable {

    private record Idle(Connection connection, long since) {
    }

    private final Engine engine;
    private final SourceUrl url;
    private final Purpose purpose;
    private final long idleNanos;
    private final Deque<Idle> idle = new ArrayDeque<>();
    private final AtomicLong opened = new AtomicLong();
    private final ExecutorService resets = Executors.newCachedThreadPool(task -> {
        Thread thread = new Thread(task, "schemabrain-session-reset");
        thread.setDaemon(true);
        return thread;
    });
    /** Sessions being reset: a borrower waits for one rather than open a connection beside it. Under this. */
    private int resetting;
    private boolean closed;

    SessionPool(Engine engine, SourceUrl url, Purpose purpose, long idleMillis) {
        this.engine = engine;
        this.url = url;
        this.purpose = purpose;
        this.idleNanos = idleMillis * 1_000_000;
    }

    /**
     * A session: the newest idle one that is still open, else one being reset (waited for, at most
     * {@link #RESET_WAIT_MS}: a connection costs more than a reset), else a new one.
     */
    Lease borrow() throws SQLException {
        synchronized (this) {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(RESET_WAIT_MS);
            while (true) {
                for (Idle i; (i = idle.pollFirst()) != null; ) {
                    if (!i.connection().isClosed()) {
                        return new Lease(i.connection(), System.nanoTime() - i.since());
                    }
                }
                long left = deadline - System.nanoTime();
                if (resetting == 0 || left <= 0) {
                    break;
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(this, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        return fresh();
    }

    /** How long a borrower waits for a session being reset before it opens one of its own. */
    static final long RESET_WAIT_MS = 1_000;

    /** A new session, for a first use or to replace one found broken. */
    Lease fresh() throws SQLException {
        Connection c = engine.connect(url, purpose);
        opened.incrementAndGet();
        return new Lease(c, -1);
    }

    /**
     * Takes back {@code lease} as {@link #giveBack} does: for a session on a server ({@link Engine#sessionsOnAServer})
     * on a thread of the pool's own, so the call answers without waiting for the reset's round trips; otherwise at
     * once. {@code then} runs when the session is idle again or closed (the executor's slot is released there, so
     * open sessions never exceed its limit).
     */
    void giveBackLater(Lease lease, Runnable then) {
        if (!engine.sessionsOnAServer()) {
            try {
                giveBack(lease);
            } finally {
                then.run();
            }
            return;
        }
        synchronized (this) {
            resetting++;
        }
        Runnable task = () -> {
            try {
                giveBack(lease);
            } finally {
                synchronized (this) {
                    resetting--;
                    notifyAll();
                }
                then.run();
            }
        };
        try {
            resets.execute(task);
        } catch (RejectedExecutionException closing) {
            task.run();
        }
    }

    /** Takes back {@code lease}: reset and kept if its call left it sound, otherwise closed. */
    void giveBack(Lease lease) {
        Connection c = lease.connection();
        boolean keep = !lease.spoiled() && idleNanos > 0;
        if (keep) {
            try {
                keep = engine.resetSession(c, url, purpose);
            } catch (SQLException | RuntimeException e) {
                keep = false;
            }
        }
        if (keep) {
            synchronized (this) {
                if (!closed) {
                    idle.addFirst(new Idle(c, System.nanoTime()));
                    return;
                }
            }
        }
        closeQuietly(c);
    }

    /** Closes the sessions idle longer than the limit (run by the executor's timer). */
    void evictIdle() {
        List<Connection> expired = new ArrayList<>();
        long now = System.nanoTime();
        synchronized (this) {
            while (!idle.isEmpty() && now - idle.peekLast().since() >= idleNanos) {
                expired.add(idle.pollLast().connection());
            }
        }
        expired.forEach(SessionPool::closeQuietly);
    }

    /** How many connections this pool ever opened (figures and tests). */
    long opened() {
        return opened.get();
    }

    synchronized int idleCount() {
        return idle.size();
    }

    @Override
    public void close() {
        List<Connection> all = new ArrayList<>();
        synchronized (this) {
            closed = true;
            idle.forEach(i -> all.add(i.connection()));
            idle.clear();
        }
        resets.shutdown();   // a reset still running closes its session: the pool is closed
        all.forEach(SessionPool::closeQuietly);
    }

    private static void closeQuietly(Connection c) {
        try {
            c.close();
        } catch (SQLException | RuntimeException ignored) {
            // Gone either way.
        }
    }

    /**
     * One call's use of a session. {@code idleNanos}: how long it sat idle since an earlier call (it may have died
     * meanwhile), or -1 for a new connection.
     */
    static final class Lease {
        private final Connection connection;
        private final long idleNanos;
        private volatile boolean spoiled;

        Lease(Connection connection, long idleNanos) {
            this.connection = connection;
            this.idleNanos = idleNanos;
        }

        Connection connection() {
            return connection;
        }

        boolean reused() {
            return idleNanos >= 0;
        }

        /** How long the session was idle before this call, or -1 if it is new. */
        long idleNanos() {
            return idleNanos;
        }

        boolean spoiled() {
            return spoiled;
        }

        /** The call failed in a way that leaves the session's state unknown: it is closed, never lent again. */
        void spoil() {
            spoiled = true;
        }
    }
}
