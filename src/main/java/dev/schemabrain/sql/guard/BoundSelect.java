package dev.schemabrain.sql.guard;

import dev.schemabrain.catalog.QualifiedName;
import net.sf.jsqlparser.statement.select.Select;

import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * A SELECT bound to the catalog.
 *
 * @param tables  every catalog table it reads, anywhere (subqueries, CTEs, filters)
 * @param outputs its result columns in order, with their lineage
 * @param filters columns read by WHERE, HAVING, QUALIFY, JOIN ON/USING and FILTER clauses, and everything a
 *                subquery inside them reads: a filter reveals facts about them without showing them
 * @param shaping columns that order, group or partition rows (GROUP BY, ORDER BY, PARTITION BY)
 * @param aggregatePredicates columns read by a condition inside an aggregate (CASE WHEN, FILTER, a comparison),
 *                which decides which rows of a group count: also in {@code filters}
 * @param ast     the checked statement with its literals and names in the engine's canonical forms, for the
 *                rewriting step; not to be changed by callers
 * @param literals the values of the string literals the rendering writes, for {@link WrittenSql} to compare with
 *                what the engine's lexer reads in the text that runs
 * @param unrendered why the statement could not be written back in canonical form, if it could not: it must not
 *                run, but the caller may first give a more useful refusal (a PII rule) than this one
 */
public record BoundSelect(SortedSet<QualifiedName> tables, List<OutputColumn> outputs, SortedSet<ColumnRef> filters,
                          SortedSet<ColumnRef> shaping, SortedSet<ColumnRef> aggregatePredicates, Select ast, List<String> literals,
                          Optional<Refusal> unrendered) implements GuardResult {

    public BoundSelect {
        tables = Collections.unmodifiableSortedSet(new TreeSet<>(tables));
        outputs = List.copyOf(outputs);
        filters = Collections.unmodifiableSortedSet(new TreeSet<>(filters));
        shaping = Collections.unmodifiableSortedSet(new TreeSet<>(shaping));
        literals = List.copyOf(literals);
        aggregatePredicates = Collections.unmodifiableSortedSet(new TreeSet<>(aggregatePredicates));
    }
}
