package dev.schemabrain.mcp.tools;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The second analyst blind set (issue 45; {@link AnalystBlindSet#SECOND}, printed by
 * {@link AnalystBlindFigures#secondAnalystBlindSet}) pinned as first measured, blind, on the gate of 00f9fee:
 * 53 statements, 43 answered equal to the hand-written SQL, 6 refused (pii_blocked), 1 error, and THREE ANSWERED
 * WRONG WITH SUCCESS (status degraded, zero rows where the hand-written SQL has rows):
 * <ul>
 * <li>sk07 (passes sold and revenue by product), sk21 (every product with sales, LEFT JOIN and COALESCE), sk24 (rides
 * per pass by product length): the catalogue table pass_product is taken for a table about people because its column
 * age_band is tagged demographic_protected, so each group also gets {@code count(DISTINCT pr.product_id) >= 5},
 * which no group of products (one product per group, or at most three) meets; every group is left out.</li>
 * </ul>
 * Not wrong but not answered: sk02 and sk06 (plain, catalogue only) and sk18, sk22 (about guests) refused for the same
 * age_band tag. Fixed after the blind run (so no longer blind for them): bs22 and sk23 (UNION ALL of two grouped
 * aggregates, refused as listing rows: each branch is now a level of the small-group rule) and sk26 (a total two steps
 * from a guest failed with schema_drift, as the table joined to count guests made an unqualified column ambiguous: the
 * path is now joined as a subquery showing only two columns of its own names), 43 -> 46 correct.
 *
 * <p>A ratchet: a new wrong answer, a statement answered correctly no longer so, or one about people answered without
 * the small-group rule fails; a statement fixed fails too, so that the pin and this comment are brought up to date.
 */
class AnalystBlindSecondTest {

    static final Set<String> WRONG_AS_MEASURED = Set.of("sk07", "sk21", "sk24");
    static final Set<String> NOT_CORRECT_AS_MEASURED = Set.of("sk07", "sk21", "sk24", "sk02", "sk06", "sk18", "sk22");

    @TempDir
    static Path dir;

    @Test
    void secondSetAsMeasured() throws Exception {
        List<AnalystBlindSet.Outcome> outcomes = AnalystBlindSet.scoreAll(dir, AnalystBlindSet.SECOND);
        String table = AnalystBlindSet.table(outcomes);
        assertEquals(53, outcomes.size(), table);
        Set<String> wrong = outcomes.stream().filter(AnalystBlindSet.Outcome::wrongWithSuccess)
                .map(o -> o.item().id()).collect(Collectors.toCollection(TreeSet::new));
        assertEquals(new TreeSet<>(WRONG_AS_MEASURED), wrong, table);
        Set<String> notCorrect = outcomes.stream().filter(o -> !o.correct())
                .map(o -> o.item().id()).collect(Collectors.toCollection(TreeSet::new));
        assertTrue(NOT_CORRECT_AS_MEASURED.containsAll(notCorrect), () -> "newly not correct: " + notCorrect + "\n" + table);
        assertEquals(46, outcomes.stream().filter(AnalystBlindSet.Outcome::correct).count(), table);
        assertEquals(0, outcomes.stream().filter(AnalystBlindSet.Outcome::unguarded).count(), table);
    }
}
