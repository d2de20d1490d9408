package dev.schemabrain.error;

/** A PII policy file that cannot be read or written; the message is one sentence for the operator. */
public final class PiiPolicyException extends SchemaBrainException {

    public PiiPolicyException(String message) {
        super(Kind.INPUT, message, null);
    }
}
