package dev.schemabrain.mcp.tool;

import dev.schemabrain.access.Access;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.error.ErrorKind;
import dev.schemabrain.mcp.envelope.Recovery;
import dev.schemabrain.mcp.envelope.ToolError;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;

/**
 * Where every tools/call leaves its audit row: the ones a tool answered, the ones turned away before it
 * ran and the ones refused before they named a tool. The {@link ToolRegistry} is the catalogue; this is
 * the record, kept apart so the edge records without dispatching.
 */
public final class CallRecorder {

    private static final Logger LOG = LoggerFactory.getLogger(CallRecorder.class);

    private final CallAudit audit;

    CallRecorder(CallAudit audit) {
        this.audit = audit;
    }

    CallAudit audit() {
        return audit;
    }

    /** The answer of a call a tool ran, once its row is written; withheld when it cannot be. */
    Envelope completed(ToolCall call, Envelope answer) {
        try {
            audit.completed(call, answer);
            return answer;
        } catch (CallAudit.AuditUnavailable e) {
            LOG.error("the audit log could not record a call to {}", call.tool(), e);
            return unavailable(call.tool());
        }
    }

    /**
     * Records a tools/call that never reached a tool (see {@link CallAudit#rejected}); the caller answers
     * it with a protocol error, for a caller under the access policy. Never throws: a failure to record is logged.
     */
    public void rejected(String tool, String caller, Access access, Object arguments, ErrorKind kind) {
        try {
            audit.rejected(tool, caller, access, arguments, kind.wireName());
        } catch (CallAudit.AuditUnavailable | RuntimeException e) {
            LOG.error("the audit log could not record a rejected tools/call: {}", e.getMessage());
        }
    }

    /**
     * Records a call to a served tool answered without running it (the source is busy, the caller is over
     * its rate); such an answer carries no data, so it is not withheld when this fails (logged). Under the
     * access policy its row names the caller's role.
     *
     * @return whether the row was written
     */
    public boolean turnedAway(String tool, Map<String, Object> arguments, String caller,
                              Access access, Envelope answer) {
        try {
            audit.completed(new ToolCall(tool, caller, arguments == null ? Map.of() : arguments, audit, access), answer);
            return true;
        } catch (CallAudit.AuditUnavailable e) {
            LOG.error("the audit log could not record a turned-away call to {}", tool, e);
            return false;
        }
    }

    /** Nothing goes unrecorded: without its audit row, a call's answer is withheld. */
    public static Envelope unavailable(String tool) {
        return Envelope.error(ToolError.of(ErrorKind.INTERNAL_ERROR, "The audit log could not record this call to " + tool
                        + ", so its answer is withheld; the operator should check the store's disk and permissions"
                        + " (schemabrain audit verify), then the same call can be retried.",
                Recovery.call(tool, Map.of())), List.of("list_indexed_schemas"));
    }
}
