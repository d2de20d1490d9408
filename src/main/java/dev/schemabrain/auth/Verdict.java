package dev.schemabrain.auth;

import dev.schemabrain.audit.ClientText;

import java.util.List;
import java.util.Map;

/** What one presented credential is worth. Holds no part of the credential. */
sealed interface Verdict {

    /**
     * Accepted: the caller's identity, with its kind so that a token and a JWT subject of the same name
     * stay two callers: {@code token:NAME} or {@code jwt:ISSUER#SUB}.
     */
    record Caller(String name, List<String> roles, Map<String, String> claims) implements Verdict {

        public Caller {
            roles = List.copyOf(roles);
            claims = Map.copyOf(claims);
        }

        /** A caller whose credential carries no role and no claims. */
        public Caller(String name) {
            this(name, List.of(), Map.of());
        }

        static Caller token(String tokenName) {
            return new Caller("token:" + tokenName);
        }

        static Caller token(TokenEntry entry) {
            return new Caller("token:" + entry.name(), entry.role().stream().toList(), entry.claims());
        }

        Caller with(List<String> roles, Map<String, String> claims) {
            return new Caller(name, roles, claims);
        }

        Credential credential() {
            return new Credential(name, roles, claims);
        }

        /** The longest subject shown as is. */
        static final int SHOWN = 64;

        /**
         * The issuer is the operator's --jwt-issuer (every accepted token names it exactly). A subject that is
         * short, printable and free of '~' is shown as is; any other is shown cleaned and cut, then '~' and a
         * digest of the whole, so two subjects that clean or cut alike stay two callers.
         */
        static Caller jwt(String issuer, String sub) {
            String shown = ClientText.clean(sub, SHOWN);
            boolean exact = shown.equals(sub) && sub.indexOf('~') < 0;
            return new Caller("jwt:" + issuer + "#" + (exact ? sub : shown + "~" + Tokens.hash(sub).substring(0, 16)));
        }
    }

    /** Unknown, revoked, expired, badly signed or not meant for this server: 401 invalid_token. */
    record Invalid() implements Verdict {
    }

    /** A valid JWT without the scope the server requires: 403 insufficient_scope. */
    record InsufficientScope(String scope) implements Verdict {
    }
}
