package dev.schemabrain.store;

/** The store cannot be used. The message is one sentence for the operator: what is wrong, what to do. */
public class StoreException extends Exception {

    public StoreException(String message) {
        super(message);
    }

    public StoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
