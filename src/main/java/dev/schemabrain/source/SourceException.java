package dev.schemabrain.source;

/**
 * A source could not be read. The message is written for the operator: one sentence saying what
 * went wrong and what to do, and never a password.
 */
public class SourceException extends Exception {

    public SourceException(String message) {
        super(message);
    }

    public SourceException(String message, Throwable cause) {
        super(message, cause);
    }
}
