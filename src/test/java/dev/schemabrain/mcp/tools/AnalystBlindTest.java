package dev.schemabrain.mcp.tools;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The analyst blind set's figures as a ratchet (issue 45; {@link AnalystBlindSet}, printed by
 * {@link AnalystBlindFigures}): measured on this branch, 41 of 49 statements answered equal to the hand-written SQL,
 * 42 allowed by validate_query. A regression below either fails, and so does any statement answered with other rows
 * than expected, except the one known leak named below.
 */
class AnalystBlindTest {

    @TempDir
    static Path dir;

    /**
     * Known wrong answers: wc14 (tasting visits by room) lists the Private Cellar, whose visits are by three members,
     * because the indexer drafts no entity for tasting_visit (it has no primary key), so its rows are not recognised
     * as about a member.
     * Remove an id from here when it is fixed; never add one.
     */
    static final Set<String> KNOWN_WRONG = Set.of("wc14");

    @Test
    void noNewWrongAnswerAndNoFewerCorrectOnes() throws Exception {
        List<AnalystBlindSet.Outcome> outcomes = AnalystBlindSet.scoreAll(dir);
        String table = AnalystBlindSet.table(outcomes);
        assertEquals(49, outcomes.size(), table);
        Set<String> wrong = outcomes.stream().filter(AnalystBlindSet.Outcome::wrongWithSuccess)
                .map(o -> o.item().id()).collect(Collectors.toSet());
        assertTrue(KNOWN_WRONG.containsAll(wrong), () -> "answered with other rows than expected: " + wrong + "\n" + table);
        assertTrue(outcomes.stream().filter(AnalystBlindSet.Outcome::correct).count() >= 41, table);
        assertTrue(outcomes.stream().filter(AnalystBlindSet.Outcome::validateAllowed).count() >= 42, table);
        for (AnalystBlindSet.Outcome o : outcomes) {
            if (o.item().expect().equals("plain")) {
                assertTrue(o.correct(), () -> o.item().id() + " reads no person and must be answered as it is\n" + table);
            }
        }
    }
}
