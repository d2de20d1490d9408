package dev.schemabrain.execute;

/** Why a statement did not run or finish; the message is one sentence for the caller, never a password. */
public final class ExecutionException extends Exception {

    public enum Kind { SOURCE_UNAVAILABLE, STATEMENT_TIMEOUT, SOURCE_BUSY, COST_CAP_EXCEEDED, QUERY_FAILED }

    private final Kind kind;

    public ExecutionException(Kind kind, String message) {
        super(message);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
