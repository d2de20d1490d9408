package dev.schemabrain.error;

/** A semantic project file or object that cannot be used; the message is one sentence naming the file and key. */
public final class SemanticProjectException extends SchemaBrainException {

    public SemanticProjectException(String message) {
        super(Kind.INPUT, message, null);
    }

    public SemanticProjectException(String message, Throwable cause) {
        super(Kind.INPUT, message, cause);
    }
}
