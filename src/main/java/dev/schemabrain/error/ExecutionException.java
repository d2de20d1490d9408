package dev.schemabrain.error;

import java.util.Optional;

/**
 * Why a statement did not run or finish; the message is one sentence of ours for the caller, never a password and
 * never the database's own words (they may quote a value the statement read).
 */
public final class ExecutionException extends SchemaBrainException {

    private final ErrorKind kind;
    private final String engineDetail;

    /**
     * @param kind the error kind the envelope reports: source_unavailable, statement_timeout, source_busy,
     *             cost_cap_exceeded, schema_drift or statement_failed for a statement the database refused
     */
    public ExecutionException(ErrorKind kind, String message) {
        this(kind, message, null);
    }

    /** @param engineDetail the database's own first line, for the operator's own command (see {@link #engineDetail}) */
    public ExecutionException(ErrorKind kind, String message, String engineDetail) {
        super(SchemaBrainException.Kind.UNAVAILABLE, message, null);
        this.kind = kind;
        this.engineDetail = engineDetail;
    }

    public ErrorKind kind() {
        return kind;
    }

    /**
     * The database's own words, which may quote values: only for a command the operator runs on their own database
     * (schemabrain test), never an answer, an audit row or a log line.
     */
    public Optional<String> engineDetail() {
        return Optional.ofNullable(engineDetail);
    }
}
