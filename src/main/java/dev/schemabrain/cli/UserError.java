package dev.schemabrain.cli;

/** A failure the operator can fix; the message is the one sentence shown, exit code 2. */
public final class UserError extends RuntimeException {

    public UserError(String message) {
        super(message);
    }

    public UserError(String message, Throwable cause) {
        super(message, cause);
    }
}
