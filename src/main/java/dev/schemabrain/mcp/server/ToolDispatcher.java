package dev.schemabrain.mcp.server;

import dev.schemabrain.access.Access;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.mcp.tool.Tool;
import dev.schemabrain.mcp.tool.ToolRegistry;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Where each tools/call runs. The SDK would run every synchronous tool on Reactor's shared
 * boundedElastic pool (10 threads per core), where get_metric calls waiting for a database slot held
 * the threads a describe_table needed. Here each kind of tool has its own lane:
 * <ul>
 *   <li>catalog tools (answered from the store) on their own threads;</li>
 *   <li>source tools (get_metric) on as many threads as the executor has slots, with a bounded queue:
 *       past it a call is answered source_busy at once; before that, a caller over its rate is refused;</li>
 *   <li>those two answers go back at once and are recorded in the audit log right after, on a thread of
 *       their own, after any catalog call in flight ({@link CatalogFirst}).</li>
 * </ul>
 * {@link #dispatch} never blocks the caller (the SDK's stdin reader) except as backpressure when a lane's
 * queue is full. Answers come back in no particular order, which MCP allows.
 */
public final class ToolDispatcher implements AutoCloseable {

    /** How long recording one turned-away call waits for catalog calls to finish first. */
    private static final long CATALOG_FIRST_MAX_WAIT_MS = 50;

    private final ToolRegistry registry;
    private final DispatchCapacity capacity;
    private final CallerRateLimiter rateLimiter;
    private final CallerRateLimiter catalogLimiter;
    private final ThreadPoolExecutor catalogLane;
    private final ThreadPoolExecutor sourceLane;
    private final ThreadPoolExecutor turnedAwayLane;
    private final CatalogFirst catalogFirst = new CatalogFirst();
    /** One limiter per role metric_rate in use (by its text), each with a bucket per caller. */
    private final Map<String, CallerRateLimiter> roleLimiters = new ConcurrentHashMap<>();

    public ToolDispatcher(ToolRegistry registry, DispatchCapacity capacity, CallerRates rates) {
        this(registry, capacity, new CallerRateLimiter(rates.metric()), new CallerRateLimiter(rates.catalog()));
    }

    ToolDispatcher(ToolRegistry registry, DispatchCapacity capacity, CallerRateLimiter rateLimiter,
                   CallerRateLimiter catalogLimiter) {
        this.registry = registry;
        this.capacity = capacity;
        this.rateLimiter = rateLimiter;
        this.catalogLimiter = catalogLimiter;
        this.catalogLane = lane("schemabrain-catalog", capacity.catalogThreads(), capacity.catalogQueue(),
                new ThreadPoolExecutor.CallerRunsPolicy());
        this.sourceLane = lane("schemabrain-source", capacity.sourceThreads(), capacity.sourceQueue(),
                new ThreadPoolExecutor.AbortPolicy());
        this.turnedAwayLane = lane("schemabrain-turned-away", 1, DispatchCapacity.CATALOG_QUEUE,
                new ThreadPoolExecutor.CallerRunsPolicy());
    }

    public DispatchCapacity capacity() {
        return capacity;
    }

    /**
     * Runs {@code tool} on its lane and completes with its envelope. Every call is recorded by the
     * registry's audit: before its answer, or for a turned-away call (no data in it) right after.
     *
     * The caller's reach is what the access policy allows; a role with a metric_rate has that rate for
     * get_metric instead of the server's.
     *
     * @param caller the client's name and version, or null
     */
    public CompletableFuture<Envelope> dispatch(String tool, Map<String, Object> arguments, String caller, Access access) {
        boolean touchesSource = registry.tool(tool).map(Tool::spec).map(s -> s.touchesSource()).orElse(false);
        Supplier<Envelope> run = () -> registry.call(tool, arguments, caller, access);
        if (!touchesSource) {
            CallerRateLimiter.Decision decision = catalogLimiter.tryAcquire(caller);
            if (!decision.allowed()) {
                return turnAway(tool, arguments, caller, access,
                        TurnedAway.overRate(tool, arguments, catalogLimiter.limit(), decision.retryAfterMillis(), List.of(tool)));
            }
            catalogFirst.enter();
            try {
                return CompletableFuture.supplyAsync(run, catalogLane).whenComplete((answer, failure) -> catalogFirst.exit());
            } catch (RuntimeException notRun) {
                catalogFirst.exit();
                throw notRun;
            }
        }
        CallerRateLimiter metric = metricLimiter(access);
        CallerRateLimiter.Decision decision = metric.tryAcquire(caller);
        if (!decision.allowed()) {
            return turnAway(tool, arguments, caller, access,
                    TurnedAway.overRate(tool, arguments, metric.limit(), decision.retryAfterMillis(), hints(tool)));
        }
        try {
            return CompletableFuture.supplyAsync(run, sourceLane);
        } catch (RejectedExecutionException full) {
            return turnAway(tool, arguments, caller, access, TurnedAway.sourceBusy(tool, arguments, capacity, hints(tool)));
        }
    }

    /**
     * Answers at once and records the call right after, in order, on the turned-away thread. These
     * answers carry nothing from the store or the source, so they are not held for their row: held, a
     * flood turned away would be answered at the audit log's fsync rate, and the describe_table sent after
     * it would wait behind the whole flood.
     */
    private CompletableFuture<Envelope> turnAway(String tool, Map<String, Object> arguments, String caller, Access access,
                                                 Envelope answer) {
        turnedAwayLane.execute(() -> {
            catalogFirst.awaitQuiet(CATALOG_FIRST_MAX_WAIT_MS);
            registry.recorder().turnedAway(tool, arguments, caller, access, answer);
        });
        return CompletableFuture.completedFuture(answer);
    }

    /**
     * The server's metric limiter, or the role's when it sets metric_rate (checked when the policy was read),
     * with the server's burst (one call when the server's limit is off).
     */
    private CallerRateLimiter metricLimiter(Access access) {
        return access.metricRate().map(rate -> roleLimiters.computeIfAbsent(rate, r -> new CallerRateLimiter(
                RateLimit.parse(r, rateLimiter.limit().isOff() ? 1 : rateLimiter.limit().burst())))).orElse(rateLimiter);
    }

    /** Tools that answer at once while the source is busy, where the server has them. */
    private List<String> hints(String tool) {
        List<String> known = List.of("list_metrics", "describe_entity").stream().filter(n -> registry.tool(n).isPresent()).toList();
        return known.isEmpty() ? List.of(tool) : known;
    }

    /** Lets running and queued calls finish for a moment, then stops the lanes. */
    @Override
    public void close() {
        for (ThreadPoolExecutor lane : List.of(sourceLane, catalogLane, turnedAwayLane)) {
            lane.shutdown();
        }
        try {
            for (ThreadPoolExecutor lane : List.of(sourceLane, catalogLane, turnedAwayLane)) {
                if (!lane.awaitTermination(5, TimeUnit.SECONDS)) {
                    lane.shutdownNow();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static ThreadPoolExecutor lane(String name, int threads, int queue, RejectedExecutionHandler whenFull) {
        AtomicInteger n = new AtomicInteger();
        ThreadFactory factory = r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
        return new ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS,
                queue == 0 ? new SynchronousQueue<>() : new ArrayBlockingQueue<>(queue), factory, whenFull);
    }
}
