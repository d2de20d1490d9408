package dev.schemabrain.error;

/** Why a statement did not run or finish; the message is one sentence for the caller, never a password. */
public final class ExecutionException extends SchemaBrainException {

    private final ErrorKind kind;

    /**
     * @param kind the error kind the envelope reports: source_unavailable, statement_timeout, source_busy,
     *             cost_cap_exceeded, or internal_error for a statement the database refused
     */
    public ExecutionException(ErrorKind kind, String message) {
        super(SchemaBrainException.Kind.UNAVAILABLE, message, null);
        this.kind = kind;
    }

    public ErrorKind kind() {
        return kind;
    }
}
