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
 * {@link AnalystBlindFigures}): every one of the 49 statements allowed by validate_query and answered by execute
 * equal to the hand-written SQL with the small-group rule written out, none without the rule where its rows are
 * about people. A regression fails.
 */
class AnalystBlindTest {

    @TempDir
    static Path dir;

    @Test
    void noNewWrongAnswerAndNoFewerCorrectOnes() throws Exception {
        List<AnalystBlindSet.Outcome> outcomes = AnalystBlindSet.scoreAll(dir);
        String table = AnalystBlindSet.table(outcomes);
        assertEquals(49, outcomes.size(), table);
        Set<String> wrong = outcomes.stream().filter(AnalystBlindSet.Outcome::wrongWithSuccess)
                .map(o -> o.item().id()).collect(Collectors.toSet());
        assertTrue(wrong.isEmpty(), () -> "answered with other rows than expected: " + wrong + "\n" + table);
        assertEquals(49, outcomes.stream().filter(AnalystBlindSet.Outcome::correct).count(), table);
        assertEquals(49, outcomes.stream().filter(AnalystBlindSet.Outcome::validateAllowed).count(), table);
        assertEquals(0, outcomes.stream().filter(AnalystBlindSet.Outcome::unguarded).count(), table);
        for (AnalystBlindSet.Outcome o : outcomes) {
            if (o.item().expect().equals("plain")) {
                assertTrue(o.correct(), () -> o.item().id() + " reads no person and must be answered as it is\n" + table);
            }
        }
    }
}
