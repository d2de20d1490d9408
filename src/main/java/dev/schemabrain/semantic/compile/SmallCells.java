package dev.schemabrain.semantic.compile;

import dev.schemabrain.catalog.QualifiedName;

import java.util.Set;

/**
 * Small-cell suppression (SPEC §10.8): in a metric over people, a group with fewer than
 * {@code minGroupSize} distinct people gets no value. The compiler writes the test into the same
 * SELECT, so a suppressed value never leaves the database.
 *
 * @param minGroupSize the smallest group whose value is shown; 1 turns suppression off
 * @param personal     the tables that hold personal data (any PII-tagged column); their rows are people,
 *                     or belong to one
 */
public record SmallCells(int minGroupSize, Set<QualifiedName> personal) {

    public static final SmallCells OFF = new SmallCells(1, Set.of());

    public SmallCells {
        if (minGroupSize < 1) {
            throw new IllegalArgumentException("the minimum group size must be at least 1, got " + minGroupSize);
        }
        personal = Set.copyOf(personal);
    }

    public boolean active() {
        return minGroupSize > 1 && !personal.isEmpty();
    }
}
