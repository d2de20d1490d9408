package dev.schemabrain.mcp.transport.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemabrain.auth.AuthFilter;
import dev.schemabrain.mcp.server.ChangedLine;
import dev.schemabrain.mcp.server.DispatchCapacity;
import dev.schemabrain.mcp.server.EnvelopeOutputCheck;
import dev.schemabrain.mcp.server.Instructions;
import dev.schemabrain.mcp.server.McpToolAdapter;
import dev.schemabrain.mcp.server.ModernEra;
import dev.schemabrain.mcp.server.Completions;
import dev.schemabrain.mcp.server.McpCore;
import dev.schemabrain.served.CatalogProvider;
import dev.schemabrain.mcp.server.Prompts;
import io.modelcontextprotocol.server.McpStatelessServerFeatures;
import dev.schemabrain.mcp.server.ToolListCache;
import dev.schemabrain.mcp.server.ToolListing;
import dev.schemabrain.mcp.server.CallGate;
import dev.schemabrain.access.AccessPolicySource;
import dev.schemabrain.mcp.server.CallerRates;
import dev.schemabrain.mcp.server.ToolDispatcher;
import dev.schemabrain.mcp.tool.ToolRegistry;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpStatelessAsyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStatelessServerTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.ProtocolVersions;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ContextHandlerCollection;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Predicate;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * {@code serve --transport http}: MCP Streamable HTTP on /mcp through the SDK's stateless
 * servlet transport in embedded Jetty, plus /health and /metrics. Stateless, so any number of instances
 * on one store can sit behind a round-robin balancer: nothing of a client is kept between requests (the
 * session id it is given only carries its initialize name back).
 */
public final class HttpService implements AutoCloseable {

    /** The request attribute an authentication filter sets to the caller's name (a token name, a JWT sub). */
    public static final String CALLER_ATTRIBUTE = "dev.schemabrain.caller";
    static final String MCP_PATH = "/mcp";
    static final String HEALTH_PATH = "/health";
    static final String METRICS_PATH = "/metrics";
    /** The connectors' names: contexts are bound to one listener each by them. */
    private static final String MAIN = "main";
    private static final String METRICS = "metrics";
    /** The newest protocol the SDK negotiates; it accepts 2025-06-18 and 2025-03-26 too. */
    static final String PROTOCOL_VERSION = ProtocolVersions.MCP_2025_11_25;
    /** A connection with no bytes either way for this long is closed (docs/http.md, Robustness). */
    static final Duration IDLE_TIMEOUT = Duration.ofSeconds(30);
    /** A request body arriving slower than this is refused 408 (slowloris); a real client sends it at once. */
    static final long MIN_REQUEST_BYTES_PER_S = 1024;

    static {
        // The request log and the stats line are the service's output: shown even where the CLI quiets
        // every other logger to warn (set before this package's loggers are created).
        System.setProperty("org.slf4j.simpleLogger.log.dev.schemabrain.mcp.transport.http", "info");
    }

    private static final Logger LOG = LoggerFactory.getLogger(HttpService.class);

    private final Server jetty;
    private final McpStatelessAsyncServer mcp;
    private final ToolDispatcher dispatcher;
    private final ScheduledExecutorService stats;
    private final Observability observability;

    private HttpService(Server jetty, McpStatelessAsyncServer mcp, ToolDispatcher dispatcher, ScheduledExecutorService stats,
                        Observability observability) {
        this.jetty = jetty;
        this.mcp = mcp;
        this.dispatcher = dispatcher;
        this.stats = stats;
        this.observability = observability;
    }

    /**
     * Another web application served under a path prefix of the same listener (the reviewer's console): behind the
     * same Host/Origin check as /mcp, but not behind /mcp's authentication filter, since it signs its users in itself.
     *
     * @param prefix where it is mounted, starting and ending with '/', such as {@code /console/}
     */
    public record Beside(String prefix, HttpServlet servlet) {
        public Beside {
            if (!prefix.startsWith("/") || !prefix.endsWith("/") || prefix.length() < 3 || prefix.startsWith(MCP_PATH + "/")) {
                throw new IllegalArgumentException("a prefix is /name/, apart from /mcp");
            }
        }
    }

    /**
     * Serves {@code core} over HTTP at /mcp, with /health and /metrics beside it; returns once the port is bound.
     * The core's tools are audited (wrap the audit in {@link Observability#timed} for its p99).
     *
     * @param catalogVersion the served catalog's version: tools/list is cached under it
     * @param policy         the access policy (serve --access-policy): each call reaches what its credential's role allows
     * @param beside         another application on this listener under its own prefix (serve --console)
     */
    public static HttpService start(McpCore core, HttpOptions options, Observability observability,
                                    Supplier<String> catalogVersion, Optional<AccessPolicySource> policy,
                                    Optional<Beside> beside) throws Exception {
        ToolRegistry registry = core.registry();
        String version = core.version();
        McpJsonMapper json = core.json();
        Prompts prompts = core.prompts();
        Completions completions = core.completions();
        ToolListCache toolList = core.toolList();
        observability.watch(toolList);
        ToolDispatcher dispatcher = core.dispatcher();
        HttpServletStatelessServerTransport transport = HttpServletStatelessServerTransport.builder()
                .jsonMapper(json)
                .messageEndpoint(MCP_PATH)
                .maxRequestSize(options.maxRequestBytes())
                .contextExtractor(HttpService::context)
                .build();
        McpStatelessAsyncServer mcp = McpServer.async(transport)
                .serverInfo(core.handshake().serverInfo())
                .instructions(core.instructions())
                .capabilities(core.capabilities())
                .jsonMapper(json)
                .prompts(prompts.definitions().stream().map(p -> new McpStatelessServerFeatures.AsyncPromptSpecification(p,
                        (context, request) -> prompts.answer(request))).toList())
                .completions(completions.promptNames().stream().map(name -> new McpStatelessServerFeatures.AsyncCompletionSpecification(
                        new McpSchema.PromptReference(name),
                        (context, request) -> completions.answer(request, RequestScope.of(context).access(policy)))).toList())
                // Arguments are validated by the registry, which answers with an envelope the model can act on.
                .validateToolInputs(false)
                .jsonSchemaValidator(new EnvelopeOutputCheck())
                .tools(StatelessTools.specifications(registry, dispatcher, observability, policy))
                .build();

        QueuedThreadPool threads = new QueuedThreadPool(256, 8);
        threads.setName("schemabrain-http");
        // After a burst the pool shrinks back within seconds, not one thread a minute (Jetty's default).
        threads.setIdleTimeout(5_000);
        threads.setMaxEvictCount(32);
        Server jetty = new Server(threads);
        // Slow clients cost a connection, never a thread for long: a body trickled slower than
        // MIN_REQUEST_BYTES_PER_S is cut (408), and a connection silent for IDLE_TIMEOUT is closed.
        HttpConfiguration http = new HttpConfiguration();
        minimumDataRate(http);
        jetty.addConnector(connector(jetty, http, MAIN, options.host(), options.port()));
        ServletContextHandler context = new ServletContextHandler();
        context.setContextPath("/");
        context.setVirtualHosts(List.of("@" + MAIN));
        EnumSet<DispatcherType> requests = EnumSet.of(DispatcherType.REQUEST);
        context.addFilter(new FilterHolder(new ObservedRequests(observability, registry)), "/*", requests);
        // Every path, not only /mcp: a rebound page must not read /health's or /metrics' figures either.
        context.addFilter(new FilterHolder(new HostCheck(options.allowedOrigins(), HttpOptions.isLoopback(options.host()))),
                "/*", requests);
        context.addFilter(new FilterHolder(new McpGate(options.maxRequestBytes(), info(version))), MCP_PATH, requests);
        boolean metricsApart = options.metricsListen().isPresent();
        options.authFilter().ifPresent(auth -> {
            context.addFilter(new FilterHolder(auth), MCP_PATH, requests);
            if (!metricsApart) {
                context.addFilter(new FilterHolder(auth), METRICS_PATH, requests);
            }
        });
        Supplier<byte[]> listed = () -> toolList.bytes(catalogVersion.get());
        CallGate callGate = core.callGate(listed, Optional.empty());
        ModernEra modern = core.modernEra(callGate, listed, catalogVersion);
        context.addFilter(new FilterHolder(new CallerGate(options.callerRate(), callGate, policy, modern,
                StatelessTools.modern(registry, dispatcher, observability, policy))), MCP_PATH, requests);
        context.addServlet(new ServletHolder(transport), MCP_PATH);
        beside.ifPresent(b -> context.addServlet(new ServletHolder(b.servlet()), b.prefix() + "*"));
        // RFC 9728: where a client that got 401 learns which authorization server to ask; it needs no credential.
        options.authFilter().filter(f -> f instanceof AuthFilter)
                .map(f -> ((AuthFilter) f).metadataServlet())
                .ifPresent(metadata -> AuthFilter.METADATA_PATHS
                        .forEach(path -> context.addServlet(new ServletHolder(metadata), path)));
        context.addServlet(new ServletHolder(new ObservabilityServlet(observability, false, figuresFor(options.authFilter()))),
                HEALTH_PATH);
        List<ServletContextHandler> contexts = new ArrayList<>(List.of(context));
        if (metricsApart) {
            InetSocketAddress at = options.metricsListen().get();
            jetty.addConnector(connector(jetty, http, METRICS, at.getHostString(), at.getPort()));
            contexts.add(metricsContext(observability, options.allowedOrigins(), HttpOptions.isLoopback(at.getHostString())));
        } else {
            context.addServlet(new ServletHolder(new ObservabilityServlet(observability, true, r -> true)), METRICS_PATH);
        }
        jetty.setHandler(new ContextHandlerCollection(contexts.toArray(new ServletContextHandler[0])));
        jetty.setStopTimeout(5_000);
        try {
            jetty.start();
        } catch (Exception e) {
            mcp.close();
            dispatcher.close();
            jetty.stop();
            throw e;
        }
        ScheduledExecutorService stats = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "schemabrain-stats");
            t.setDaemon(true);
            return t;
        });
        long every = options.statsInterval().toMillis();
        if (every > 0) {
            stats.scheduleAtFixedRate(new ChangedLine(observability::statsLine, LOG::info),
                    every, every, TimeUnit.MILLISECONDS);
        }
        return new HttpService(jetty, mcp, dispatcher, stats, observability);
    }

    /** The port actually bound (useful with port 0). */
    public int port() {
        return ((ServerConnector) jetty.getConnectors()[0]).getLocalPort();
    }

    /** The port of the separate metrics listener ({@code --metrics-listen}), if there is one. */
    public OptionalInt metricsPort() {
        for (var c : jetty.getConnectors()) {
            if (METRICS.equals(c.getName())) {
                return OptionalInt.of(((ServerConnector) c).getLocalPort());
            }
        }
        return OptionalInt.empty();
    }

    private static ServerConnector connector(Server jetty, HttpConfiguration http, String name, String host, int port) {
        ServerConnector connector = new ServerConnector(jetty, new HttpConnectionFactory(http));
        connector.setName(name);
        connector.setIdleTimeout(IDLE_TIMEOUT.toMillis());
        connector.setHost(host);
        connector.setPort(port);
        return connector;
    }

    /**
     * The operator's separate listener: /metrics and /health with their figures and no credential (it is
     * reachable only where the operator put it), behind the same Host/Origin check; no MCP there.
     */
    private static ServletContextHandler metricsContext(Observability observability, List<String> origins, boolean loopback) {
        ServletContextHandler metrics = new ServletContextHandler();
        metrics.setContextPath("/");
        metrics.setVirtualHosts(List.of("@" + METRICS));
        metrics.addFilter(new FilterHolder(new HostCheck(origins, loopback)), "/*", EnumSet.of(DispatcherType.REQUEST));
        metrics.addServlet(new ServletHolder(new ObservabilityServlet(observability, true, r -> true)), METRICS_PATH);
        metrics.addServlet(new ServletHolder(new ObservabilityServlet(observability, false, r -> true)), HEALTH_PATH);
        return metrics;
    }

    /**
     * Who sees /health's figures on the main listener: anyone when no authentication is configured (the
     * listener is then loopback only), else a request with a valid credential; the rest get liveness only.
     */
    private static Predicate<HttpServletRequest> figuresFor(Optional<Filter> auth) {
        if (auth.isEmpty()) {
            return r -> true;
        }
        if (auth.get() instanceof AuthFilter filter) {
            return r -> filter.identify(r).isPresent();
        }
        return r -> false;
    }

    public Observability observability() {
        return observability;
    }

    /** Blocks until the server stops (another thread called {@link #close}). */
    public void join() throws InterruptedException {
        jetty.join();
    }

    /** Stops accepting, lets requests in flight finish for up to 5 s, then stops the lanes. */
    @Override
    public void close() {
        stats.shutdownNow();
        try {
            jetty.stop();
        } catch (Exception e) {
            LOG.warn("stopping the HTTP server: {}", e.getMessage());
        }
        mcp.close();
        dispatcher.close();
    }

    /** The caller and the message's method travel to the tool handler in the SDK's transport context. */
    private static McpTransportContext context(HttpServletRequest request) {
        Object scope = request.getAttribute(CallerGate.SCOPE_ATTRIBUTE);
        return scope == null ? McpTransportContext.EMPTY : McpTransportContext.create(Map.of(RequestScope.CONTEXT_KEY, scope));
    }

    /** GET /mcp for a person or a probe: what answers here. */
    private static Map<String, Object> info(String version) {
        Map<String, Object> info = new LinkedHashMap<>();
        info.put("name", "schemabrain");
        info.put("version", version);
        info.put("protocolVersion", PROTOCOL_VERSION);
        info.put("message", "SchemaBrain MCP server (Streamable HTTP): POST JSON-RPC messages to this URL with Accept:"
                + " application/json, text/event-stream.");
        return info;
    }

    /** /health (JSON) or /metrics (Prometheus text): the same figures; /health's only to whom {@code figures} admits. */
    private static final class ObservabilityServlet extends HttpServlet {
        private final transient Observability observability;
        private final boolean prometheus;
        private final transient Predicate<HttpServletRequest> figures;

        ObservabilityServlet(Observability observability, boolean prometheus, Predicate<HttpServletRequest> figures) {
            this.observability = observability;
            this.prometheus = prometheus;
            this.figures = figures;
        }

        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
            if (prometheus) {
                Replies.text(response, "text/plain; version=0.0.4; charset=utf-8", observability.prometheus());
                return;
            }
            Map<String, Object> health = new LinkedHashMap<>();
            health.put("status", "ok");
            if (figures.test(request)) {
                health.put("observability", observability.summary());
            }
            Replies.json(response, HttpServletResponse.SC_OK, health);
        }
    }

    /**
     * The data-rate floor on the connection. Deprecated for removal in Jetty 12.1; its replacement,
     * MinimumDataRateHandler, cut none of HttpRobustnessIT's 80 trickling clients (it checks the rate only as the
     * application reads, and the servlet's blocking read waits below it), so the setter stays until Jetty removes it.
     */
    @SuppressWarnings("removal")
    private static void minimumDataRate(HttpConfiguration http) {
        http.setMinRequestDataRate(MIN_REQUEST_BYTES_PER_S);
    }

}
