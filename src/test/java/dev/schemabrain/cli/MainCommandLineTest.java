package dev.schemabrain.cli;

import dev.schemabrain.testing.InProcessCli;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A command line builds only the subcommand it names (picocli instantiates every registered one up front). */
class MainCommandLineTest {

    @Test
    void theNamedSubcommandAloneAfterTheGlobalOptions() {
        assertEquals(List.of("serve"), List.copyOf(Main.commandLine(new Main(), "--store", "index", "serve").getSubcommands().keySet()));
        assertEquals(List.of("audit"), List.copyOf(Main.commandLine(new Main(), "-v", "--store=x.db", "audit", "verify")
                .getSubcommands().keySet()));
    }

    @Test
    void helpAMistakeOrNoWordBuildEveryOne() {
        int all = Main.SUBCOMMANDS.size();
        assertEquals(all, Main.commandLine(new Main(), "help", "serve").getSubcommands().size());
        assertEquals(all, Main.commandLine(new Main(), "indx").getSubcommands().size());
        assertEquals(all, Main.commandLine(new Main(), "--help").getSubcommands().size());
        assertEquals(all, Main.commandLine(new Main()).getSubcommands().size());
    }

    @Test
    void helpForOneCommandAndATypoStillAnswerAsBefore() {
        InProcessCli.Result help = InProcessCli.run("help", "serve");
        assertEquals(0, help.exitCode(), help.stderr());
        assertTrue(help.stdout().contains("--transport"), help.stdout());
        InProcessCli.Result typo = InProcessCli.run("indx");
        assertEquals(2, typo.exitCode());
        assertEquals("schemabrain: 'indx' is not a command of schemabrain; run 'schemabrain index' if you meant it, or"
                + " 'schemabrain --help' for the list.", typo.stderr().strip());
    }
}
