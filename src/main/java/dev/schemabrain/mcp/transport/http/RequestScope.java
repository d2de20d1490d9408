package dev.schemabrain.mcp.transport.http;

import dev.schemabrain.access.Access;
import dev.schemabrain.access.AccessPolicy;
import dev.schemabrain.access.AccessPolicySource;
import dev.schemabrain.access.Caller;
import dev.schemabrain.audit.ClientText;
import dev.schemabrain.auth.Credential;
import dev.schemabrain.mcp.envelope.Envelope;
import io.modelcontextprotocol.common.McpTransportContext;

import java.util.Optional;

/**
 * What one HTTP request to /mcp carries from the filters to the tool handler and back to the request
 * log: who calls, which JSON-RPC method and tool, and the tool's answer status. Never arguments.
 * Who calls is the credential's identity and nothing else: the client's initialize
 * name and session id are the client's own words, kept apart as untrusted detail for the request log.
 */
final class RequestScope {

    static final String ANONYMOUS = "anonymous";
    static final String CONTEXT_KEY = CallerGate.SCOPE_ATTRIBUTE;

    private final String authenticated;
    private final Credential credential;
    private final String client;
    private volatile String method;
    private volatile String tool;
    private volatile Envelope answer;
    private volatile boolean rejected;

    /**
     * @param authenticated the identity an auth filter set ({@code token:NAME}, {@code jwt:ISSUER#SUB}), or null
     * @param client        the client's initialize name/version, as it claims (untrusted), or null
     */
    RequestScope(String authenticated, String client) {
        this(authenticated, null, client);
    }

    /** @param credential the roles and claims of the credential that named {@code authenticated}, or null */
    RequestScope(String authenticated, Credential credential, String client) {
        this.authenticated = authenticated;
        this.credential = credential;
        this.client = client;
    }

    static RequestScope of(McpTransportContext context) {
        return context.get(CONTEXT_KEY) instanceof RequestScope scope ? scope : new RequestScope(null, null);
    }

    /**
     * What this caller may reach under {@code policy} (empty: no policy, everything): the credential's role and
     * claims, or none for an unauthenticated caller, which then gets the policy's default_role.
     */
    Access access(Optional<AccessPolicySource> policy) {
        if (policy.isEmpty()) {
            return Access.UNRESTRICTED;
        }
        AccessPolicy current = policy.get().policy();
        return current.resolve(credential == null ? Caller.named(identity()) : credential.caller(current));
    }

    /**
     * Who calls: the credential's identity, else everyone unauthenticated as one caller. Both rate limits
     * and the audit row's caller key on this, so a new session or client name is not a new caller.
     */
    String identity() {
        return authenticated == null ? ANONYMOUS : authenticated;
    }

    /** The caller for the request log: cleaned and capped, as in the audit row. */
    String logCaller() {
        return ClientText.clean(identity());
    }

    /** What the client calls itself, cleaned and capped; null when it said nothing. Never an identity. */
    String claimedClient() {
        return ClientText.clean(client);
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
