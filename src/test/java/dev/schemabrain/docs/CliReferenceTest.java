package dev.schemabrain.docs;

import dev.schemabrain.testing.InProcessCli;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** docs/cli.md shows what --help prints, word for word, for the operator commands and the top level. */
class CliReferenceTest {

    @ParameterizedTest
    @ValueSource(strings = {"", "init", "doctor", "check", "serve"})
    void theSectionIsTheHelp(String command) throws Exception {
        InProcessCli.Result help = command.isEmpty() ? InProcessCli.run("--help") : InProcessCli.run(command, "--help");
        assertEquals(0, help.exitCode(), help.stderr());
        String doc = Files.readString(Path.of("docs", "cli.md"));
        assertTrue(doc.contains("```\n" + help.stdout() + "```\n"), "docs/cli.md does not show '" + command
                + " --help' as it prints:\n" + help.stdout());
    }
}
