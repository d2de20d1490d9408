package dev.schemabrain.sql.guard;

import dev.schemabrain.catalog.QualifiedName;
import net.sf.jsqlparser.statement.select.Select;

import java.util.List;
import java.util.SortedSet;

/**
 * A SELECT bound to the catalog.
 *
 * @param tables  every catalog table it reads, anywhere (subqueries, CTEs, filters)
 * @param outputs its result columns in order, with their lineage
 * @param filters columns read by WHERE, HAVING, QUALIFY, JOIN ON/USING and FILTER clauses, and everything a
 *                subquery inside them reads: a filter reveals facts about them without showing them
 * @param shaping columns that order, group or partition rows (GROUP BY, ORDER BY, PARTITION BY)
 * @param ast     the parsed statement, for the rewriting step; not to be changed by callers
 */
public record BoundSelect(SortedSet<QualifiedName> tables, List<OutputColumn> outputs, SortedSet<ColumnRef> filters,
                          SortedSet<ColumnRef> shaping, Select ast) implements GuardResult {

    public BoundSelect {
        tables = java.util.Collections.unmodifiableSortedSet(new java.util.TreeSet<>(tables));
        outputs = List.copyOf(outputs);
        filters = java.util.Collections.unmodifiableSortedSet(new java.util.TreeSet<>(filters));
        shaping = java.util.Collections.unmodifiableSortedSet(new java.util.TreeSet<>(shaping));
    }
}
