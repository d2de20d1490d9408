package dev.schemabrain.error;

/** The store cannot be used. The message is one sentence for the operator: what is wrong, what to do. */
public final class StoreException extends SchemaBrainException {

    public StoreException(String message) {
        super(Kind.UNAVAILABLE, message, null);
    }

    public StoreException(String message, Throwable cause) {
        super(Kind.UNAVAILABLE, message, cause);
    }
}
