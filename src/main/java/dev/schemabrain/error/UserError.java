package dev.schemabrain.error;

/**
 * A failure the operator can fix that no lower layer names: options that cannot work together, a missing file
 * or store, an object the index does not hold. Checked like the rest of the root, so a helper that can refuse
 * says so in its signature.
 */
public final class UserError extends SchemaBrainException {

    public UserError(String message) {
        super(Kind.USAGE, message, null);
    }

    public UserError(Kind failure, String message) {
        super(failure, message, null);
    }

    public UserError(Kind failure, String message, Throwable cause) {
        super(failure, message, cause);
    }
}
