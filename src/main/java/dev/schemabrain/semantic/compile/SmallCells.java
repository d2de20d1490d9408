package dev.schemabrain.semantic.compile;

/**
 * Small-cell suppression: a group about fewer than {@code minGroupSize} distinct people gets no
 * value and is left out of the answer. The compiler writes the test into the same SELECT, so a suppressed
 * value never leaves the database.
 *
 * @param minGroupSize the smallest group whose value is shown; 1 turns suppression off
 * @param subjects     who the people are and how each fact reaches its person
 */
public record SmallCells(int minGroupSize, SubjectGraph subjects) {

    public static final SmallCells OFF = new SmallCells(1, SubjectGraph.EMPTY);

    public SmallCells {
        if (minGroupSize < 1) {
            throw new IllegalArgumentException("the minimum group size must be at least 1, got " + minGroupSize);
        }
    }

    public boolean active() {
        return minGroupSize > 1 && subjects.hasPeople();
    }
}
