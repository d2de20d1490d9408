package dev.schemabrain.cli;

import dev.schemabrain.testing.InProcessCli;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A word that is no command gets one sentence naming the closest one, not picocli's "Unmatched argument". */
class UnknownCommandTest {

    @Test
    void aTypoNamesTheCommandMeant() {
        InProcessCli.Result r = InProcessCli.run("indx");
        assertEquals(2, r.exitCode());
        assertEquals("schemabrain: 'indx' is not a command of schemabrain; run 'schemabrain index' if you meant it, or"
                + " 'schemabrain --help' for the list.", r.stderr().strip());
    }

    @Test
    void aSubcommandTypoToo() {
        InProcessCli.Result r = InProcessCli.run("audit", "verfy");
        assertEquals(2, r.exitCode());
        assertTrue(r.stderr().contains("run 'schemabrain audit verify' if you meant it"), r.stderr());
    }

    @Test
    void hostileWordsAreNotEchoed() {
        for (String word : new String[]{"x\u001b[2J\nschemabrain: all good", "y".repeat(5_000)}) {
            InProcessCli.Result r = InProcessCli.run(word);
            assertEquals(2, r.exitCode());
            assertEquals(1, r.stderr().lines().count(), r.stderr());
            assertFalse(r.stderr().contains("\u001b") || r.stderr().contains("yyyyyyyyyy"), r.stderr());
            assertTrue(r.stderr().startsWith("schemabrain: (the value given) is not a command"), r.stderr());
        }
    }

    @Test
    void theOperatorCommandsExist() {
        for (String command : new String[]{"init", "doctor", "check"}) {
            InProcessCli.Result r = InProcessCli.run(command, "--help");
            assertEquals(0, r.exitCode(), command + r.stderr());
            assertFalse(r.stderr().contains("Unmatched"), r.stderr());
        }
    }
}
