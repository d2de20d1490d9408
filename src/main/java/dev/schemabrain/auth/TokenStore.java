package dev.schemabrain.auth;

import dev.schemabrain.error.SchemaBrainException;

import java.util.List;

/** Where the hashes of bearer tokens live: the store (default) or a private tokens file. */
public sealed interface TokenStore permits StoreTokens, FileTokens {

    /** Makes a token named {@code name}, keeps its hash, and answers the token, which nothing keeps. */
    String create(String name) throws SchemaBrainException;

    /** Every token's entry, by name. */
    List<TokenEntry> list() throws SchemaBrainException;

    /** Forgets the token named {@code name}; refuses a name that has none. */
    void revoke(String name) throws SchemaBrainException;

    /** Where the hashes are, for messages. */
    String describe();
}
