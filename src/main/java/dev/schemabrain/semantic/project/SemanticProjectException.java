package dev.schemabrain.semantic.project;

/** A semantic project file or object that cannot be used; the message is one sentence naming the file and key. */
public final class SemanticProjectException extends Exception {

    public SemanticProjectException(String message) {
        super(message);
    }

    public SemanticProjectException(String message, Throwable cause) {
        super(message, cause);
    }
}
