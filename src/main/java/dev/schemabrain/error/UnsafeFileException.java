package dev.schemabrain.error;

/** A file or directory SchemaBrain will not create or trust; the message is one sentence naming the fix. */
public final class UnsafeFileException extends SchemaBrainException {

    public UnsafeFileException(String message, Throwable cause) {
        super(Kind.INTEGRITY, message, cause);
    }
}
