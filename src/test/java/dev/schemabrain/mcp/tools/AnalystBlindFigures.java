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
 *
 * <p>Measured 2026-11-28 (SQLite, K = 5; 49 statements, 19 of them with a small group the rule must leave out):
 * <pre>
 *                     before (fd533e8)               after (branch analyst, gate of e0552f0)
 *            stmts  allowed correct refused wrong   allowed correct refused wrong  unguarded
 * pharmacy     25      14      14      11      0       20      20       5      0      3
 * wineclub     24      18      17       6      1       22      21       2      1      3
 * total        49      32      31      17      1       42      41       7      1      6
 * </pre>
 * All refusals are pii_blocked. Still refused after: a window over an aggregate (ph07, ph22, wc08, wc21) and a
 * window over a CTE's aggregate (ph24) read as listings; an outer aggregate over a CTE's aggregate of a fact two
 * steps from the person (ph14) "cannot be counted"; a string literal containing the word "over" in a select item
 * (ph13's 'c: over 60') reads as a window. Wrong: wc14, and the six "unguarded" statements (over counter_sale and
 * tasting_visit, the two tables without a primary key) ran without the small-group rule, right only because their
 * groups happen to be large.
 */
class AnalystBlindFigures {

    @Test
    void analystBlindSet() throws Exception {
        List<AnalystBlindSet.Outcome> outcomes = AnalystBlindSet.scoreAll(Files.createTempDirectory("analyst-blind"));
        System.out.println("Analyst blind set through validate_query and execute (SQLite, K = 5)\n"
                + AnalystBlindSet.table(outcomes));
    }
}
