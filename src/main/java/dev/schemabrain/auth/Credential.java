package dev.schemabrain.auth;

import dev.schemabrain.access.AccessPolicy;
import dev.schemabrain.access.Caller;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What an accepted credential says about its bearer, and nothing the client wrote: the identity
 * ({@code token:NAME}, {@code jwt:ISSUER#SUB}), the roles it carries (a token's one role; a JWT's role claim,
 * in its order) and its other claims as text. Holds no part of the credential.
 */
public record Credential(String identity, List<String> roles, Map<String, String> claims) {

    /** The request attribute holding the accepted credential's {@link Credential}. */
    public static final String ATTRIBUTE = "dev.schemabrain.credential";

    public Credential {
        roles = List.copyOf(roles);
        claims = Map.copyOf(claims);
    }

    /**
     * The caller under {@code policy}: its role is the first of the credential's roles the policy defines;
     * when it defines none of them, the first one (which then resolves to nothing, naming it); none without roles.
     */
    public Caller caller(AccessPolicy policy) {
        Optional<String> role = roles.stream().filter(r -> policy != null && policy.roles().containsKey(r)).findFirst()
                .or(() -> roles.stream().findFirst());
        return new Caller(identity, role, claims);
    }
}
