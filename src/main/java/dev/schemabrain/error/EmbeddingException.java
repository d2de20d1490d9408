package dev.schemabrain.error;

/** The embedding model cannot be used. The message is one sentence for the operator: what is wrong, what to do. */
public final class EmbeddingException extends SchemaBrainException {

    public EmbeddingException(String message) {
        super(Kind.UNAVAILABLE, message, null);
    }

    public EmbeddingException(String message, Throwable cause) {
        super(Kind.UNAVAILABLE, message, cause);
    }
}
