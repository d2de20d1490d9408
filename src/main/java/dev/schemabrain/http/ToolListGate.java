package dev.schemabrain.http;

import dev.schemabrain.mcp.server.ToolListCache;
import dev.schemabrain.mcp.server.UnknownTool;
import dev.schemabrain.mcp.tool.ToolRegistry;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * After the caller's gate, before the SDK: answers tools/list from the cached bytes of the current
 * catalog version (the SDK would build and serialize all definitions per request), and a tools/call
 * naming no served tool with the same sentence as over stdio, the closest name included (the SDK's is a
 * bare "Unknown tool"). Everything else goes on to the SDK.
 */
final class ToolListGate implements Filter {

    static final int INVALID_PARAMS = -32602;

    private final ToolListCache cache;
    private final Supplier<String> catalogVersion;
    private final ToolRegistry registry;

    ToolListGate(ToolListCache cache, Supplier<String> catalogVersion, ToolRegistry registry) {
        this.cache = cache;
        this.catalogVersion = catalogVersion;
        this.registry = registry;
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain) throws IOException, ServletException {
        HttpServletRequest request = (HttpServletRequest) req;
        McpGate.Rpc rpc = request.getAttribute(McpGate.RPC_ATTRIBUTE) instanceof McpGate.Rpc r ? r : null;
        // The SDK answers anything it would refuse (no id, an Accept it does not serve) in its own way.
        if (rpc == null || rpc.id() == null || !request.getMethod().equals("POST") || !acceptsBoth(request)) {
            chain.doFilter(req, res);
            return;
        }
        HttpServletResponse response = (HttpServletResponse) res;
        if ("tools/list".equals(rpc.method())) {
            byte[] head = ("{\"jsonrpc\":\"2.0\",\"id\":" + rpc.id() + ",\"result\":").getBytes(StandardCharsets.UTF_8);
            byte[] result = cache.bytes(catalogVersion.get());
            response.setStatus(HttpServletResponse.SC_OK);
            response.setContentType("application/json");
            response.setContentLength(head.length + result.length + 1);
            response.getOutputStream().write(head);
            response.getOutputStream().write(result);
            response.getOutputStream().write('}');
            return;
        }
        if (rpc.toolCall() && rpc.tool() != null && registry.tool(rpc.tool()).isEmpty()) {
            Map<String, Object> error = new LinkedHashMap<>();
            error.put("code", INVALID_PARAMS);
            error.put("message", UnknownTool.message(rpc.tool(), registry.names()));
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("jsonrpc", "2.0");
            body.put("id", rpc.id());
            body.put("error", error);
            Replies.json(response, HttpServletResponse.SC_OK, body);
            return;
        }
        chain.doFilter(req, res);
    }

    private static boolean acceptsBoth(HttpServletRequest request) {
        String accept = request.getHeader("Accept");
        return accept != null && accept.contains("application/json") && accept.contains("text/event-stream");
    }
}
