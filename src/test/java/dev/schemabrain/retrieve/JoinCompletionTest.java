package dev.schemabrain.retrieve;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

/**
 * The link table between two top hits moves up after them. Graph: territories(0) – employee_territories(1) –
 * employees(2); states(3) unjoined; orders(4) – employees(2); a long chain 5 – 6 – 7 – 8.
 */
class JoinCompletionTest {

    private static final int[][] NEIGHBOURS = {{1}, {0, 2}, {1, 4}, {}, {2}, {6}, {5, 7}, {6, 8}, {7}};
    private static final int[] ALL = {0, 1, 2, 3, 4, 5, 6, 7, 8};

    private final JoinCompletion completion = new JoinCompletion(NEIGHBOURS);

    @Test
    void theBridgeBetweenTwoAnchorsFollowsThem() {
        int[] ranking = {0, 3, 2, 4, 1};
        assertArrayEquals(new int[]{0, 3, 2, 1, 4}, completion.complete(ranking, ALL, ALL, 5));
    }

    @Test
    void aBridgeFromBeyondTheListIsAddedAndTheListKeepsItsLength() {
        assertArrayEquals(new int[]{0, 2, 3, 1}, completion.complete(new int[]{0, 2, 3, 4}, ALL, ALL, 4));
    }

    @Test
    void joinedOrUnjoinedAnchorsAndLongPathsAddNothing() {
        int[][] unchanged = {{1, 2, 3, 0}, {0, 3, 5, 1}, {5, 8, 3, 6}};
        for (int[] ranking : unchanged) {
            assertArrayEquals(ranking, completion.complete(ranking, ALL, ALL, ranking.length));
        }
    }

    @Test
    void tablesOutsideTheCandidatesAreNotWalked() {
        int[] candidates = {0, 2, 3};
        int[] at = {0, -1, 1, 2, -1, -1, -1, -1, -1};
        assertArrayEquals(new int[]{0, 1, 2}, completion.complete(new int[]{0, 1, 2}, candidates, at, 3));
    }
}
