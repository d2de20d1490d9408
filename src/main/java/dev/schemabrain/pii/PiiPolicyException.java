package dev.schemabrain.pii;

/** A PII policy file that cannot be read or written; the message is one sentence for the operator. */
public final class PiiPolicyException extends Exception {

    public PiiPolicyException(String message) {
        super(message);
    }
}
