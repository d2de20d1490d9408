package dev.schemabrain.auth;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * One stored token: its name, when it was made, the hex SHA-256 of the token (never the token), and the role
 * and claims its bearer gets under an access policy (not secrets, shown by {@code token list}).
 */
public record TokenEntry(String name, Instant createdAt, String sha256, Optional<String> role, Map<String, String> claims) {

    public TokenEntry {
        claims = Map.copyOf(claims);
    }

    /** A token without a role or claims. */
    public TokenEntry(String name, Instant createdAt, String sha256) {
        this(name, createdAt, sha256, Optional.empty(), Map.of());
    }
}
