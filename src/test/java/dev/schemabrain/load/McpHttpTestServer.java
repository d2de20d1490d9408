package dev.schemabrain.load;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemabrain.mcp.envelope.EnvelopeSchema;
import dev.schemabrain.mcp.server.DispatchCapacity;
import dev.schemabrain.mcp.server.McpToolAdapter;
import dev.schemabrain.mcp.server.RateLimit;
import dev.schemabrain.mcp.server.ToolDispatcher;
import dev.schemabrain.mcp.tool.Tool;
import dev.schemabrain.mcp.tool.ToolRegistry;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpStatelessServerFeatures;
import io.modelcontextprotocol.server.transport.HttpServletStatelessServerTransport;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import java.io.IOException;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A real MCP Streamable HTTP server for the probe and sweep tests: the SDK's servlet transport (stateful, which
 * answers calls as event streams and issues a session id; or stateless, which answers JSON) in embedded Jetty,
 * serving this project's tools through the same adapter and dispatcher stdio uses. Until `serve --transport
 * http` exists on this branch this stands in for it.
 */
final class McpHttpTestServer implements AutoCloseable {

    enum Mode { STREAMABLE, STATELESS, NOT_MCP }

    private final Server jetty;
    private final ToolDispatcher dispatcher;
    private final Scheduler answers;
    /** Response content types the server sent on /mcp, to show which framing a test exercised. */
    final Set<String> contentTypes = ConcurrentHashMap.newKeySet();

    private McpHttpTestServer(Server jetty, ToolDispatcher dispatcher, Scheduler answers) {
        this.jetty = jetty;
        this.dispatcher = dispatcher;
        this.answers = answers;
    }

    /** Serves {@code registry} on http://127.0.0.1:PORT/mcp; a token, if given, is required as a bearer. */
    static McpHttpTestServer start(ToolRegistry registry, Mode mode, Optional<String> token) throws Exception {
        McpJsonMapper json = new JacksonMcpJsonMapper(new ObjectMapper());
        ToolDispatcher dispatcher = new ToolDispatcher(registry, DispatchCapacity.forMaxConcurrentQueries(4), RateLimit.OFF);
        Scheduler answers = Schedulers.newSingle("test-answers", true);
        HttpServlet servlet = switch (mode) {
            case STREAMABLE -> {
                HttpServletStreamableServerTransportProvider transport = HttpServletStreamableServerTransportProvider.builder()
                        .jsonMapper(json).mcpEndpoint("/mcp").build();
                McpServer.async(transport).serverInfo("schemabrain-test", "1")
                        .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
                        .jsonMapper(json)
                        .tools(McpToolAdapter.specifications(registry, dispatcher, answers))
                        .build();
                yield transport;
            }
            case STATELESS -> {
                HttpServletStatelessServerTransport transport = HttpServletStatelessServerTransport.builder()
                        .jsonMapper(json).messageEndpoint("/mcp").build();
                McpServer.async(transport).serverInfo("schemabrain-test", "1")
                        .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
                        .jsonMapper(json)
                        .tools(statelessTools(registry, dispatcher))
                        .build();
                yield transport;
            }
            case NOT_MCP -> new HttpServlet() {
                @Override
                protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
                    response.setContentType("text/html");
                    response.getWriter().write("<html><body>a web page</body></html>");
                }
            };
        };
        Server jetty = new Server();
        ServerConnector connector = new ServerConnector(jetty);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        jetty.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler();
        ServletHolder holder = new ServletHolder(servlet);
        holder.setAsyncSupported(true);
        context.addServlet(holder, "/mcp");
        context.addServlet(new ServletHolder(new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
                response.setContentType("application/json");
                response.getWriter().write("{\"status\":\"ok\"}");
            }
        }), "/health");
        McpHttpTestServer server = new McpHttpTestServer(jetty, dispatcher, answers);
        FilterHolder filter = new FilterHolder((Filter) (request, response, chain) -> {
            HttpServletRequest http = (HttpServletRequest) request;
            HttpServletResponse out = (HttpServletResponse) response;
            if (token.isPresent() && !("Bearer " + token.get()).equals(http.getHeader("Authorization"))) {
                out.setHeader("WWW-Authenticate", "Bearer");
                out.sendError(401);
                return;
            }
            chain.doFilter(request, response);
            if (out.getContentType() != null && http.getRequestURI().equals("/mcp")) {
                server.contentTypes.add(out.getContentType().replaceFirst(";.*", ""));
            }
        });
        filter.setAsyncSupported(true);
        context.addFilter(filter, "/*", EnumSet.of(DispatcherType.REQUEST));
        jetty.setHandler(context);
        jetty.start();
        return server;
    }

    /** The stateless transport takes its own specification type; same definitions, same dispatcher. */
    private static List<McpStatelessServerFeatures.AsyncToolSpecification> statelessTools(ToolRegistry registry,
                                                                                          ToolDispatcher dispatcher) {
        return registry.tools().stream().map(Tool::spec).map(spec -> McpStatelessServerFeatures.AsyncToolSpecification.builder()
                .tool(McpToolAdapter.definition(spec, EnvelopeSchema.published()))
                .callHandler((context, request) -> Mono.fromFuture(() -> dispatcher.dispatch(spec.name(), request.arguments(), null))
                        .map(McpToolAdapter::result))
                .build()).toList();
    }

    String url() {
        return "http://127.0.0.1:" + ((ServerConnector) jetty.getConnectors()[0]).getLocalPort() + "/mcp";
    }

    @Override
    public void close() throws Exception {
        jetty.stop();
        dispatcher.close();
        answers.dispose();
    }
}
