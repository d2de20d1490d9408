package dev.schemabrain.auth;

import dev.schemabrain.error.SchemaBrainException;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Where the hashes of bearer tokens live: the store (default) or a private tokens file. */
public sealed interface TokenStore permits StoreTokens, FileTokens {

    /** Makes a token named {@code name}, keeps its hash, and answers the token, which nothing keeps. */
    default String create(String name) throws SchemaBrainException {
        return create(name, Optional.empty(), Map.of());
    }

    /**
     * As {@link #create(String)}, for a bearer with {@code role} and {@code claims} under an access policy;
     * both are checked by {@link Tokens#checkRole} and {@link Tokens#checkClaims}.
     */
    String create(String name, Optional<String> role, Map<String, String> claims) throws SchemaBrainException;

    /** Every token's entry, by name. */
    List<TokenEntry> list() throws SchemaBrainException;

    /** Forgets the token named {@code name}; refuses a name that has none. */
    void revoke(String name) throws SchemaBrainException;

    /** Where the hashes are, for messages. */
    String describe();
}
