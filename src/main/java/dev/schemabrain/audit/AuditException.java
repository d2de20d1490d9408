package dev.schemabrain.audit;

/** The audit log cannot be read or written; the message is one sentence for the operator. */
public class AuditException extends Exception {

    public AuditException(String message, Throwable cause) {
        super(message, cause);
    }
}
