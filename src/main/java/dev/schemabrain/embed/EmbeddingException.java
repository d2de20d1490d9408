package dev.schemabrain.embed;

/** The embedding model failed: its message is one sentence for the user. */
public class EmbeddingException extends RuntimeException {

    public EmbeddingException(String message, Throwable cause) {
        super(message, cause);
    }
}
