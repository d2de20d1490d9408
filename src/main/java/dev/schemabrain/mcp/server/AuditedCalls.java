package dev.schemabrain.mcp.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.schemabrain.access.Access;
import dev.schemabrain.audit.ArgsHash;
import dev.schemabrain.audit.AuditEntry;
import dev.schemabrain.error.AuditException;
import dev.schemabrain.audit.AuditKey;
import dev.schemabrain.audit.AuditLog;
import dev.schemabrain.audit.ClientText;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.mcp.tool.CallAudit;
import dev.schemabrain.mcp.tool.ToolCall;

import java.util.ArrayList;
import java.util.List;

/**
 * The server's {@link CallAudit}: rows in the store's audit log. A call that sent SQL ends with a
 * completed row after its started row; any other call with one call row; a tools/call rejected before
 * dispatch (unknown tool, no name, arguments not an object) with one error row. Arguments are recorded
 * only as a keyed hash; what the client chose to call itself is cleaned and capped.
 */
public final class AuditedCalls implements CallAudit {

    /** The operator's issuer, '#', and at most 81 characters of subject fit. */
    static final int CALLER_MAX = 512;

    private final AuditLog log;
    private final AuditKey key;
    private final String sourceId;

    /**
     * @param sourceId the source a call is recorded under when it names none (a server with one source), or null;
     *                 a call that ran SQL is recorded under the source it ran on
     */
    public AuditedCalls(AuditLog log, AuditKey key, String sourceId) {
        this.log = log;
        this.key = key;
        this.sourceId = sourceId;
    }

    @Override
    public void beforeSql(ToolCall call, String sqlFingerprint) throws AuditUnavailable {
        append(new AuditEntry(call.sourceId().orElse(sourceId), caller(call.caller()), call.tool(), AuditEntry.Phase.STARTED, "started",
                null, List.of(), ArgsHash.of(key, call.arguments()), sqlFingerprint, null, null)
                .withRole(role(call), call.rowFiltersApplied()));
    }

    @Override
    public void completed(ToolCall call, Envelope result) throws AuditUnavailable {
        AuditEntry.Phase phase = call.sqlFingerprint().isPresent() ? AuditEntry.Phase.COMPLETED : AuditEntry.Phase.CALL;
        append(new AuditEntry(call.sourceId().orElse(sourceId), caller(call.caller()), call.tool(), phase, result.status().wireName(),
                result.error() == null ? null : result.error().kind().wireName(), piiCategories(result),
                ArgsHash.of(key, call.arguments()), call.sqlFingerprint().orElse(null),
                call.rowCount().isPresent() ? call.rowCount().getAsLong() : null, call.elapsedMillis())
                .withRole(role(call), call.rowFiltersApplied()));
    }

    /**
     * The role recorded: the caller's role under the policy; {@code none} for a caller the policy gives
     * nothing (no role, or one it lacks); null without a policy, so such rows hash as before roles.
     */
    private static String role(ToolCall call) {
        return role(call.access());
    }

    private static String role(Access access) {
        return access.restricted() ? access.role().orElse("none") : null;
    }

    @Override
    public void rejected(String tool, String caller, Object arguments, String errorKind) throws AuditUnavailable {
        rejected(tool, caller, Access.UNRESTRICTED, arguments, errorKind);
    }

    @Override
    public void rejected(String tool, String caller, Access access, Object arguments, String errorKind)
            throws AuditUnavailable {
        append(new AuditEntry(sourceId, caller(caller), tool == null ? NO_TOOL : ClientText.clean(tool),
                AuditEntry.Phase.CALL, "error", errorKind, List.of(), ArgsHash.of(key, arguments), null, null, null)
                .withRole(role(access), List.of()));
    }

    /**
     * The caller as recorded: an identity from a credential (bounded: a token name, or a JWT's issuer and
     * a subject cut with a digest), cleaned; the bound is wider than client text's so it is never cut.
     */
    private static String caller(String identity) {
        return ClientText.clean(identity, CALLER_MAX);
    }

    /** A successful metric's touched categories; a refusal's blocked ones. */
    private static List<String> piiCategories(Envelope result) {
        if (result.error() != null) {
            return result.error().piiCategories();
        }
        List<String> out = new ArrayList<>();
        JsonNode touched = result.data() == null ? null : result.data().get("pii_categories");
        if (touched != null && touched.isArray()) {
            touched.forEach(n -> out.add(n.asText()));
        }
        return out;
    }

    private void append(AuditEntry entry) throws AuditUnavailable {
        try {
            log.append(entry);
        } catch (AuditException | RuntimeException e) {
            throw new AuditUnavailable(e.getMessage(), e);
        }
    }
}
