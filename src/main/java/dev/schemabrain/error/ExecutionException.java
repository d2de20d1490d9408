package dev.schemabrain.error;

/** Why a statement did not run or finish; the message is one sentence for the caller, never a password. */
public final class ExecutionException extends SchemaBrainException {

    /** The MCP error kind the envelope reports; it hides the root's Kind inside this class on purpose. */
    public enum Kind { SOURCE_UNAVAILABLE, STATEMENT_TIMEOUT, SOURCE_BUSY, COST_CAP_EXCEEDED, QUERY_FAILED }

    private final Kind kind;

    public ExecutionException(Kind kind, String message) {
        super(SchemaBrainException.Kind.UNAVAILABLE, message, null);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
