package dev.schemabrain.http;

import dev.schemabrain.mcp.envelope.ErrorKind;
import dev.schemabrain.mcp.server.CallerRateLimiter;
import dev.schemabrain.mcp.server.RateLimit;
import dev.schemabrain.mcp.tool.ToolRegistry;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;

/**
 * The last filter before the SDK, after authentication: names the caller (the auth filter's
 * {@link HttpService#CALLER_ATTRIBUTE}, else anonymous, plus the client's initialize info), applies the
 * caller's rate limit, and records a tools/call the SDK will reject (unknown tool, no name, arguments not
 * an object) in the audit log, as the stdio server does.
 */
final class CallerGate implements Filter {

    static final String SCOPE_ATTRIBUTE = "dev.schemabrain.http.scope";

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
        CallerRateLimiter.Decision decision = limiter.tryAcquire(scope.rateKey());
        if (!decision.allowed()) {
            long seconds = Math.max(1, (decision.retryAfterMillis() + 999) / 1000);
            response.setHeader("Retry-After", Long.toString(seconds));
            Replies.refuse(response, 429, "This caller is limited to " + rate.describe() + " (bursts of up to " + rate.burst()
                    + "); retry after " + seconds + " s.");
            return;
        }
        if (rpc != null && rpc.toolCall()) {
            recordIfRejected(rpc, scope);
        }
        chain.doFilter(request, response);
    }

    private void recordIfRejected(McpGate.Rpc rpc, RequestScope scope) {
        boolean argumentsNotObject = rpc.arguments() != null && !rpc.arguments().isNull() && !rpc.arguments().isObject();
        ErrorKind kind = rpc.tool() == null || argumentsNotObject ? ErrorKind.INVALID_ARGUMENT
                : registry.tool(rpc.tool()).isEmpty() ? ErrorKind.UNKNOWN_NAME : null;
        if (kind != null) {
            scope.noteRejected();
            registry.recordRejected(rpc.tool(), scope.auditCaller(),
                    rpc.arguments() == null ? null : Replies.JSON.convertValue(rpc.arguments(), Object.class), kind);
        }
    }
}
