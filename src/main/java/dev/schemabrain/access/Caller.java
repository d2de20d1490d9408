package dev.schemabrain.access;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Who calls, as its credential says and nothing else: the identity ({@code token:NAME}, {@code jwt:ISS#SUB},
 * {@code stdio}, {@code anonymous}), the role the credential carries, if any, and its claims.
 */
public record Caller(String identity, Optional<String> role, Map<String, String> claims) {

    public Caller {
        Objects.requireNonNull(identity, "identity");
        Objects.requireNonNull(role, "role");
        claims = Map.copyOf(claims);
    }

    /** A caller whose credential carries no role and no claims. */
    public static Caller named(String identity) {
        return new Caller(identity, Optional.empty(), Map.of());
    }
}
