package dev.schemabrain.error;

/**
 * A source could not be read. The message is written for the operator: one sentence saying what
 * went wrong and what to do, and never a password.
 */
public final class SourceException extends SchemaBrainException {

    public SourceException(String message) {
        super(Kind.UNAVAILABLE, message, null);
    }

    public SourceException(String message, Throwable cause) {
        super(Kind.UNAVAILABLE, message, cause);
    }
}
