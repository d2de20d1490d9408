package dev.schemabrain.auth;

import dev.schemabrain.testing.InProcessCli;
import dev.schemabrain.testing.StoreBytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code schemabrain token create|list|revoke} as a user runs it, on a real store file. */
class TokenCommandTest {

    @TempDir
    Path dir;

    private InProcessCli.Result run(String... args) {
        String[] all = new String[args.length + 2];
        all[0] = "--store";
        all[1] = dir.resolve("schemabrain.db").toString();
        System.arraycopy(args, 0, all, 2, args.length);
        return InProcessCli.run(all);
    }

    @Test
    void createPrintsTheTokenAloneOnStdout() {
        InProcessCli.Result r = run("token", "create", "ci-bot");
        assertEquals(0, r.exitCode(), r.stderr());
        assertTrue(r.stdout().matches("sbt_[A-Za-z0-9_-]{43}\\R"), r.stdout());
        assertTrue(r.stderr().contains("not shown again"), r.stderr());
    }

    @Test
    void listNamesTheTokenButNeverShowsIt() throws Exception {
        String token = run("token", "create", "ci-bot").stdout().strip();
        InProcessCli.Result r = run("token", "list");
        assertEquals(0, r.exitCode(), r.stderr());
        assertTrue(r.stdout().startsWith("ci-bot\t"), r.stdout());
        assertFalse(r.stdout().contains(token.substring(Tokens.PREFIX.length())), r.stdout());
        assertFalse(StoreBytes.of(dir.resolve("schemabrain.db")).contains(token), "the token is in the store");
    }

    @Test
    void revokeForgetsTheToken() {
        run("token", "create", "ci-bot");
        InProcessCli.Result r = run("token", "revoke", "ci-bot");
        assertEquals(0, r.exitCode(), r.stderr());
        assertEquals("", run("token", "list").stdout());
    }

    @Test
    void theTokensFileIsUsedWhenGiven() {
        Path file = dir.resolve("conf/tokens.json");
        assertEquals(0, run("token", "create", "ci-bot", "--tokens-file", file.toString()).exitCode());
        assertTrue(run("token", "list", "--tokens-file", file.toString()).stdout().startsWith("ci-bot\t"));
        assertEquals("", run("token", "list").stdout(), "the store got the token too");
    }

    @Test
    void aBadNameIsOneSentenceAndExit2() {
        InProcessCli.Result r = run("token", "create", "bad name");
        assertEquals(2, r.exitCode());
        assertEquals("", r.stdout());
        assertEquals("schemabrain: A token name is 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit;"
                + " choose another name.", r.stderr().strip());
    }

    @Test
    void revokingAnUnknownNameIsOneSentenceAndExit2() {
        run("token", "create", "ci-bot");
        InProcessCli.Result r = run("token", "revoke", "nobody");
        assertEquals(2, r.exitCode());
        assertEquals(1, r.stderr().strip().lines().count(), r.stderr());
        assertTrue(r.stderr().startsWith("schemabrain: There is no token named nobody in the store "), r.stderr());
    }
}
