package dev.schemabrain.cli;

import dev.schemabrain.auth.AuthFilter;
import dev.schemabrain.store.Store;
import dev.schemabrain.store.StoreLocation;
import dev.schemabrain.store.Stores;
import dev.schemabrain.auth.BearerTokens;
import dev.schemabrain.auth.FileTokens;
import dev.schemabrain.auth.JwtSettings;
import dev.schemabrain.auth.JwtVerifier;
import dev.schemabrain.auth.StoreTokens;
import dev.schemabrain.auth.TokenStore;
import dev.schemabrain.error.SchemaBrainException;
import dev.schemabrain.error.UserError;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.Optional;

/**
 * How the HTTP service authenticates callers: SchemaBrain bearer tokens, a JWT resource
 * server, or both. Tokens are checked when {@code --tokens-file} is given or the store holds a token;
 * JWTs when {@code --jwt-jwks} is given.
 */
final class AuthOptions {

    @Option(names = "--tokens-file", paramLabel = "FILE",
            description = "Keep bearer token hashes in this private file instead of the store.")
    Path tokensFile;

    @Option(names = "--jwt-jwks", paramLabel = "URL|FILE",
            description = "Accept JWT access tokens signed by a key in this JWKS (an https URL, or a file).")
    String jwks;

    @Option(names = "--jwt-issuer", paramLabel = "ISS", description = "The iss a JWT must carry exactly.")
    String issuer;

    @Option(names = "--jwt-audience", paramLabel = "AUD", description = "The aud a JWT must contain exactly.")
    String audience;

    @Option(names = "--jwt-scope", paramLabel = "SCOPE",
            description = "A scope a JWT must grant (e.g. schemabrain:read); without it the call is 403 insufficient_scope.")
    String scope;

    @Option(names = "--jwt-role-claim", paramLabel = "NAME",
            description = "The JWT claim naming the caller's roles under --access-policy: a list, or a space-separated"
                    + " string; the first role the policy defines counts (default: ${DEFAULT-VALUE}).",
            defaultValue = JwtSettings.DEFAULT_ROLE_CLAIM)
    String roleClaim = JwtSettings.DEFAULT_ROLE_CLAIM;

    /** Where token hashes live: {@code tokensFile} when given, otherwise the store. */
    static TokenStore tokenStore(Path tokensFile, StoreLocation store) {
        return tokensFile != null ? new FileTokens(tokensFile) : new StoreTokens(store);
    }

    /**
     * The filter to put in front of {@code /mcp}, or empty when no authentication is configured (no
     * --tokens-file, no token in the store, no --jwt-jwks): then the service must stay on loopback.
     */
    Optional<AuthFilter> filter(StoreLocation store) throws SchemaBrainException {
        Optional<JwtVerifier> jwt = jwt();
        BearerTokens tokens = new BearerTokens(tokenStore(tokensFile, store));
        Optional<BearerTokens> bearer = tokensFile != null || tokens.any() ? Optional.of(tokens) : Optional.empty();
        if (bearer.isEmpty() && jwt.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new AuthFilter(bearer, jwt));
    }

    private Optional<JwtVerifier> jwt() throws SchemaBrainException {
        if (jwks == null) {
            if (issuer != null || audience != null || scope != null) {
                throw new UserError("--jwt-issuer, --jwt-audience and --jwt-scope need --jwt-jwks, the keys the tokens are signed with.");
            }
            return Optional.empty();
        }
        if (issuer == null || audience == null) {
            throw new UserError("--jwt-jwks needs --jwt-issuer and --jwt-audience, so tokens meant for another server are refused.");
        }
        if (scope != null && (scope.isBlank() || scope.chars().anyMatch(c -> c <= ' ' || c == '"' || c == '\\'))) {
            throw new UserError("--jwt-scope is one scope without spaces or quotes, such as schemabrain:read.");
        }
        if (roleClaim.isBlank() || roleClaim.chars().anyMatch(c -> c <= ' ')) {
            throw new UserError("--jwt-role-claim is one claim name without spaces, such as roles.");
        }
        return Optional.of(JwtVerifier.of(new JwtSettings(jwks, issuer, audience, Optional.ofNullable(scope), roleClaim)));
    }
}
