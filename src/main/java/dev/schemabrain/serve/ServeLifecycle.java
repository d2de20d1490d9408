package dev.schemabrain.serve;

import dev.schemabrain.access.Access;
import dev.schemabrain.audit.AuditLog;
import dev.schemabrain.embed.Embedders;
import dev.schemabrain.error.ExecutionException;
import dev.schemabrain.error.SchemaBrainException;
import dev.schemabrain.engine.Engine;
import dev.schemabrain.engine.Engines;
import dev.schemabrain.execute.QueryExecutor;
import dev.schemabrain.execute.SourceExecutors;
import dev.schemabrain.served.ServedCatalog;
import dev.schemabrain.mcp.transport.http.HttpService;
import dev.schemabrain.mcp.transport.http.Observability;
import dev.schemabrain.mcp.server.AuditedCalls;
import dev.schemabrain.mcp.server.DispatchCapacity;
import dev.schemabrain.mcp.server.McpCore;
import dev.schemabrain.mcp.transport.stdio.StdioDoor;
import dev.schemabrain.mcp.transport.stdio.StdioServer;
import dev.schemabrain.mcp.tool.CallsInFlight;
import dev.schemabrain.gate.SqlGate;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.served.CatalogProvider;
import dev.schemabrain.mcp.tools.ExampleQueries;
import dev.schemabrain.mcp.tools.StandardTools;
import dev.schemabrain.served.StoreCatalogProvider;
import dev.schemabrain.retrieve.HybridRetriever;
import dev.schemabrain.sql.guard.SqlGuard;

import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * One serve, from opening the audit log to the "stopped after" line, over stdio or HTTP. Process-wide
 * concerns (signal handlers, shutdown hooks, System.out) stay with the caller, which calls {@link #stopNow()}
 * from its hook. Closing order: stop accepting, wait for the warm-up and for calls still embedding (their
 * rows follow), close the audit log, close the executor.
 */
public final class ServeLifecycle implements AutoCloseable {


    /** The HTTP port could not be bound; the caller words the refusal. */
    public static final class CannotListen extends Exception {
        CannotListen(Exception cause) {
            super(cause.getMessage(), cause);
        }
    }

    private final ServeSettings settings;
    private final SourceExecutors executors;
    private final InputStream stdin;
    private final PrintStream frames;
    /** Stdin opened before this serve was built (it answers initialize meanwhile); null: opened at {@link #awaitStop}. */
    private final StdioDoor door;
    private final PrintWriter err;
    private final Supplier<String> stopReason;
    private final BooleanSupplier processStopping;
    private final CountDownLatch stopping = new CountDownLatch(1);
    /** The callers' calls in flight: the warm-up and the audit log's history check give way to them. */
    private final CallsInFlight inFlight = new CallsInFlight();
    /** Counted down when the warm-up has ended (or failed). */
    private final CountDownLatch warmed = new CountDownLatch(1);
    /**
     * The history check gives way to calls for 5 s in all, then runs at full speed: under a constant load it would
     * otherwise crawl, holding its read snapshot (and the audit WAL's growth) for minutes on a large log.
     */
    private final Runnable historyGivesWay = inFlight.givingWayFor(Duration.ofSeconds(5));
    private final AtomicBoolean saidStopped = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    /** Held while closing, by the serving thread (finish) or by a signal's hook (stopNow): never both at once. */
    private final ReentrantLock closing = new ReentrantLock();
    /** stdin ended: the serving thread is closing, and a signal arriving now waits for it. */
    private volatile boolean stdinEnded;
    private final List<String> closingSteps = new CopyOnWriteArrayList<>();
    private final Observability observability = new Observability();

    private AuditLog audit;
    private long rowsBefore;
    private Thread warm;
    private ToolRegistry tools;
    /** The catalog the tools answer from, which prompt-argument completions read too (over stdio, at awaitStop). */
    private CatalogProvider catalogs = Optional::empty;
    private HttpService service;
    private String rowsAtClose = "";
    /** How the serve ended, for the last line. */
    private String stopped;

    /**
     * @param executors       one per source, closed last; none without --source
     * @param stdin           the client's frames (stdio)
     * @param frames          where answers go (stdio); nothing else may write there
     * @param err             the log: stopping and stopped lines
     * @param stopReason      the signal stopping the process, as SIGTERM / SIGINT, for the stopping lines
     * @param processStopping whether a signal is being handled: a warm-up failing under it says nothing
     */
    public ServeLifecycle(ServeSettings settings, SourceExecutors executors, InputStream stdin,
                          PrintStream frames, PrintWriter err, Supplier<String> stopReason,
                          BooleanSupplier processStopping) {
        this(settings, executors, stdin, frames, null, err, stopReason, processStopping);
    }

    /** Over stdio, through {@code door}: opened at the process's start, it has answered initialize meanwhile. */
    public ServeLifecycle(ServeSettings settings, SourceExecutors executors, StdioDoor door, PrintWriter err,
                          Supplier<String> stopReason, BooleanSupplier processStopping) {
        this(settings, executors, null, null, door, err, stopReason, processStopping);
    }

    private ServeLifecycle(ServeSettings settings, SourceExecutors executors, InputStream stdin, PrintStream frames,
                           StdioDoor door, PrintWriter err, Supplier<String> stopReason, BooleanSupplier processStopping) {
        this.settings = settings;
        this.executors = executors;
        this.stdin = stdin;
        this.frames = frames;
        this.door = door;
        this.err = err;
        this.stopReason = stopReason;
        this.processStopping = processStopping;
    }

    /** Opens the audit log, starts the warm-up and, over HTTP, the listener; refuses before anything is served. */
    public void start() throws SchemaBrainException, CannotListen {
        CatalogProvider catalogs = settings.hasStore()
                ? new StoreCatalogProvider(settings.store(), settings.blockList()) : Optional::empty;
        this.catalogs = catalogs;
        ExampleQueries examples = ExampleQueries.in(settings.store());
        if (settings.hasStore()) {
            audit = AuditLog.open(settings.store(), settings.auditKey().get(), settings.witness(), settings.auditFsync(),
                    this::paceHistoryCheck);
            rowsBefore = audit.head().count();
        }
        ToolRegistry all = settings.tools().select(StandardTools.registry(catalogs, executors, settings.minGroupSize(),
                examples));
        // After the audit log opens: a start refused there must leave no thread reading the store behind it.
        startWarmUp(catalogs, all);
        AuditedCalls audited = audit == null ? null : new AuditedCalls(audit, settings.auditKey().get(),
                executors.only().map(QueryExecutor::sourceId).orElse(null));
        if (settings.http().isEmpty()) {
            tools = (audited == null ? all : all.audited(audited)).counted(inFlight);
            return;
        }
        tools = (audited == null ? all : all.audited(observability.timed(audited))).counted(inFlight);
        // The console previews drafts with get_metric whatever --tools serves to agents, into the same chain.
        Optional<HttpService.Beside> beside = audited == null ? Optional.empty() : settings.beside().map(app -> app.build(audit,
                over -> StandardTools.registry(over, executors, settings.minGroupSize(), examples).audited(audited)
                        .counted(inFlight), catalogs));
        try {
            // A reload makes a new catalog object: its identity is the version tools/list is cached under.
            service = HttpService.start(core(), settings.http().get(), observability,
                    // Without waiting: tools/list does not read the catalog, and is answered while the first one loads.
                    () -> catalogs.currentWithoutWaiting().map(c -> Integer.toHexString(System.identityHashCode(c)))
                            .orElse("none"),
                    settings.accessPolicy(), beside);
        } catch (Exception e) {
            throw new CannotListen(e);
        }
    }

    // Load the catalog while the client initializes, so the first tool call does not pay for it; then the SQL
    // parser (100 ms on a first execute), the embedding model and search index (a first search waits for them), the
    // first calls of the other tools (warmFirstCalls; with the source session opened ahead on its own thread), and
    // the search path's JIT last (see warm). An agent's first call is most often a search: waiting a second before
    // the model (as before) kept a first describe_table 20 ms faster and made a first find_relevant_tables pay the
    // whole load. When it ends, the audit log's history check may start (paceHistoryCheck).
    private void startWarmUp(CatalogProvider catalogs, ToolRegistry unaudited) {
        warm = new Thread(() -> {
            try {
                catalogs.current().ifPresent(c -> warm(c, unaudited));
            } catch (CatalogProvider.StillLoading e) {
                // A caller's call is loading it: the warm-up has nothing to add.
            } finally {
                warmed.countDown();
            }
        }, "schemabrain-warm");
        warm.setDaemon(true);
        warm.start();
        // Its own thread: a source slow to answer must not hold up the search index.
        executors.all().forEach(e -> {
            Thread connect = new Thread(() -> openIdleSession(e), "schemabrain-connect");
            connect.setDaemon(true);
            connect.start();
        });
    }

    private void warm(ServedCatalog c, ToolRegistry unaudited) {
        try {
            SqlGuard.check("SELECT 1", Engines.SQLITE.sqlRules().orElseThrow(),
                    c.catalog());
            if (stopping.getCount() > 0) {   // not when a stop came during the catalog load
                // The other tools' first calls beside the model's load: an agent's calls after its first search are
                // describe, relate, list and compute. Warmed after the load, they ran beside those calls and a
                // session's third and fourth call (suggest_joins, list_metrics) took 40-70 ms; before it, on the same
                // thread, they delayed a first search by their time. The model's load is mostly one native thread.
                Thread firstCalls = new Thread(() -> warmFirstCalls(c, unaudited), "schemabrain-warm-calls");
                firstCalls.setDaemon(true);
                firstCalls.start();
                HybridRetriever retriever = c.retriever();   // the model: an agent's first call is most often a search
                try {
                    firstCalls.join();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                // Each step gives way to the callers' calls in flight: on two cores a warm-up search beside a
                // session's first calls made each 25-30 ms slower.
                retriever.warmUp(200, 1_000, inFlight::giveWay);
                inFlight.giveWay();
                c.metricSearch();   // the metrics' texts embedded before the first find_relevant_metrics
                warmCall(unaudited, "find_relevant_tables", Map.of("query", "warm up"));
                warmCall(unaudited, "find_relevant_metrics", Map.of("query", "warm up"));
            }
        } catch (RuntimeException e) {
            // A stop while warming closes the model under it: nothing to say then. Otherwise one line, no
            // trace: the first search loads what it needs itself.
            if (stopping.getCount() > 0 && !processStopping.getAsBoolean()
                    && !Thread.currentThread().isInterrupted()) {
                err.println("schemabrain: warming the search index failed (" + e.getMessage()
                        + "); the first search loads it instead.");
            }
        }
    }

    /**
     * The audit log's background history check waits for the warm-up (at most 10 s) and then gives way to the calls
     * in flight between its batches of rows, for 5 s in all: on two cores, checking an 18,000-row log beside the start
     * made the first answer about 300 ms later. A stop interrupts the wait, and the check with it.
     */
    private void paceHistoryCheck() {
        try {
            // A warm-up still running after 10 s (a slow source or model) does not hold the check back longer.
            warmed.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        historyGivesWay.run();
    }

    /**
     * What a session's first list_metrics, get_metric and execute would compute (dimensions, time axes, data subjects,
     * one compile, one gate check), and one call of each tool that reads only the store, on the registry without the
     * audit: these are not a caller's calls, and none reaches the source.
     */
    private void warmFirstCalls(ServedCatalog c, ToolRegistry unaudited) {
        inFlight.giveWay();
        try {
            Engine engine = executors.all().stream().findFirst().map(e -> (Engine) e.dialect()).orElse(Engines.POSTGRESQL);
            c.warmUp(engine);
            engine.sqlRules().ifPresent(rules -> c.warmStatement(engine).ifPresent(sql ->
                    new SqlGate(rules, ServedCatalog.WARM_GROUP_SIZE).check("execute", sql, c, Access.UNRESTRICTED, 10)));
            Envelope.warmUp();
        } catch (RuntimeException e) {
            // What failed here fails again at the call that needs it, with its reason.
        }
        c.catalog().tables().stream().findFirst().ifPresent(t -> {
            warmCall(unaudited, "describe_table", Map.of("qualified_name", t.name().toString()));
            warmCall(unaudited, "suggest_joins", Map.of("tables", List.of(t.name().toString())));
        });
        warmCall(unaudited, "list_metrics", Map.of("limit", 5));
        c.semantic().entities().stream().findFirst()
                .ifPresent(e -> warmCall(unaudited, "describe_entity", Map.of("name", e.name())));
    }

    /** One call to warm a tool's path, after the callers' calls in flight; a tool not served, or any failure, is skipped. */
    private void warmCall(ToolRegistry tools, String tool, Map<String, Object> arguments) {
        inFlight.giveWay();
        if (tools.names().contains(tool)) {
            try {
                tools.call(tool, arguments);
            } catch (RuntimeException e) {
                // The caller's first call meets the same failure and says it.
            }
        }
    }

    /**
     * A first query's connection opened ahead. A source that cannot be reached (a wrong password, a host down) is said
     * on the log at once, and again by the first call that needs it; serve keeps serving the catalog.
     */
    private void openIdleSession(QueryExecutor executor) {
        try {
            executor.openIdleSession();
        } catch (ExecutionException e) {
            synchronized (err) {
                err.println("schemabrain: warning: cannot reach " + executor.displayUrl() + " (" + e.getMessage()
                        + "); get_metric and execute on its tables fail until it answers. Check its URL and password with"
                        + " 'schemabrain doctor', or start serve with --check-sources to refuse to start instead.");
                err.flush();
            }
        }
    }

    /** The stdio caller's reach under the policy in force now; unrestricted without a policy. */
    private Access stdioAccess() {
        return settings.accessPolicy().map(p -> p.resolve(settings.stdioCaller())).orElse(Access.UNRESTRICTED);
    }

    /** The HTTP listener's port; empty over stdio. */
    public OptionalInt port() {
        return service == null ? OptionalInt.empty() : OptionalInt.of(service.port());
    }

    /** The separate metrics listener's port, when there is one. */
    public OptionalInt metricsPort() {
        return service == null ? OptionalInt.empty() : service.metricsPort();
    }

    /** {@link #awaitStop()}, then {@link #finish()}. */
    public void run() throws InterruptedException {
        awaitStop();
        finish();
    }

    /** Serves until stdin ends (stdio) or {@link #stopNow()} closes the listener (HTTP). */
    public void awaitStop() throws InterruptedException {
        if (service != null) {
            try {
                service.join();
            } finally {
                service.close();
                closingSteps.add("stopped accepting");
            }
            Map<String, Object> totals = observability.summary();
            stopped = totals.get("total_requests") + " requests (" + totals.get("total_errors") + " errors)";
        } else {
            McpCore core = core();
            StdioServer.run(core, settings.statsInterval(), this::stdioAccess,
                    door != null ? door : StdioDoor.open(stdin, frames, core.handshake()));
            stdinEnded = true;
            closingSteps.add("stopped accepting");
            stopped = "stdin closed";
        }
    }

    /** After {@link #awaitStop()}: closes everything, then says the last line with the audit rows written. */
    public void finish() throws InterruptedException {
        closing.lock();
        try {
            close();
            sayStopped(stopped + rowsAtClose);
        } finally {
            closing.unlock();
        }
    }

    /**
     * What a stopping signal does (from the caller's shutdown hook). Over stdio the serving thread never
     * returns, so the rows of the calls answered last are made durable and witnessed here and the last line
     * said; over HTTP the listener stops, in-flight requests get their grace, and {@link #run()} closes.
     */
    public void stopNow() {
        String signal = stopReason.get();
        if (service != null) {
            say("schemabrain: stopping (" + signal + "): " + observability.summary().get("in_flight")
                    + " requests in flight get up to 5 s to finish, then the audit log closes");
            service.close();
            return;
        }
        if (saidStopped.get()) {
            return;   // the serving thread has closed and said the last line (or the JVM is ending normally)
        }
        // The client closes stdin as it signals: the serving thread may be closing already, and holds the lock.
        say("schemabrain: stopping (" + signal + ")" + (stdinEnded ? " while closing: stdin had closed too"
                : audit == null ? "" : ": settling the audit log"));
        try {
            if (!closing.tryLock(10, TimeUnit.SECONDS)) {
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        try {
            if (!closed.get()) {
                if (audit != null) {
                    audit.settle();
                }
                sayStopped(signal + rowsWritten());
            }
        } finally {
            closing.unlock();
        }
    }

    /** The closing steps taken so far, in order. */
    public List<String> closingSteps() {
        return List.copyOf(closingSteps);
    }

    /** Closes in order; no last line (a serve that failed to start says why instead). Idempotent. */
    @Override
    public void close() throws InterruptedException {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            // No native inference may run while the JVM shuts down (onnxruntime crashed there, leaving an
            // hs_err file with the command line): wait for the warm-up, then for calls still embedding.
            stopping.countDown();
            if (warm != null) {
                warm.join();
            }
            closingSteps.add("warm-up ended");
            Embedders.closeShared();
            closingSteps.add("embedder closed");
            rowsAtClose = rowsWritten();
            if (audit != null) {
                audit.close();
                closingSteps.add("audit log closed");
            }
        } finally {
            executors.close();
            closingSteps.add("executor closed");
        }
    }

    /** The MCP server's parts, the same for either transport. */
    private McpCore core() {
        return McpCore.of(tools, capacity(), settings.rates(), settings.listing(), catalogs, settings.version());
    }

    private DispatchCapacity capacity() {
        return DispatchCapacity.forMaxConcurrentQueries(settings.maxConcurrentQueries());
    }

    /** Said once: over stdio, a signal's hook and the end of stdin (the client closing it) can both get here. */
    private void sayStopped(String how) {
        if (saidStopped.compareAndSet(false, true)) {
            say("schemabrain: stopped after " + how + ".");
        }
    }

    private void say(String line) {
        err.println(line);
        err.flush();
    }

    /** ", N audit rows written" since start, for the last line; empty without a log or its head. */
    private String rowsWritten() {
        try {
            return audit == null ? "" : ", " + (audit.head().count() - rowsBefore) + " audit rows written";
        } catch (SchemaBrainException e) {
            return "";
        }
    }
}
