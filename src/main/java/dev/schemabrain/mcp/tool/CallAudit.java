package dev.schemabrain.mcp.tool;

import dev.schemabrain.access.Access;
import dev.schemabrain.mcp.envelope.Envelope;

/**
 * Where tool calls are recorded: a row before a call's SQL leaves and a row with every
 * call's outcome. A call whose record cannot be written does not run its SQL, and its answer is withheld.
 */
public interface CallAudit {

    /** Records nothing: for tests and tools that run without a store. */
    CallAudit NONE = new CallAudit() {
        @Override
        public void beforeSql(ToolCall call, String sqlFingerprint) {
        }

        @Override
        public void completed(ToolCall call, Envelope result) {
        }
    };

    /** @throws AuditUnavailable when the row cannot be written; the SQL must then not be sent */
    void beforeSql(ToolCall call, String sqlFingerprint) throws AuditUnavailable;

    /** @throws AuditUnavailable when the row cannot be written; the answer must then be withheld */
    void completed(ToolCall call, Envelope result) throws AuditUnavailable;

    /** The tool name recorded for a tools/call that named none. */
    String NO_TOOL = "(none)";

    /**
     * Records a tools/call answered before dispatch: an unknown tool, no name, or arguments that are not
     * an object. Its answer is an error either way; a failure to record it is logged by the caller.
     *
     * @param tool      the name as the client sent it (cleaned by the audit), or null when it sent none
     * @param arguments whatever the client sent as arguments (hashed, never stored), or null
     * @param errorKind unknown_name or invalid_argument
     */
    default void rejected(String tool, String caller, Object arguments, String errorKind) throws AuditUnavailable {
    }

    /** As above, for a caller under the access policy: its row names the role ({@code access}'s). */
    default void rejected(String tool, String caller, Access access, Object arguments,
                          String errorKind) throws AuditUnavailable {
        rejected(tool, caller, arguments, errorKind);
    }

    /** The audit log refused or failed a write. */
    final class AuditUnavailable extends Exception {
        public AuditUnavailable(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
