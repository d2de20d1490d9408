package dev.schemabrain.mining;

import dev.schemabrain.catalog.QualifiedName;

import java.util.List;
import java.util.Set;

/**
 * A filter the query log shows on a table's column: {@code column operator values}, with the values kept only
 * where the example keeps them (a value the catalog already shows for a non-PII column), else none. Counted over
 * distinct statements and their observations; the raw material of segment drafts.
 *
 * @param fingerprints the statements that use it
 * @param lastSeen     when one of them was last observed (ISO-8601, from the store), or null before merging
 */
public record ObservedFilter(QualifiedName table, String column, String operator, List<String> values,
                             int statements, long observations, Set<String> fingerprints, String lastSeen) {

    public ObservedFilter {
        values = List.copyOf(values);
        fingerprints = Set.copyOf(fingerprints);
    }

    /** The filter as SQL text, e.g. {@code billing.invoice.status = 'paid'}. */
    public String describe() {
        String v = values.isEmpty() ? (operator.startsWith("is") ? "" : operator.endsWith("in") ? " (?)" : " ?")
                : operator.endsWith("in") ? " (" + String.join(", ", values) + ")" : " " + values.get(0);
        return table + "." + column + " " + operator + v;
    }

    ObservedFilter seen(String at) {
        return new ObservedFilter(table, column, operator, values, statements, observations, fingerprints, at);
    }
}
