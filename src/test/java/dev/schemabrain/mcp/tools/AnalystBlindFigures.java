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
 * <p>Measured 2026-11-28 (SQLite, K = 5; 49 statements, 19 of them with a small group the rule must leave out). The
 * set was written and committed before it was first scored; the first "after" column is the gate it was blind to
 * (c9b6106), the last the gate after three fixes it showed (so no longer blind for those): a window over grouped rows
 * and a grouped CTE's small groups (0110076), a history without a primary key tied to its person by its foreign key,
 * an aggregate of grouped CTEs ruled where they group unless its people can be counted at the top, windows found in
 * the tree rather than the word OVER in the text.
 * <pre>
 *            stmts | before (fd533e8)            | blind after (c9b6106)       | after the three fixes
 *                  | allowed correct refused wrong | allowed correct refused wrong unguarded | allowed correct wrong unguarded
 * pharmacy     25  |    14      14      11     0 |    20      20       5     0     3 |    25      25     0     0
 * wineclub     24  |    18      17       6     1 |    22      21       2     1     3 |    24      24     0     0
 * total        49  |    32      31      17     1 |    42      41       7     1     6 |    49      49     0     0
 * </pre>
 * All refusals before and in the blind run were pii_blocked. "unguarded": a statement about people answered without
 * the small-group rule (right only because its groups happened to be large).
 *
 * <p>The second set ({@link AnalystBlindSet#SECOND}: bikeshare, skiresort; 53 statements, 12 plain, 20 with a small
 * group the rule must leave out), written and committed (81795c4) before it was first scored, after the first set had
 * been used to fix the gate: blind to the gate as it is (00f9fee). Measured 2026-11-28, SQLite, K = 5; the "before"
 * column is the same harness copied, uncommitted, onto fd533e8 (where the first set gives 31 / 17 / 1, as above).
 * <pre>
 *            stmts | before (fd533e8)                          | blind, gate of 00f9fee
 *                  | allowed correct refused wrong unguarded    | allowed correct refused error wrong unguarded
 * bikeshare    27  |    20      19       7     1     2        |    26      26       1     0     0     0
 * skiresort    26  |    13      11      13     2     2        |    21      17       5     1     3     0
 * total        53  |    33      30      20     3     4        |    47      43       6     1     3     0
 * </pre>
 * Wrong with success in the blind run: sk07, sk21, sk24 (status degraded, zero rows): the catalogue pass_product is
 * taken for a table about people because its column age_band is tagged demographic_protected, so every group of
 * products also needs five distinct products. Before: bs17, sk15 (small groups shown, a history without a primary
 * key), sk21 (zero rows). After two fixes the blind run showed (so no longer blind for them: a UNION ALL of aggregates
 * ruled per branch; the path to a group's people joined as a subquery of two columns of its own names): bikeshare 27
 * allowed and correct; skiresort 22 allowed, 19 correct, 4 refused, 0 errors, the same 3 wrong; total 49 / 46 / 4 / 0 /
 * 3. {@link AnalystBlindSecondTest} pins it.
 */
class AnalystBlindFigures {

    @Test
    void analystBlindSet() throws Exception {
        List<AnalystBlindSet.Outcome> outcomes = AnalystBlindSet.scoreAll(Files.createTempDirectory("analyst-blind"));
        System.out.println("Analyst blind set through validate_query and execute (SQLite, K = 5)\n"
                + AnalystBlindSet.table(outcomes));
    }

    @Test
    void secondAnalystBlindSet() throws Exception {
        List<AnalystBlindSet.Outcome> outcomes = AnalystBlindSet.scoreAll(Files.createTempDirectory("analyst-blind2"),
                AnalystBlindSet.SECOND);
        System.out.println("Second analyst blind set through validate_query and execute (SQLite, K = 5)\n"
                + AnalystBlindSet.table(outcomes));
    }
}
