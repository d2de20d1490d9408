package dev.schemabrain.mcp.transport.http;

import dev.schemabrain.execute.SourceExecutors;
import dev.schemabrain.mcp.server.McpCore;
import dev.schemabrain.audit.AuditKey;
import dev.schemabrain.audit.AuditLog;
import dev.schemabrain.audit.AuditRecord;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.execute.ExecutorSettings;
import dev.schemabrain.execute.QueryExecutor;
import dev.schemabrain.mcp.server.AuditedCalls;
import dev.schemabrain.mcp.server.DispatchCapacity;
import dev.schemabrain.mcp.server.CallerRates;
import dev.schemabrain.mcp.server.RateLimit;
import dev.schemabrain.mcp.server.ToolListing;
import dev.schemabrain.mcp.tool.CallAudit;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.mcp.tools.ExampleQueries;
import dev.schemabrain.mcp.tools.StandardTools;
import dev.schemabrain.mcp.tools.ToolGroups;
import dev.schemabrain.served.StoreCatalogProvider;
import dev.schemabrain.testing.InProcessCli;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The demo store (built once per test JVM) served over HTTP in this JVM, with the same registry, audit
 * and dispatcher as {@code serve --transport http}, on a free loopback port. Public for the probe and sweep
 * tests, which measure this server.
 */
public final class HttpFixture implements AutoCloseable {

    private static Path demoStore;
    private static Path pristineDemoStore;
    private static Path demoDatabase;

    final HttpService service;
    final AuditLog audit;
    public final ToolRegistry registry;
    private final QueryExecutor executor;

    private HttpFixture(HttpService service, AuditLog audit, ToolRegistry registry, QueryExecutor executor) {
        this.service = service;
        this.audit = audit;
        this.registry = registry;
        this.executor = executor;
    }

    /** The demo store, indexed once; the same file for every instance (as several servers share one store). */
    static synchronized Path demoStore() throws Exception {
        if (demoStore == null) {
            Path dir = Files.createTempDirectory("schemabrain-http-test");
            demoStore = dir.resolve("demo.db");
            demoDatabase = dir.resolve("demo.sqlite");
            InProcessCli.Result demo = InProcessCli.run("--store", demoStore.toString(), "demo", "--events", "none", "--database",
                    demoDatabase.toString());
            if (demo.exitCode() != 0) {
                throw new IllegalStateException("demo failed: " + demo.stderr());
            }
            pristineDemoStore = Files.copy(demoStore, dir.resolve("demo-pristine.db"));
        }
        return demoStore;
    }

    /**
     * The demo store as indexed, before any fixture audited into it: a test that copies a store for a server of
     * its own starts from this one, because the shared store's audit rows are chained under the fixtures' zero key,
     * which the server's own key does not verify (and a copy taken mid-checkpoint is torn).
     */
    static synchronized Path pristineDemoStore() throws Exception {
        demoStore();
        return pristineDemoStore;
    }

    public static HttpFixture start(HttpOptions options) throws Exception {
        return start(options, true);
    }

    /** @param audited false only to measure the HTTP path without the audit log's fsync (benchmarks) */
    static HttpFixture start(HttpOptions options, boolean audited) throws Exception {
        return start(options, audited, RateLimit.OFF);
    }

    /** @param metricRate how many get_metric calls one caller may make ({@code --metric-rate-limit}) */
    static HttpFixture start(HttpOptions options, RateLimit metricRate) throws Exception {
        return start(options, true, CallerRates.metricOnly(metricRate));
    }

    /** @param rates the get_metric and catalog budgets one caller has ({@code --metric-rate-*}, {@code --catalog-rate-*}) */
    static HttpFixture start(HttpOptions options, CallerRates rates) throws Exception {
        return start(options, true, rates);
    }

    private static HttpFixture start(HttpOptions options, boolean audited, RateLimit metricRate) throws Exception {
        return start(options, audited, CallerRates.metricOnly(metricRate));
    }

    /** A server of only {@code groups}' tools, as {@code serve --tools} (or its default) gives. */
    public static HttpFixture start(HttpOptions options, ToolGroups groups) throws Exception {
        return start(options, true, CallerRates.OFF, groups);
    }

    private static HttpFixture start(HttpOptions options, boolean audited, CallerRates rates) throws Exception {
        return start(options, audited, rates, ToolGroups.ALL);
    }

    private static HttpFixture start(HttpOptions options, boolean audited, CallerRates rates,
                                     ToolGroups groups) throws Exception {
        Path store = demoStore();
        AuditKey key = AuditKey.of(new byte[AuditKey.MIN_BYTES]);
        AuditLog audit = AuditLog.open(store, key, Optional.empty());
        QueryExecutor executor = new QueryExecutor(SourceUrl.parse("sqlite:" + demoDatabase.toAbsolutePath()),
                new ExecutorSettings(30_000, 10_000, 8, 2_000, null));
        Observability observability = new Observability();
        ToolRegistry registry = groups.select(StandardTools.registry(new StoreCatalogProvider(store, Optional.empty()), SourceExecutors.of(Optional.of(executor)), 5, ExampleQueries.NONE)).audited(observability.timed(audited ? new AuditedCalls(audit, key, executor.sourceId())
                : CallAudit.NONE));
        HttpService service = HttpService.start(McpCore.of(registry, DispatchCapacity.forMaxConcurrentQueries(8), rates, ToolListing.FULL, Optional::empty,
                "test"), options, observability, () -> "static", Optional.empty(), Optional.empty());
        return new HttpFixture(service, audit, registry, executor);
    }

    /** The store this server reads and audits into. */
    Path store() {
        return demoStore;
    }

    public String url() {
        return "http://127.0.0.1:" + service.port();
    }

    /** The Java SDK's Streamable HTTP client, initialized, introducing itself as {@code clientName}/1.0. */
    static McpSyncClient client(String baseUrl, String clientName) {
        McpSyncClient client = McpClient.sync(HttpClientStreamableHttpTransport.builder(baseUrl).endpoint("/mcp").build())
                .requestTimeout(Duration.ofSeconds(30))
                .initializationTimeout(Duration.ofSeconds(30))
                .clientInfo(McpSchema.Implementation.builder(clientName, "1.0").build())
                .build();
        client.initialize();
        return client;
    }

    /** The newest audit rows, newest last. */
    List<AuditRecord> lastRows(int n) throws Exception {
        return audit.list(n, OptionalLong.empty());
    }

    @Override
    public void close() {
        service.close();
        audit.close();
        executor.close();
    }
}
