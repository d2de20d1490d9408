package dev.schemabrain.auth;

import dev.schemabrain.error.SchemaBrainException;
import dev.schemabrain.error.UserError;
import dev.schemabrain.testing.StoreBytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Bearer tokens in both homes, the store (a real SQLite file) and a tokens file: made, listed, checked, revoked. */
class TokenStoreTest {

    enum Home {
        STORE {
            TokenStore open(Path dir) {
                return new StoreTokens(dir.resolve("schemabrain.db"));
            }

            String bytesOnDisk(Path dir) throws Exception {
                return StoreBytes.of(dir.resolve("schemabrain.db"));
            }
        },
        FILE {
            TokenStore open(Path dir) {
                return new FileTokens(dir.resolve("tokens.json"));
            }

            String bytesOnDisk(Path dir) throws Exception {
                return new String(Files.readAllBytes(dir.resolve("tokens.json")), StandardCharsets.ISO_8859_1);
            }
        };

        abstract TokenStore open(Path dir);

        abstract String bytesOnDisk(Path dir) throws Exception;
    }

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(Home.class)
    void aCreatedTokenIsKnownByItsName(Home home) throws Exception {
        TokenStore tokens = home.open(dir);
        String token = tokens.create("ci-bot");
        assertEquals(new Verdict.Caller("token:ci-bot"), new BearerTokens(tokens).check(token));
    }

    @ParameterizedTest
    @EnumSource(Home.class)
    void aTokenNeverMadeIsRefused(Home home) throws Exception {
        TokenStore tokens = home.open(dir);
        String token = tokens.create("ci-bot");
        String other = Tokens.PREFIX + "A" + token.substring(Tokens.PREFIX.length() + 1);
        assertInstanceOf(Verdict.Invalid.class, new BearerTokens(tokens).check(token.equals(other) ? other + "x" : other));
    }

    @ParameterizedTest
    @EnumSource(Home.class)
    void onlyTheHashReachesTheDisk(Home home) throws Exception {
        String token = home.open(dir).create("ci-bot");
        String disk = home.bytesOnDisk(dir);
        assertFalse(disk.contains(token), "the token is on disk");
        assertFalse(disk.contains(token.substring(Tokens.PREFIX.length())), "the token's random part is on disk");
        assertTrue(disk.contains(Tokens.hash(token)), "the token's hash is not on disk, so the test looked in the wrong place");
    }

    @ParameterizedTest
    @EnumSource(Home.class)
    void listShowsNamesInOrder(Home home) throws Exception {
        TokenStore tokens = home.open(dir);
        tokens.create("zeta");
        tokens.create("alpha");
        assertEquals(List.of("alpha", "zeta"), tokens.list().stream().map(TokenEntry::name).toList());
    }

    @ParameterizedTest
    @EnumSource(Home.class)
    void aRevokedTokenIsRefused(Home home) throws Exception {
        TokenStore tokens = home.open(dir);
        String token = tokens.create("ci-bot");
        tokens.create("other");
        tokens.revoke("ci-bot");
        assertInstanceOf(Verdict.Invalid.class, new BearerTokens(tokens).check(token));
        assertEquals(List.of("other"), tokens.list().stream().map(TokenEntry::name).toList());
    }

    @ParameterizedTest
    @EnumSource(Home.class)
    void aRunningCheckerSeesARevocationWithinASecond(Home home) throws Exception {
        TokenStore tokens = home.open(dir);
        String token = tokens.create("ci-bot");
        BearerTokens checker = new BearerTokens(tokens);
        assertEquals(new Verdict.Caller("token:ci-bot"), checker.check(token));
        tokens.revoke("ci-bot");
        Thread.sleep(1_100);
        assertInstanceOf(Verdict.Invalid.class, checker.check(token));
    }

    @Test
    void concurrentChecksAcrossReloadsAllSucceed() throws Exception {
        TokenStore tokens = Home.STORE.open(dir);
        String token = tokens.create("ci-bot");
        BearerTokens checker = new BearerTokens(tokens);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            long until = System.nanoTime() + 2_500_000_000L;   // spans two reloads
            List<Future<Integer>> runs = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                runs.add(pool.submit(() -> {
                    int refused = 0;
                    while (System.nanoTime() < until) {
                        if (!checker.check(token).equals(new Verdict.Caller("token:ci-bot"))) {
                            refused++;
                        }
                    }
                    return refused;
                }));
            }
            for (Future<Integer> run : runs) {
                assertEquals(0, run.get());
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @ParameterizedTest
    @EnumSource(Home.class)
    void aSecondTokenOfTheSameNameIsRefused(Home home) throws Exception {
        UserError e = refusedBesideCiBot(home, tokens -> tokens.create("ci-bot"));
        assertEquals("A token named ci-bot exists already; revoke it first or choose another name.", e.getMessage());
        assertEquals(2, e.failure().exitCode());
    }

    @ParameterizedTest
    @EnumSource(Home.class)
    void revokingANameWithoutTokenIsRefused(Home home) throws Exception {
        UserError e = refusedBesideCiBot(home, tokens -> tokens.revoke("nobody"));
        assertTrue(e.getMessage().startsWith("There is no token named nobody in "), e.getMessage());
    }

    interface Operation {
        void on(TokenStore tokens) throws Exception;
    }

    /** What {@code operation} throws on a store holding the token ci-bot. */
    private UserError refusedBesideCiBot(Home home, Operation operation) throws Exception {
        TokenStore tokens = home.open(dir);
        tokens.create("ci-bot");
        return assertThrows(UserError.class, () -> operation.on(tokens));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "-leading-dash", "has space", "slash/name", "quote\"name", "tab\tname", "名前",
            "a1234567890123456789012345678901234567890123456789012345678901234"})
    void badNamesAreRefusedInOneSentence(String name) {
        UserError e = assertThrows(UserError.class, () -> Tokens.checkName(name));
        assertTrue(e.getMessage().endsWith("choose another name."), e.getMessage());
        assertEquals(SchemaBrainException.Kind.USAGE, e.failure());
    }

    @Test
    void aNameOfSixtyFourCharactersIsAccepted() throws Exception {
        String name = "a".repeat(64);
        assertEquals(name, Tokens.checkName(name));
    }

    @Test
    void tokensAre256RandomBitsInUrlSafeBase64() {
        String a = Tokens.newToken();
        String b = Tokens.newToken();
        assertTrue(a.matches("sbt_[A-Za-z0-9_-]{43}"), a.length() + " characters");
        assertNotEquals(a, b);
    }

    @Test
    void theTokensFileIsPrivate() throws Exception {
        new FileTokens(dir.resolve("tokens.json")).create("ci-bot");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("tokens.json"))));
    }

    @Test
    void aTokensFileOthersCanWriteIsRefused() throws Exception {
        Path file = dir.resolve("tokens.json");
        new FileTokens(file).create("ci-bot");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-rw-"));
        SchemaBrainException e = assertThrows(SchemaBrainException.class, () -> new FileTokens(file).list());
        assertTrue(e.getMessage().contains("chmod 600"), e.getMessage());
    }
}
