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
 */
public record TableHit(Table table, double score, Column bestColumn, String bestColumnDescription,
                       List<String> matchedTerms) {

    public TableHit {
        if (score < 0 || score > 1) {
            throw new IllegalArgumentException("score must lie in [0, 1], got " + score);
        }
        matchedTerms = List.copyOf(matchedTerms);
    }
}
