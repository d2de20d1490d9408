package dev.schemabrain.semantic;

import dev.schemabrain.catalog.QualifiedName;

import java.util.List;

/**
 * A filter the query log shows on a table's column, summed over the stored statements that use it:
 * {@code column operator values}, the values being the literals the examples kept ({@code 'paid'}), none when
 * they were replaced by placeholders.
 *
 * @param operator   as the analyser writes it: {@code =}, {@code <>}, {@code in}, {@code not in}, {@code is null} …
 * @param statements distinct statements using it
 * @param lastSeen   when one of them was last observed (ISO-8601)
 */
public record QueryLogFilter(QualifiedName table, String column, String operator, List<String> values, int statements,
                             long observations, String lastSeen) {

    public QueryLogFilter {
        values = List.copyOf(values);
    }
}
