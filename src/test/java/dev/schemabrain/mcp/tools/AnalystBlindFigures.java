package dev.schemabrain.mcp.tools;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.util.List;

/**
 * The analyst blind set's figures (issue 45; {@link AnalystBlindSet}), not part of the suite:
 * {@code mvn -B test -Dtest=AnalystBlindFigures -Dsurefire.failIfNoSpecifiedTests=false}. Per schema: statements,
 * how many of them the small-group rule changes, validate_query allowed, execute equal to the expected rows,
 * refused (by kind), and answered with other rows than expected (the worst outcome). The same file compiles against
 * the code before the gate, for the "before" column.
 */
class AnalystBlindFigures {

    @Test
    void analystBlindSet() throws Exception {
        List<AnalystBlindSet.Outcome> outcomes = AnalystBlindSet.scoreAll(Files.createTempDirectory("analyst-blind"));
        System.out.println("Analyst blind set through validate_query and execute (SQLite, K = 5)\n"
                + AnalystBlindSet.table(outcomes));
    }
}
