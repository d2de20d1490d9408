package dev.schemabrain.access;

/**
 * A role's row filter: every statement that reaches {@code entity} keeps only the rows whose {@code column}
 * ({@code table.column} of that entity) compares with {@code op} to the caller's {@code claim}, bound as a
 * parameter. A caller without the claim is refused.
 */
public record RowFilter(String entity, String column, Op op, String claim) {

    public enum Op {
        /** column = claim */
        EQ,
        /** column IN (the claim's values, comma-separated) */
        IN
    }
}
