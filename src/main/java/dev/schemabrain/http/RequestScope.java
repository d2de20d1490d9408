package dev.schemabrain.http;

import dev.schemabrain.audit.ClientText;
import dev.schemabrain.mcp.envelope.Envelope;
import io.modelcontextprotocol.common.McpTransportContext;

/**
 * What one HTTP request to /mcp carries from the filters to the tool handler and back to the request
 * log: who calls, which JSON-RPC method and tool, and the tool's answer status. Never arguments.
 */
final class RequestScope {

    static final String ANONYMOUS = "anonymous";
    static final String CONTEXT_KEY = CallerGate.SCOPE_ATTRIBUTE;

    private final String authenticated;
    private final String client;
    private volatile String method;
    private volatile String tool;
    private volatile Envelope answer;
    private volatile boolean rejected;

    /**
     * @param authenticated the token name or JWT subject an auth filter set, or null
     * @param client        the client's initialize name/version, or null
     */
    RequestScope(String authenticated, String client) {
        this.authenticated = authenticated;
        this.client = client;
    }

    static RequestScope of(McpTransportContext context) {
        return context.get(CONTEXT_KEY) instanceof RequestScope scope ? scope : new RequestScope(null, null);
    }

    /** The key the caller's rate limit is kept under: the authenticated name, else everyone unauthenticated. */
    String rateKey() {
        return authenticated == null ? ANONYMOUS : "auth:" + authenticated;
    }

    /** The audit row's caller: "alice (claude-code/1.2)", "alice", "anonymous (claude-code/1.2)". */
    String auditCaller() {
        String who = authenticated == null ? ANONYMOUS : authenticated;
        return client == null ? who : who + " (" + client + ")";
    }

    /** The caller for the request log: cleaned and capped, as in the audit row. */
    String logCaller() {
        return ClientText.clean(auditCaller());
    }

    void noteRpc(String method, String tool) {
        this.method = method;
        this.tool = tool;
    }

    void noteAnswer(Envelope answer) {
        this.answer = answer;
    }

    /** A tools/call the SDK answers with a protocol error (unknown tool, bad params). */
    void noteRejected() {
        this.rejected = true;
    }

    /** Whether the request is counted as an error: a rejected call or a tool answer with isError. */
    boolean failed() {
        return rejected || (answer != null && answer.isError());
    }

    String method() {
        return method;
    }

    String tool() {
        return tool;
    }

    Envelope answer() {
        return answer;
    }
}
