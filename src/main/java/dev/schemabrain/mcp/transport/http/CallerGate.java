package dev.schemabrain.mcp.transport.http;

import dev.schemabrain.access.AccessPolicySource;
import dev.schemabrain.auth.Credential;
import dev.schemabrain.mcp.server.CallGate;
import dev.schemabrain.mcp.server.JsonRpcFrames;
import dev.schemabrain.mcp.server.CallerRateLimiter;
import dev.schemabrain.mcp.server.ModernEra;
import dev.schemabrain.mcp.server.RateLimit;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.util.Optional;
import java.util.concurrent.CompletionException;

/**
 * The last filter before the SDK, after authentication: names the caller (the auth filter's
 * {@link HttpService#CALLER_ATTRIBUTE}, else anonymous; never the client's initialize info), applies the
 * caller's request rate (HTTP's own: 429 and Retry-After), then asks the {@link CallGate}, as stdio does,
 * whether a tools/call may reach a tool and answers tools/list from its cache.
 */
final class CallerGate implements Filter {

    static final String SCOPE_ATTRIBUTE = "dev.schemabrain.mcp.transport.http.scope";

    private final CallerRateLimiter limiter;
    private final RateLimit rate;
    private final CallGate gate;
    private final Optional<AccessPolicySource> policy;
    private final ModernEra modern;
    private final ModernTools tools;

    /** How a 2026-07-28 tools/call reaches its tool for one request's caller (the SDK's path is the 2025 era's). */
    @FunctionalInterface
    interface ModernTools {
        ModernEra.ToolRunner forScope(RequestScope scope);
    }

    /**
     * @param policy the access policy: the rows of calls refused here name the caller's role
     * @param modern the 2026-07-28 revision's answers (null: 2025 era only)
     */
    CallerGate(RateLimit rate, CallGate gate, Optional<AccessPolicySource> policy, ModernEra modern, ModernTools tools) {
        this.limiter = new CallerRateLimiter(rate);
        this.rate = rate;
        this.gate = gate;
        this.policy = policy;
        this.modern = modern;
        this.tools = tools;
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain) throws IOException, ServletException {
        HttpServletRequest request = (HttpServletRequest) req;
        HttpServletResponse response = (HttpServletResponse) res;
        McpGate.Rpc rpc = request.getAttribute(McpGate.RPC_ATTRIBUTE) instanceof McpGate.Rpc r ? r : null;
        Object authenticated = request.getAttribute(HttpService.CALLER_ATTRIBUTE);
        Object credential = request.getAttribute(Credential.ATTRIBUTE);
        RequestScope scope = new RequestScope(authenticated instanceof String s ? s : null,
                credential instanceof Credential c ? c : null, rpc == null ? null : rpc.client());
        if (rpc != null) {
            scope.noteRpc(rpc.method(), rpc.tool());
        }
        request.setAttribute(SCOPE_ATTRIBUTE, scope);
        CallerRateLimiter.Decision decision = limiter.tryAcquire(scope.identity());
        if (!decision.allowed()) {
            long seconds = Math.max(1, (decision.retryAfterMillis() + 999) / 1000);
            response.setHeader("Retry-After", Long.toString(seconds));
            if (rpc != null && rpc.toolCall()) {
                scope.noteRejected();
                gate.recordOverRate(rpc.message(), scope.identity(), scope.access(policy), rate, decision.retryAfterMillis());
            }
            Replies.refuse(response, 429, "This caller is limited to " + rate.describe() + " (bursts of up to " + rate.burst()
                    + "); retry after " + seconds + " s.");
            return;
        }
        if (rpc == null) {
            chain.doFilter(request, response);
            return;
        }
        // The same shape check as stdio's, in CallGate: a tools/call of another JSON-RPC version never runs.
        CallGate.Refusal malformed = gate.shape(rpc.message(), scope.identity(), scope.access(policy));
        if (malformed != null) {
            scope.noteRejected();
            // An id MCP does not allow is a bad request of HTTP's too; the SDK would have failed on it.
            Replies.frame(response, JsonRpcFrames.badId(rpc.message()) ? HttpServletResponse.SC_BAD_REQUEST
                    : HttpServletResponse.SC_OK, malformed.frame(rpc.id()));
            return;
        }
        ModernEra.Headers headers = new ModernEra.Headers(request.getHeader("MCP-Protocol-Version"),
                request.getHeader("Mcp-Method"), request.getHeader("Mcp-Name"));
        if (modern != null && ModernEra.claims(rpc.message(), headers)) {
            answerModern(rpc, headers, scope, response);
            return;
        }
        CallGate.Refusal refusal = CallGate.isToolCall(rpc.message())
                ? gate.screen(rpc.message(), scope.identity(), scope.access(policy))
                : gate.screen(rpc.message(), scope.identity());
        if (refusal != null) {
            scope.noteRejected();
            if (rpc.id() == null) {
                // A notification is answered with no body, refused or not.
                response.setStatus(HttpServletResponse.SC_ACCEPTED);
            } else {
                Replies.frame(response, HttpServletResponse.SC_OK, refusal.frame(rpc.id()));
            }
            return;
        }
        // The SDK answers a request it would refuse (an Accept it does not serve) in its own way.
        if ("tools/list".equals(rpc.method()) && rpc.id() != null && request.getMethod().equals("POST") && acceptsBoth(request)) {
            Replies.frame(response, HttpServletResponse.SC_OK, gate.toolsList(rpc.id()));
            return;
        }
        chain.doFilter(request, response);
    }

    /** One request, one answer, no session: written here, the SDK never sees the message. */
    private void answerModern(McpGate.Rpc rpc, ModernEra.Headers headers, RequestScope scope, HttpServletResponse response)
            throws IOException {
        ModernEra.Answer answer;
        try {
            answer = modern.answer(rpc.message(), headers, scope.identity(), scope.access(policy), tools.forScope(scope)).join();
        } catch (CompletionException e) {
            Replies.rpcError(response, HttpServletResponse.SC_INTERNAL_SERVER_ERROR, JsonRpcFrames.INTERNAL_ERROR,
                    "The tool failed before it could answer; retry, and if it persists see the server log.");
            return;
        }
        if (answer.status() != HttpServletResponse.SC_OK) {
            scope.noteRejected();
        }
        if (answer.frame() == null) {
            response.setStatus(answer.status());
            return;
        }
        Replies.frame(response, answer.status(), answer.frame());
    }

    private static boolean acceptsBoth(HttpServletRequest request) {
        String accept = request.getHeader("Accept");
        return accept != null && accept.contains("application/json") && accept.contains("text/event-stream");
    }
}
