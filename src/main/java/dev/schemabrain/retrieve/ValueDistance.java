package dev.schemabrain.retrieve;

import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * Value-anchored distance: a value the question names pins the question to the table holding it, and the
 * question's other words then name tables joined to that one. A word that names a table only by a synonym
 * ("songs" for a table of tracks) is matched by meaning to whichever table the embedding model likes best,
 * often one the value's table does not join to; so a table of the same schema that is more than one
 * foreign-key step from every value-holding table loses a little, and one that is not joined within
 * {@link #REACH} steps loses more.
 * <p>
 * Only holders with foreign keys count (a schema without declared keys is left alone), and only tables of a
 * holder's own schema are moved: in a pooled search a value found in one database says nothing about the
 * tables of another.
 */
final class ValueDistance {

    /** Subtracted from a table two steps from the nearest value holder. */
    static final double TWO_STEPS = 0.1;
    /** Subtracted from a table of a holder's schema not joined to any holder within {@link #REACH} steps. */
    static final double FAR = 0.4;
    static final int REACH = 2;

    private final int[][] neighbours;
    private final int[] schemaOf;
    private final double twoSteps;
    private final double far;

    /**
     * @param neighbours each table's foreign-key neighbours, both directions, by table position
     * @param schemaOf   each table's schema as a small number
     */
    ValueDistance(int[][] neighbours, int[] schemaOf) {
        this(neighbours, schemaOf, TWO_STEPS, FAR);
    }

    /** With other amounts than {@link #TWO_STEPS} and {@link #FAR} (an embedder's own profile). */
    ValueDistance(int[][] neighbours, int[] schemaOf, double twoSteps, double far) {
        this.neighbours = neighbours;
        this.schemaOf = schemaOf;
        this.twoSteps = twoSteps;
        this.far = far;
    }

    /**
     * The amount each candidate loses, by candidate position; null when no value-holding candidate has a
     * foreign key (nothing to anchor on).
     *
     * @param holds whether the candidate at each position holds a value the question names
     * @param at    for each table, its position among the candidates, or -1
     */
    double[] penalties(int[] candidates, boolean[] holds, int[] at) {
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        for (int k = 0; k < candidates.length; k++) {
            if (holds[k] && neighbours[candidates[k]].length > 0) {
                queue.add(candidates[k]);
            }
        }
        if (queue.isEmpty()) {
            return null; // most questions: nothing allocated per table
        }
        int[] steps = new int[neighbours.length];
        Arrays.fill(steps, -1);
        boolean[] anchoredSchema = new boolean[neighbours.length];
        for (int t : queue) {
            steps[t] = 0;
            anchoredSchema[schemaOf[t]] = true;
        }
        while (!queue.isEmpty()) {
            int t = queue.poll();
            if (steps[t] >= REACH) {
                continue;
            }
            for (int j : neighbours[t]) {
                if (steps[j] < 0 && at[j] >= 0) {
                    steps[j] = steps[t] + 1;
                    queue.add(j);
                }
            }
        }
        double[] penalty = new double[candidates.length];
        for (int k = 0; k < candidates.length; k++) {
            int t = candidates[k];
            if (anchoredSchema[schemaOf[t]]) {
                penalty[k] = steps[t] < 0 ? far : steps[t] >= 2 ? twoSteps : 0;
            }
        }
        return penalty;
    }
}
