package dev.schemabrain.embed;

/** The embedding model cannot be used. The message is one sentence for the operator: what is wrong, what to do. */
public class EmbeddingException extends Exception {

    public EmbeddingException(String message) {
        super(message);
    }

    public EmbeddingException(String message, Throwable cause) {
        super(message, cause);
    }
}
