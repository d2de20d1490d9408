package dev.schemabrain.mcp.tool;

import dev.schemabrain.mcp.envelope.Envelope;

/**
 * Where tool calls are recorded (SPEC §9.2): a row before a call's SQL leaves and a row with every
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

    /** The audit log refused or failed a write. */
    final class AuditUnavailable extends Exception {
        public AuditUnavailable(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
