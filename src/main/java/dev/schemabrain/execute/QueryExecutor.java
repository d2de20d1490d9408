package dev.schemabrain.execute;

import dev.schemabrain.error.ErrorKind;
import dev.schemabrain.error.ExecutionException;
import dev.schemabrain.engine.Dialect;
import dev.schemabrain.engine.Engine;
import dev.schemabrain.engine.Engines;
import dev.schemabrain.engine.Explain;
import dev.schemabrain.engine.Failure;
import dev.schemabrain.engine.Purpose;
import dev.schemabrain.engine.SourceUrl;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The only path by which SQL reaches a source. Each call borrows a session that is read-only and
 * time-limited and runs one statement in a read-only transaction, rolled back by the reset: begun by a statement of
 * the engine's ({@link Engine#beginReadOnly}), or by the driver with the call's first statement (PostgreSQL: no
 * round trip before the call's SQL). Sessions are pooled (at most
 * {@code maxConcurrent}, idle ones closed after {@link #IDLE_MS}); between calls the engine resets a session to the
 * state a new connection has ({@link Engine#resetSession}), and a session whose call failed other than by a plain
 * SQL error is closed, so no session state survives a call. At most {@code maxConcurrent} statements run at once: a call
 * that cannot get a slot in time is told {@code source_busy} instead of meeting the database's
 * connection limit. A watchdog cancels a statement that outlives its timeout, should the server's own
 * limit not fire.
 */
public final class QueryExecutor implements AutoCloseable {

    /**
     * The rows of a statement, values as JSON-friendly Java: Long, BigDecimal, Double, Boolean, ISO text.
     * {@code truncated}: more rows were there; {@code cutAtBytes}: the byte budget cut them there (0: it did not).
     */
    public record Result(List<String> labels, List<List<Object>> rows, boolean truncated, long millis, long cutAtBytes) {

        public Result(List<String> labels, List<List<Object>> rows, boolean truncated, long millis) {
            this(labels, rows, truncated, millis, 0);
        }

        /** The sentence that says the answer was cut at its byte budget, and how to ask for less; empty if it was not. */
        public Optional<String> byteCut() {
            return cutAtBytes == 0 ? Optional.empty() : Optional.of("The answer was cut at " + cutAtBytes
                    + " bytes of cell data (the server's --max-result-bytes) after " + rows.size() + " rows; select fewer"
                    + " or shorter columns (left(), length()), aggregate, or filter to fewer rows.");
        }
    }

    private static final long WATCHDOG_GRACE_MS = 1_000;
    /** How long a session may sit unused before it is closed. */
    static final long IDLE_MS = 30_000;

    private final Engine engine;
    private final SourceUrl url;
    private final ExecutorSettings settings;
    private final Semaphore slots;
    private final String sourceId;
    private final SessionPool pool;
    private final ScheduledExecutorService watchdog = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "schemabrain-statement-watchdog");
        t.setDaemon(true);
        return t;
    });

    public QueryExecutor(SourceUrl url, ExecutorSettings settings) {
        this(url, settings, IDLE_MS);
    }

    /** @param idleMs how long a session is kept unused; 0 keeps none (a new connection per call, for figures) */
    QueryExecutor(SourceUrl url, ExecutorSettings settings, long idleMs) {
        this.engine = Engines.of(url.kind()).orElseThrow(() -> new IllegalArgumentException("get_metric cannot run against a "
                + url.kind().name().toLowerCase() + " source; serve with a " + String.join(", ", Engines.urlForms()).replace(":FILE", ":") + " source."));
        this.url = url;
        this.settings = settings;
        this.slots = new Semaphore(settings.maxConcurrent(), true);
        this.sourceId = url.sourceId();
        this.pool = new SessionPool(engine, url, Purpose.query(settings.statementTimeoutMs()), idleMs);
        if (idleMs > 0) {
            watchdog.scheduleWithFixedDelay(pool::evictIdle, idleMs / 2, idleMs / 2, TimeUnit.MILLISECONDS);
        }
    }

    /** The session pool, for tests that look at what a session kept. */
    SessionPool pool() {
        return pool;
    }

    public Dialect dialect() {
        return engine;
    }

    public String sourceId() {
        return sourceId;
    }

    /** The source's URL without credentials, for messages. */
    public String displayUrl() {
        return url.displayUrl();
    }

    public ExecutorSettings settings() {
        return settings;
    }

    /**
     * Runs {@code query} and returns at most {@code rowLimit} rows (and never more than the configured
     * maximum); {@code truncated} says more were there. With a cost cap, the database's estimate is
     * checked first and a statement above it never runs.
     */
    public Result execute(BoundQuery query, int rowLimit) throws ExecutionException {
        int cap = Math.max(1, Math.min(rowLimit, settings.maxRows()));
        return withSession((c, lease) -> {
            if (settings.costCap() != null) {
                Explain estimate = explain(c, query);
                if (estimate.totalCost() != null && estimate.totalCost() > settings.costCap()) {
                    throw new ExecutionException(ErrorKind.COST_CAP_EXCEEDED, String.format(Locale.ROOT,
                            "The database estimates this query at cost %.0f, above the configured cap of %.0f; narrow it "
                                    + "with filters or a coarser time grain.", estimate.totalCost(), settings.costCap()));
                }
            }
            return run(c, lease, query, cap);
        });
    }

    /** Runs {@code query} on a session begun for it: at most {@code cap} rows, a watchdog past the timeout. */
    private Result run(Connection c, SessionPool.Lease lease, BoundQuery query, int cap) throws SQLException,
            ExecutionException {
        long start = System.nanoTime();
        try (PreparedStatement st = prepare(c, query.sql(), query.params())) {
            st.setMaxRows(cap + 1);
            st.setFetchSize(Math.min(cap + 1, 1000));
            AtomicBoolean timedOut = new AtomicBoolean();
            ScheduledFuture<?> guard = watchdog.schedule(() -> cancel(st, timedOut),
                    settings.statementTimeoutMs() + WATCHDOG_GRACE_MS, TimeUnit.MILLISECONDS);
            try (ResultSet rs = st.executeQuery()) {
                ResultSetMetaData meta = rs.getMetaData();
                List<String> labels = new ArrayList<>();
                for (int i = 1; i <= meta.getColumnCount(); i++) {
                    labels.add(meta.getColumnLabel(i));
                }
                List<List<Object>> rows = new ArrayList<>();
                boolean more = false;
                long bytes = 0;
                while (rs.next()) {
                    if (rows.size() == cap) {
                        more = true;
                        break;
                    }
                    List<Object> row = new ArrayList<>(labels.size());
                    long rowBytes = 0;
                    for (int i = 1; i <= labels.size(); i++) {
                        Object v = value(rs.getObject(i));
                        rowBytes += AnswerBytes.of(v);
                        row.add(v);
                    }
                    if (bytes + rowBytes > settings.maxBytes()) {
                        // The row that passes the budget is left out whole, and no further row is read.
                        return new Result(labels, rows, true, (System.nanoTime() - start) / 1_000_000, settings.maxBytes());
                    }
                    bytes += rowBytes;
                    rows.add(row);
                }
                return new Result(labels, rows, more, (System.nanoTime() - start) / 1_000_000);
            } catch (SQLException e) {
                if (timedOut.get()) {
                    throw timeout();
                }
                throw e;
            } finally {
                if (!guard.cancel(false)) {
                    // The watchdog fired: a late cancel could reach this session's next statement.
                    lease.spoil();
                }
            }
        }
    }

    /**
     * Opens one session and leaves it idle in the pool, so a session's first query does not pay for the connection
     * (its handshake and setup statements), nor for the first run of the driver's query path: {@code SELECT 1} runs
     * on it as a query would (a first get_metric spent about half of its 45 ms loading and interpreting that path).
     * It reads no table.
     */
    public void openIdleSession() throws ExecutionException {
        withSession((c, lease) -> run(c, lease, new BoundQuery("SELECT 1", List.of()), 1), false);
    }

    /** The database's plan and estimate for {@code query}; nothing is executed. */
    public Explain explain(BoundQuery query) throws ExecutionException {
        return withSession((c, lease) -> explain(c, query));
    }

    private Explain explain(Connection c, BoundQuery query) throws SQLException {
        try (PreparedStatement st = prepare(c, engine.explain(query.sql()), query.params()); ResultSet rs = st.executeQuery()) {
            return engine.readExplain(rs);
        }
    }

    private interface Work<T> {
        T run(Connection connection, SessionPool.Lease lease) throws SQLException, ExecutionException;
    }

    private <T> T withSession(Work<T> work) throws ExecutionException {
        return withSession(work, true);
    }

    /** @param resetLater reset the session after returning (a call's answer); false: it is idle again on return */
    private <T> T withSession(Work<T> work, boolean resetLater) throws ExecutionException {
        boolean acquired;
        try {
            acquired = slots.tryAcquire(settings.acquireWaitMs(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw busy();
        }
        if (!acquired) {
            throw busy();
        }
        boolean handedOver = false;
        try {
            SessionPool.Lease lease = begin();
            try {
                return work.run(lease.connection(), lease);
            } catch (SQLException e) {
                if (!plainError(lease.connection(), e)) {
                    lease.spoil();
                }
                throw e;
            } catch (ExecutionException e) {
                if (e.kind() != ErrorKind.COST_CAP_EXCEEDED) {
                    lease.spoil();
                }
                throw e;
            } catch (RuntimeException | Error e) {
                lease.spoil();
                throw e;
            } finally {
                if (resetLater) {
                    // Reset after the answer; the slot stays taken until the session is idle again.
                    pool.giveBackLater(lease, slots::release);
                    handedOver = true;
                } else {
                    pool.giveBack(lease);
                }
            }
        } catch (SQLException e) {
            throw translate(e);
        } finally {
            if (!handedOver) {
                slots.release();
            }
        }
    }

    /**
     * A session ready for the call's statements: its read-only transaction begun where the engine has one. A pooled
     * session is not pinged before each use: if it died while idle (server restart, a killed backend), the statement
     * that begins its transaction fails before any of the call's SQL was sent, and a new session takes its place once.
     * Where the driver begins the transaction with the call's first statement (PostgreSQL) nothing goes before the
     * call's SQL, so a session idle for longer than {@link #ALIVE_WITHOUT_CHECK_MS} is checked with the
     * driver's own ping ({@link Connection#isValid}); one used more recently is trusted, as a connection pool trusts it.
     */
    private SessionPool.Lease begin() throws SQLException {
        for (SessionPool.Lease lease = pool.borrow(); ; lease = pool.fresh()) {
            try {
                if (ready(lease)) {
                    return lease;
                }
                lease.spoil();
                pool.giveBack(lease);
            } catch (SQLException e) {
                lease.spoil();
                pool.giveBack(lease);
                // Only a pooled session is retried, and only once: a new one failing is the source's answer.
                if (!lease.reused() || plainError(lease.connection(), e)) {
                    throw e;
                }
            }
        }
    }

    /**
     * How long a pooled session on a server may sit idle and still be lent without a ping, where no statement begins
     * its call (HikariCP's default bypass window is 500 ms). Under load a session is back within milliseconds.
     */
    static final long ALIVE_WITHOUT_CHECK_MS = 1_000;

    /** Begins the call's transaction, or checks a session idle long enough to have died; false: it is dead. */
    private boolean ready(SessionPool.Lease lease) throws SQLException {
        Connection c = lease.connection();
        String begin = engine.beginReadOnly();
        if (begin != null) {
            try (Statement st = c.createStatement()) {
                st.execute(begin);
            }
            return true;
        }
        return !lease.reused() || !engine.sessionsOnAServer()
                || lease.idleNanos() < TimeUnit.MILLISECONDS.toNanos(ALIVE_WITHOUT_CHECK_MS)
                || c.isValid(Math.max(1, (int) (settings.acquireWaitMs() / 1000)));
    }

    /**
     * Whether {@code e} is the database refusing a statement on a session that is still sound: not a timeout, cancel,
     * lost connection or unavailable server, whose session state nobody can vouch for.
     */
    private boolean plainError(Connection c, SQLException e) {
        Failure failure = engine.classify(e);
        if (failure.unavailable() || failure == Failure.TIMEOUT || failure == Failure.BUSY || failure == Failure.CORRUPT) {
            return false;
        }
        String state = Failure.state(e);
        if (state.startsWith("08") || state.startsWith("57") || state.startsWith("XX")) {
            return false;
        }
        try {
            return !c.isClosed();
        } catch (SQLException closed) {
            return false;
        }
    }

    private static PreparedStatement prepare(Connection c, String sql, List<Object> params) throws SQLException {
        // The marker lets the query-log miner skip our own statements (pg_stat_statements keeps the comment).
        PreparedStatement st = c.prepareStatement(Purpose.STATEMENT_MARKER + sql);
        try {
            for (int i = 0; i < params.size(); i++) {
                st.setObject(i + 1, params.get(i));
            }
            return st;
        } catch (SQLException e) {
            st.close();
            throw e;
        }
    }

    private ExecutionException translate(SQLException e) {
        Failure failure = engine.classify(e);
        if (failure == Failure.TIMEOUT) {
            return timeout();
        }
        if (failure == Failure.BUSY) {
            return busy();
        }
        if (failure.unavailable()) {
            // Not even a connection error's text: a driver may quote a host, a user or the statement.
            return new ExecutionException(ErrorKind.SOURCE_UNAVAILABLE, "The source database cannot be reached or "
                    + "refused the login (" + StatementFailures.code(e) + "); check that it is up and the server's"
                    + " credentials, then retry.");
        }
        return StatementFailures.of(failure, e);
    }

    private ExecutionException timeout() {
        return new ExecutionException(ErrorKind.STATEMENT_TIMEOUT, "The query ran longer than "
                + settings.statementTimeoutMs() + " ms and was stopped; narrow it with filters or a coarser time grain, or "
                + "check its plan with dry_run.");
    }

    private ExecutionException busy() {
        return new ExecutionException(ErrorKind.SOURCE_BUSY, "The source is busy: " + settings.maxConcurrent()
                + " queries are already running; retry in a moment.");
    }

    private static void cancel(PreparedStatement st, AtomicBoolean timedOut) {
        timedOut.set(true);
        try {
            st.cancel();
        } catch (SQLException ignored) {
            // The statement finished meanwhile.
        }
    }

    static Object value(Object v) {
        if (v == null || v instanceof String || v instanceof Boolean || v instanceof BigDecimal || v instanceof Double) {
            return v;
        }
        if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte) {
            return ((Number) v).longValue();
        }
        if (v instanceof BigInteger b) {
            return new BigDecimal(b);
        }
        if (v instanceof Float f) {
            return f.doubleValue();
        }
        if (v instanceof Date d) {
            return d.toLocalDate().toString();
        }
        if (v instanceof Timestamp t) {
            return t.toLocalDateTime().toString();
        }
        if (v instanceof LocalDate || v instanceof LocalDateTime || v instanceof OffsetDateTime) {
            return v.toString();
        }
        if (v instanceof byte[] bytes) {
            return "<" + bytes.length + " bytes>";
        }
        return v.toString();
    }

    @Override
    public void close() {
        watchdog.shutdownNow();
        pool.close();
    }
}
