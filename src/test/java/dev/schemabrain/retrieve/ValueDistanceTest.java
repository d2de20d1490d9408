package dev.schemabrain.retrieve;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Tables far from the table holding a named value lose score; a schema without keys and other schemas are left
 * alone. Graph: in schema 0, album(0) – track(1) – playlist_track(2) – playlist(3), and an unjoined table(4);
 * schema 1 holds table 5.
 */
class ValueDistanceTest {

    private static final int[][] NEIGHBOURS = {{1}, {0, 2}, {1, 3}, {2}, {}, {}};
    private static final int[] SCHEMA = {0, 0, 0, 0, 0, 1};
    private static final int[] ALL = {0, 1, 2, 3, 4, 5};

    private final ValueDistance distance = new ValueDistance(NEIGHBOURS, SCHEMA);

    @Test
    void tablesLoseByTheirStepsFromTheValueHolder() {
        double[] penalty = distance.penalties(ALL, new boolean[]{true, false, false, false, false, false}, ALL);
        double far = ValueDistance.FAR;
        assertArrayEquals(new double[]{0, 0, ValueDistance.TWO_STEPS, far, far, 0}, penalty, 1e-9);
    }

    @Test
    void aHolderWithoutForeignKeysAnchorsNothing() {
        assertNull(distance.penalties(ALL, new boolean[]{false, false, false, false, true, false}, ALL));
        assertNull(distance.penalties(ALL, new boolean[6], ALL));
    }

    @Test
    void onlyCandidatesAreWalked() {
        // Without track among the candidates, playlist_track is no longer two steps from album.
        int[] candidates = {0, 2, 3};
        int[] at = {0, -1, 1, 2, -1, -1};
        double[] penalty = distance.penalties(candidates, new boolean[]{true, false, false}, at);
        assertArrayEquals(new double[]{0, ValueDistance.FAR, ValueDistance.FAR}, penalty, 1e-9);
    }

    @Test
    void anEmbeddersProfileSetsTheAmounts() {
        ValueDistance profiled = new ValueDistance(NEIGHBOURS, SCHEMA, 0.0, 0.5);
        double[] penalty = profiled.penalties(ALL, new boolean[]{true, false, false, false, false, false}, ALL);
        assertArrayEquals(new double[]{0, 0, 0, 0.5, 0.5, 0}, penalty, 1e-9);
    }
}
