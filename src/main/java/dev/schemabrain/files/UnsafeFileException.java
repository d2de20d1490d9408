package dev.schemabrain.files;

/** A file or directory SchemaBrain will not create or trust; the message is one sentence naming the fix. */
public final class UnsafeFileException extends Exception {

    public UnsafeFileException(String message, Throwable cause) {
        super(message, cause);
    }
}
