package dev.schemabrain.http;

import dev.schemabrain.mcp.envelope.ErrorKind;
import dev.schemabrain.mcp.server.CallerRateLimiter;
import dev.schemabrain.mcp.server.RateLimit;
import dev.schemabrain.mcp.server.TurnedAway;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import dev.schemabrain.mcp.tool.ToolRegistry;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * The last filter before the SDK, after authentication: names the caller (the auth filter's
 * {@link HttpService#CALLER_ATTRIBUTE}, else anonymous; never the client's initialize info), applies the
 * caller's rate limit, and records a tools/call the SDK will reject (unknown tool, no name, arguments not
 * an object) in the audit log, as the stdio server does.
 */
final class CallerGate implements Filter {

    static final String SCOPE_ATTRIBUTE = "dev.schemabrain.http.scope";

    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {
    };

    private final CallerRateLimiter limiter;
    private final RateLimit rate;
    private final ToolRegistry registry;

    CallerGate(RateLimit rate, ToolRegistry registry) {
        this.limiter = new CallerRateLimiter(rate);
        this.rate = rate;
        this.registry = registry;
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain) throws IOException, ServletException {
        HttpServletRequest request = (HttpServletRequest) req;
        HttpServletResponse response = (HttpServletResponse) res;
        McpGate.Rpc rpc = request.getAttribute(McpGate.RPC_ATTRIBUTE) instanceof McpGate.Rpc r ? r : null;
        Object authenticated = request.getAttribute(HttpService.CALLER_ATTRIBUTE);
        RequestScope scope = new RequestScope(authenticated instanceof String s ? s : null, rpc == null ? null : rpc.client());
        if (rpc != null) {
            scope.noteRpc(rpc.method(), rpc.tool());
        }
        request.setAttribute(SCOPE_ATTRIBUTE, scope);
        CallerRateLimiter.Decision decision = limiter.tryAcquire(scope.identity());
        if (!decision.allowed()) {
            long seconds = Math.max(1, (decision.retryAfterMillis() + 999) / 1000);
            response.setHeader("Retry-After", Long.toString(seconds));
            if (rpc != null && rpc.toolCall()) {
                recordOverRate(rpc, scope, decision.retryAfterMillis());
            }
            Replies.refuse(response, 429, "This caller is limited to " + rate.describe() + " (bursts of up to " + rate.burst()
                    + "); retry after " + seconds + " s.");
            return;
        }
        if (rpc != null && rpc.toolCall()) {
            recordIfRejected(rpc, scope);
        }
        chain.doFilter(request, response);
    }

    /**
     * A tools/call refused 429 is a call like any other to the audit (SPEC §9.2): a known tool's row says
     * refused + policy_blocked, as the metric rate limit's does; anything else an error row of that kind.
     */
    private void recordOverRate(McpGate.Rpc rpc, RequestScope scope, long retryAfterMillis) {
        scope.noteRejected();
        JsonNode arguments = rpc.arguments();
        boolean none = arguments == null || arguments.isNull();
        if (rpc.tool() != null && registry.tool(rpc.tool()).isPresent() && (none || arguments.isObject())) {
            Map<String, Object> given = none ? Map.of() : Replies.JSON.convertValue(arguments, MAP);
            registry.recordTurnedAway(rpc.tool(), given, scope.identity(),
                    TurnedAway.overRate(rpc.tool(), given, rate, retryAfterMillis, List.of(rpc.tool())));
        } else {
            registry.recordRejected(rpc.tool(), scope.identity(),
                    arguments == null ? null : Replies.JSON.convertValue(arguments, Object.class), ErrorKind.POLICY_BLOCKED);
        }
    }

    private void recordIfRejected(McpGate.Rpc rpc, RequestScope scope) {
        boolean argumentsNotObject = rpc.arguments() != null && !rpc.arguments().isNull() && !rpc.arguments().isObject();
        ErrorKind kind = rpc.tool() == null || argumentsNotObject ? ErrorKind.INVALID_ARGUMENT
                : registry.tool(rpc.tool()).isEmpty() ? ErrorKind.UNKNOWN_NAME : null;
        if (kind != null) {
            scope.noteRejected();
            registry.recordRejected(rpc.tool(), scope.identity(),
                    rpc.arguments() == null ? null : Replies.JSON.convertValue(rpc.arguments(), Object.class), kind);
        }
    }
}
