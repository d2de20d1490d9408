package dev.schemabrain.error;

/** The audit log cannot be read or written; the message is one sentence for the operator. */
public non-sealed class AuditException extends SchemaBrainException {

    public AuditException(String message, Throwable cause) {
        super(Kind.INTEGRITY, message, cause);
    }
}
