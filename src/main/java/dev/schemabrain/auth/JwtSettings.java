package dev.schemabrain.auth;

import java.util.Optional;

/**
 * The OAuth resource server's settings: where the authorization server's keys are (an https URL, an
 * http URL on loopback, or a JWKS file), the issuer and audience a token must name exactly, and the
 * scope it must carry, if any.
 */
public record JwtSettings(String jwks, String issuer, String audience, Optional<String> scope) {
}
