package dev.schemabrain.llm;

/** One table's request failed; {@code unreachable} means the endpoint itself is down, so no other table should try. */
public final class LlmException extends Exception {

    private final boolean unreachable;
    private final long inputTokens;
    private final long outputTokens;

    LlmException(String message, boolean unreachable) {
        this(message, unreachable, 0, 0);
    }

    /** The provider answered (and bills the call) but not with descriptions: its usage still goes to the ledger. */
    LlmException(String message, long inputTokens, long outputTokens) {
        this(message, false, inputTokens, outputTokens);
    }

    private LlmException(String message, boolean unreachable, long inputTokens, long outputTokens) {
        super(message, null, false, false);
        this.unreachable = unreachable;
        this.inputTokens = inputTokens;
        this.outputTokens = outputTokens;
    }

    /** Input tokens the provider's usage reported for an answer it bills, 0 when there was no answer. */
    public long inputTokens() {
        return inputTokens;
    }

    public long outputTokens() {
        return outputTokens;
    }

    public boolean unreachable() {
        return unreachable;
    }
}
