package dev.schemabrain.auth;

/** What one presented credential is worth. Holds no part of the credential. */
sealed interface Verdict {

    /** Accepted: the caller's name (a token's name or a JWT's cleaned {@code sub}). */
    record Caller(String name) implements Verdict {
    }

    /** Unknown, revoked, expired, badly signed or not meant for this server: 401 invalid_token. */
    record Invalid() implements Verdict {
    }

    /** A valid JWT without the scope the server requires: 403 insufficient_scope. */
    record InsufficientScope(String scope) implements Verdict {
    }
}
