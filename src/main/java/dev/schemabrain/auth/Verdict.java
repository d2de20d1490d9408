package dev.schemabrain.auth;

/** What one presented credential is worth. Holds no part of the credential. */
sealed interface Verdict {

    /**
     * Accepted: the caller's identity, with its kind so that a token and a JWT subject of the same name
     * stay two callers (SPEC §11.4): {@code token:NAME} or {@code jwt:ISSUER#SUB}.
     */
    record Caller(String name) implements Verdict {

        static Caller token(String tokenName) {
            return new Caller("token:" + tokenName);
        }

        /** The issuer is the operator's --jwt-issuer (every accepted token names it exactly); the sub is cleaned. */
        static Caller jwt(String issuer, String sub) {
            return new Caller("jwt:" + issuer + "#" + sub);
        }
    }

    /** Unknown, revoked, expired, badly signed or not meant for this server: 401 invalid_token. */
    record Invalid() implements Verdict {
    }

    /** A valid JWT without the scope the server requires: 403 insufficient_scope. */
    record InsufficientScope(String scope) implements Verdict {
    }
}
