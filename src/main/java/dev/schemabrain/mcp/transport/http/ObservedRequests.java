package dev.schemabrain.mcp.transport.http;

import dev.schemabrain.audit.ClientText;
import dev.schemabrain.mcp.tool.ToolRegistry;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.Locale;
import java.util.Set;

/**
 * The outermost filter: counts every request in {@link Observability} under a bounded endpoint name and
 * writes one request-log line on stderr (caller, method, tool, HTTP status, tool status, ms). The line
 * never carries a token, a JWT or an argument value: the caller is the authenticated name.
 */
final class ObservedRequests implements Filter {

    private static final Logger LOG = LoggerFactory.getLogger("dev.schemabrain.mcp.transport.http.request");
    /** JSON-RPC methods named as themselves in metrics; anything else a client sends is "other". */
    private static final Set<String> KNOWN_METHODS = Set.of("initialize", "ping", "tools/list", "tools/call",
            "notifications/initialized", "notifications/cancelled", "resources/list", "prompts/list", "logging/setLevel");

    private final Observability observability;
    private final ToolRegistry registry;

    ObservedRequests(Observability observability, ToolRegistry registry) {
        this.observability = observability;
        this.registry = registry;
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain) throws IOException, ServletException {
        HttpServletRequest request = (HttpServletRequest) req;
        HttpServletResponse response = (HttpServletResponse) res;
        long start = observability.started();
        boolean thrown = true;
        try {
            chain.doFilter(request, response);
            thrown = false;
        } finally {
            int status = thrown ? 500 : response.getStatus();
            RequestScope scope = request.getAttribute(CallerGate.SCOPE_ATTRIBUTE) instanceof RequestScope s ? s : null;
            McpGate.Rpc rpc = request.getAttribute(McpGate.RPC_ATTRIBUTE) instanceof McpGate.Rpc r ? r : null;
            String endpoint = endpoint(request, rpc);
            // GET for an event stream and DELETE of a session are answered 405 by design (a stateless server
            // pushes nothing and keeps no session to end): the protocol's answer, not an error.
            boolean noStream = status == HttpServletResponse.SC_METHOD_NOT_ALLOWED
                    && (request.getMethod().equals("GET") || request.getMethod().equals("DELETE"));
            boolean failed = (status >= 400 && !noStream) || (scope != null && scope.failed());
            observability.finished(start, endpoint, failed);
            double ms = (System.nanoTime() - start) / 1e6;
            String tool = endpoint.startsWith("tools/call ") ? endpoint.substring("tools/call ".length()) : null;
            String client = scope == null ? null : scope.claimedClient();
            // client_claimed: what the client says it is, never who it is (that is caller, from the credential).
            LOG.info(String.format(Locale.ROOT, "request caller=\"%s\"%s endpoint=\"%s\"%s status=%d%s ms=%.2f",
                    caller(request, scope).replace('"', '\''),
                    client == null ? "" : " client_claimed=\"" + client.replace('"', '\'') + "\"",
                    tool == null ? endpoint : "tools/call", tool == null ? "" : " tool=" + tool, status,
                    scope == null || scope.answer() == null ? "" : " outcome=" + scope.answer().status().wireName(), ms));
        }
    }

    /**
     * Who called: the scope's caller on /mcp; on the other paths (/metrics behind the credential check) the
     * authenticated principal the auth filter set, else anonymous.
     */
    private static String caller(HttpServletRequest request, RequestScope scope) {
        if (scope != null) {
            return scope.logCaller();
        }
        return request.getAttribute(HttpService.CALLER_ATTRIBUTE) instanceof String authenticated
                ? ClientText.clean(authenticated) : RequestScope.ANONYMOUS;
    }

    /** A bounded name: a client cannot make up endpoints (or tools) to grow the metrics without end. */
    private String endpoint(HttpServletRequest request, McpGate.Rpc rpc) {
        String path = request.getRequestURI();
        if (!path.equals(HttpService.MCP_PATH)) {
            return request.getMethod() + " " + (path.equals("/health") || path.equals("/metrics") ? path : "other");
        }
        if (rpc == null || rpc.method() == null) {
            return request.getMethod() + " " + path;
        }
        if (!KNOWN_METHODS.contains(rpc.method())) {
            return "other";
        }
        if (rpc.toolCall()) {
            return "tools/call " + (rpc.tool() != null && registry.tool(rpc.tool()).isPresent() ? rpc.tool() : "(unknown)");
        }
        return rpc.method();
    }
}
