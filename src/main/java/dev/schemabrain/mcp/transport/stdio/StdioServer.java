package dev.schemabrain.mcp.transport.stdio;

import dev.schemabrain.mcp.server.CallGate;
import dev.schemabrain.mcp.server.CallerRates;
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
import io.modelcontextprotocol.server.McpServerFeatures;
import dev.schemabrain.mcp.server.ToolDispatcher;
import dev.schemabrain.mcp.server.ToolListCache;
import dev.schemabrain.mcp.server.ToolListing;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemabrain.access.Access;
import dev.schemabrain.mcp.tool.ToolRegistry;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpAsyncServer;
import io.modelcontextprotocol.spec.McpSchema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

import java.io.InputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The MCP server over stdio: stdout carries nothing but frames (every other write is sent to
 * stderr while it runs), stdin goes through {@link StdinGuard}, and {@link #run} returns when stdin
 * closes.
 */
public final class StdioServer {

    /** The SDK's own line limit; a longer line is answered with an error and skipped. */
    static final int MAX_LINE_BYTES = 16 * 1024 * 1024;
    /** The tool definitions are the same for every catalog the session serves. */
    private static final String TOOLS_VERSION = "static";
    private static final Duration ANSWER_GRACE = Duration.ofSeconds(30);

    static {
        // The stats line is asked for (--stats-interval): shown where the CLI quiets other loggers to warn.
        System.setProperty("org.slf4j.simpleLogger.log.dev.schemabrain.mcp.server.stats", "info");
    }

    private static final Logger STATS = LoggerFactory.getLogger("dev.schemabrain.mcp.server.stats");

    /**
     * The caller of every call over stdio, for its audit row and its metric rate: the one who launched the
     * process. Not the client's initialize name, which is the client's own word.
     */
    public static final String CALLER = "stdio";

    private StdioServer() {
    }

    /** Serves {@code core} over stdin and stdout until stdin ends: {@link #run(McpCore, Duration, Supplier, StdioDoor)}. */
    public static void run(McpCore core, Duration statsInterval, Supplier<Access> access, InputStream stdin,
                           PrintStream stdout) throws InterruptedException {
        run(core, statsInterval, access, StdioDoor.open(stdin, stdout, core.handshake()));
    }

    /**
     * Serves {@code core} through {@code door}, opened earlier (it answers initialize until the server is built),
     * until stdin ends.
     *
     * @param statsInterval how often the tools/list stats line goes to the log (stderr); zero: never
     * @param access        the reach of the one caller over stdio (serve --role/--claim under --access-policy), asked
     *                      once per call so a reloaded policy counts
     */
    public static void run(McpCore core, Duration statsInterval, Supplier<Access> access, StdioDoor door)
            throws InterruptedException {
        McpJsonMapper json = core.json();
        // The definitions do not read the catalog, so one version key serves the whole session.
        ToolListCache toolList = core.toolList();
        ScheduledExecutorService stats = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "schemabrain-stats");
            t.setDaemon(true);
            return t;
        });
        if (statsInterval.toMillis() > 0) {
            long every = statsInterval.toMillis();
            stats.scheduleAtFixedRate(new ChangedLine(() -> toolList.stats().line(), STATS::info), every, every,
                    TimeUnit.MILLISECONDS);
        }
        StdioSessionTransport transport = new StdioSessionTransport(json, door.stdout());
        ToolRegistry registry = core.registry();
        ToolDispatcher dispatcher = core.dispatcher();
        Supplier<byte[]> listed = () -> toolList.bytes(TOOLS_VERSION);
        CallGate gate = core.callGate(listed, Optional.of(access));
        Prompts prompts = core.prompts();
        Completions completions = core.completions();
        ModernEra modern = core.modernEra(gate, listed, () -> TOOLS_VERSION);
        StdinGuard guard = door.guard();
        // The asynchronous server: tool calls run on the dispatcher's lanes, not on the SDK's shared pool,
        // and each answer is written by the lane that produced it.
        McpAsyncServer server = McpServer.async(transport)
                .serverInfo(core.handshake().serverInfo())
                .instructions(core.instructions())
                .capabilities(core.capabilities())
                .jsonMapper(json)
                .prompts(prompts.definitions().stream().map(p -> new McpServerFeatures.AsyncPromptSpecification(p,
                        (exchange, request) -> prompts.answer(request))).toList())
                .completions(completions.promptNames().stream().map(name -> new McpServerFeatures.AsyncCompletionSpecification(
                        new McpSchema.PromptReference(name), (exchange, request) -> completions.answer(request, access.get())))
                        .toList())
                // Arguments are validated by the registry, which answers with an envelope the model can act on.
                .validateToolInputs(false)
                .jsonSchemaValidator(new EnvelopeOutputCheck())
                .tools(StdioTools.specifications(registry, dispatcher, core.listing(), access))
                .build();
        guard.ready(new StdinGuard.Parts(transport, gate, modern, StdioTools.modern(dispatcher, access), access));
        try {
            guard.awaitEnd();
            if (!guard.awaitModernAnswered(ANSWER_GRACE)) {
                LoggerFactory.getLogger(StdioServer.class).warn("calls still running {} s after stdin closed; stopping"
                        + " anyway", ANSWER_GRACE.toSeconds());
            }
            // End of input is not the end of the calls already read: each still gets its answer. Without
            // notifications/initialized the SDK holds requests for good, so there is nothing to wait for.
            Logger log = LoggerFactory.getLogger(StdioServer.class);
            if (!guard.sessionStarted()) {
                if (!transport.awaitAnswered(Duration.ZERO)) {
                    log.warn("stdin closed before the client sent notifications/initialized; the requests held for it"
                            + " were not answered");
                }
            } else if (!transport.awaitAnswered(ANSWER_GRACE)) {
                log.warn("calls still running {} s after stdin closed; stopping anyway", ANSWER_GRACE.toSeconds());
            }
            server.closeGracefully().onErrorResume(e -> Mono.empty()).block(Duration.ofSeconds(10));
        } catch (IllegalStateException timedOut) {
            LoggerFactory.getLogger(StdioServer.class).warn("the MCP session did not close within 10 s; stopping anyway");
        } finally {
            stats.shutdownNow();
            core.close();
        }
    }
}
