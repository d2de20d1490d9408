package dev.schemabrain.mining;

import dev.schemabrain.catalog.QualifiedName;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one parsed statement touches, with every name resolved against the catalog (names the catalog does
 * not hold, such as CTEs and system tables, are left out).
 *
 * @param kind       SELECT statements become examples; WRITE ones count as write activity on {@code written}
 * @param tables     tables read, in order of appearance
 * @param written    tables an INSERT, UPDATE, DELETE or MERGE changes
 * @param joins      equi-joins between two tables (ON and WHERE forms), one per table pair
 * @param columns    each column touched, with its roles (select, filter, join, group_by, order_by)
 * @param aggregates aggregate functions used, lower case
 * @param names      how its unqualified table names resolved
 * @param kept       the literals (numbered as in {@link SqlNormalizer.Template}) that may stay in the example
 * @param filters    the column-to-value comparisons of its WHERE and HAVING clauses
 */
public record StatementAnalysis(Kind kind, List<QualifiedName> tables, List<QualifiedName> written,
                                List<ObservedJoin> joins, Map<ColumnRef, Set<String>> columns, Set<String> aggregates,
                                Names names, Set<Integer> kept, List<Filter> filters) {

    public enum Kind { SELECT, WRITE, OTHER }

    public StatementAnalysis {
        tables = List.copyOf(tables);
        written = List.copyOf(written);
        joins = List.copyOf(joins);
        columns = Map.copyOf(columns);
        aggregates = Set.copyOf(aggregates);
        kept = Set.copyOf(kept);
        filters = List.copyOf(filters);
    }

    /**
     * @param qualify    where an unqualified table name starts in the parsed text (0-based), with the schema it resolved to
     * @param ambiguous  unqualified names that more than one schema could have meant
     * @param unresolved unqualified names no indexed schema has (system tables left out)
     */
    public record Names(Map<Integer, String> qualify, Set<String> ambiguous, Set<String> unresolved) {
        public static final Names NONE = new Names(Map.of(), Set.of(), Set.of());

        public Names {
            qualify = Map.copyOf(qualify);
            ambiguous = Set.copyOf(ambiguous);
            unresolved = Set.copyOf(unresolved);
        }
    }

    /** {@code column operator value(s)}: the values kept in the example, empty when they were replaced. */
    public record Filter(ColumnRef column, String operator, List<String> values) {
        public Filter {
            values = List.copyOf(values);
        }
    }

    /** A column of a catalog table. */
    public record ColumnRef(QualifiedName table, String column) implements Comparable<ColumnRef> {
        @Override
        public int compareTo(ColumnRef o) {
            int t = table.compareTo(o.table);
            return t != 0 ? t : column.compareTo(o.column);
        }

        @Override
        public String toString() {
            return table + "." + column;
        }
    }

    /** Whether it touches any table of the catalog; a statement that does not is not about this source. */
    public boolean touchesCatalog() {
        return !tables.isEmpty() || !written.isEmpty();
    }
}
