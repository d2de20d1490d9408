package dev.schemabrain.auth;

import java.util.Optional;

/**
 * The OAuth resource server's settings: where the authorization server's keys are (an https URL, an
 * http URL on loopback, or a JWKS file), the issuer and audience a token must name exactly, the
 * scope it must carry, if any, and the claim naming the bearer's roles.
 */
public record JwtSettings(String jwks, String issuer, String audience, Optional<String> scope, String roleClaim) {

    /** The role claim when none is configured: a list, or a space-separated string. */
    public static final String DEFAULT_ROLE_CLAIM = "roles";

    public JwtSettings(String jwks, String issuer, String audience, Optional<String> scope) {
        this(jwks, issuer, audience, scope, DEFAULT_ROLE_CLAIM);
    }
}
