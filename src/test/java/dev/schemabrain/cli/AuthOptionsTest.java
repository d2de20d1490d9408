package dev.schemabrain.cli;

import dev.schemabrain.auth.AuthFilter;
import dev.schemabrain.auth.StoreTokens;
import dev.schemabrain.error.UserError;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import dev.schemabrain.store.StoreLocation;
import java.nio.file.Path;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which authentication the serve options turn on, and the combinations they refuse. */
class AuthOptionsTest {

    @Command(name = "serve")
    static final class Holder {
        @Mixin
        AuthOptions auth;
    }

    @TempDir
    Path dir;

    private AuthOptions parse(String... args) {
        Holder holder = new Holder();
        new CommandLine(holder).parseArgs(args);
        return holder.auth;
    }

    private StoreLocation store() {
        return StoreLocation.file(dir.resolve("schemabrain.db"));
    }

    @Test
    void nothingConfiguredMeansNoFilter() throws Exception {
        assertEquals(Optional.empty(), parse().filter(store()));
    }

    @Test
    void aTokenInTheStoreTurnsTokensOn() throws Exception {
        new StoreTokens(store()).create("ci-bot");
        Optional<AuthFilter> filter = parse().filter(store());
        assertTrue(filter.isPresent());
        assertTrue(filter.get().toString().contains("tokens=BearerTokens[the store "), filter.get().toString());
    }

    @Test
    void aTokensFileTurnsTokensOnEvenEmpty() throws Exception {
        assertTrue(parse("--tokens-file", dir.resolve("tokens.json").toString()).filter(store()).isPresent());
    }

    @Test
    void jwtOptionsWithoutJwksAreRefused() {
        UserError e = assertThrows(UserError.class, () -> parse("--jwt-issuer", "https://a/").filter(store()));
        assertEquals("--jwt-issuer, --jwt-audience and --jwt-scope need --jwt-jwks, the keys the tokens are signed with.", e.getMessage());
    }

    @Test
    void jwksWithoutAudienceIsRefused() {
        UserError e = assertThrows(UserError.class,
                () -> parse("--jwt-jwks", "https://a/jwks.json", "--jwt-issuer", "https://a/").filter(store()));
        assertTrue(e.getMessage().startsWith("--jwt-jwks needs --jwt-issuer and --jwt-audience"), e.getMessage());
    }

    @Test
    void aScopeWithASpaceIsRefused() {
        UserError e = assertThrows(UserError.class, () -> parse("--jwt-jwks", "https://a/jwks.json", "--jwt-issuer", "https://a/",
                "--jwt-audience", "x", "--jwt-scope", "a b").filter(store()));
        assertTrue(e.getMessage().startsWith("--jwt-scope is one scope"), e.getMessage());
    }

    @Test
    void jwksIssuerAndAudienceTurnJwtsOn() throws Exception {
        Optional<AuthFilter> filter = parse("--jwt-jwks", "https://auth.example.test/jwks.json", "--jwt-issuer", "https://auth.example.test/",
                "--jwt-audience", "https://sb.example.test/mcp").filter(store());
        assertTrue(filter.isPresent());
        assertTrue(filter.get().toString().contains("tokens=off, jwt=JwtVerifier[issuer=https://auth.example.test/"), filter.get().toString());
    }
}
