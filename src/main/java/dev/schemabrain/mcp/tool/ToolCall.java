package dev.schemabrain.mcp.tool;

import dev.schemabrain.access.Access;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One tools/call as the audit sees it: who asked, what, with which arguments, and what SQL it sent.
 * Confined to the thread answering the call.
 */
public final class ToolCall {

    private final String tool;
    private final String caller;
    private final Map<String, Object> arguments;
    private final long startNanos = System.nanoTime();
    private final CallAudit audit;
    private final Access access;
    private String sqlFingerprint;
    private List<String> rowFiltersApplied = List.of();
    private Long rowCount;
    private String sourceId;

    ToolCall(String tool, String caller, Map<String, Object> arguments, CallAudit audit) {
        this(tool, caller, arguments, audit, Access.UNRESTRICTED);
    }

    ToolCall(String tool, String caller, Map<String, Object> arguments, CallAudit audit, Access access) {
        this.access = access;
        this.tool = tool;
        this.caller = caller;
        this.arguments = arguments;
        this.audit = audit;
    }

    /** A call outside any server (lint, tests): nothing is recorded. */
    public static ToolCall unaudited(String tool) {
        return new ToolCall(tool, null, Map.of(), CallAudit.NONE);
    }

    public String tool() {
        return tool;
    }

    /** Who calls, as its credential says ({@code token:NAME}, {@code jwt:ISS#SUB}), or null outside a server. */
    public String caller() {
        return caller;
    }

    /** What this caller may reach under the access policy; {@link Access#UNRESTRICTED} without one. */
    public Access access() {
        return access;
    }

    /** The arguments as the client sent them. */
    public Map<String, Object> arguments() {
        return arguments;
    }

    public long elapsedMillis() {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }

    /** Records that SQL with this fingerprint is about to leave; it must not leave if this throws. */
    public void beforeSql(String fingerprint) throws CallAudit.AuditUnavailable {
        this.sqlFingerprint = fingerprint;
        audit.beforeSql(this, fingerprint);
    }

    /** Records the source the statement runs on (before {@link #beforeSql}), for the audit rows. */
    public void source(String id) {
        this.sourceId = id;
    }

    /** The source the statement ran on, when one was chosen. */
    public Optional<String> sourceId() {
        return Optional.ofNullable(sourceId);
    }

    /** Records which of the role's row filters the statement carried ({@code entity.column}), for the audit row. */
    public void rowFiltersApplied(List<String> filters) {
        this.rowFiltersApplied = List.copyOf(filters);
    }

    public List<String> rowFiltersApplied() {
        return rowFiltersApplied;
    }

    public void rowsReturned(long rows) {
        this.rowCount = rows;
    }

    public Optional<String> sqlFingerprint() {
        return Optional.ofNullable(sqlFingerprint);
    }

    public OptionalLong rowCount() {
        return rowCount == null ? OptionalLong.empty() : OptionalLong.of(rowCount);
    }
}
