package dev.schemabrain.retrieve;

import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.Table;

import java.util.List;

/**
 * One ranked table.
 *
 * @param score      in [0, 1]; the envelope's confidence is derived from the top one
 * @param bestColumn            the column that matched the question best, or null when none stands out
 * @param bestColumnDescription that column's description
 * @param matchedTerms          the question's words found in the table's names and descriptions
 * @param matchedValue          the indexed value of this table the question names, or null
 */
public record TableHit(Table table, double score, Column bestColumn, String bestColumnDescription,
                       List<String> matchedTerms, MatchedValue matchedValue) {

    /** A value of {@code column} that the question names as a phrase (only ever a value the question itself contains). */
    public record MatchedValue(String column, String value) {
    }

    public TableHit {
        if (score < 0 || score > 1) {
            throw new IllegalArgumentException("score must lie in [0, 1], got " + score);
        }
        matchedTerms = List.copyOf(matchedTerms);
    }

    public TableHit(Table table, double score, Column bestColumn, String bestColumnDescription, List<String> matchedTerms) {
        this(table, score, bestColumn, bestColumnDescription, matchedTerms, null);
    }
}
