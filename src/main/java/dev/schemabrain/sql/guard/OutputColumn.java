package dev.schemabrain.sql.guard;

import java.util.Collections;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * One column of a bound SELECT's result and where it comes from.
 *
 * @param values    columns whose values can show in this output: as they are, through a scalar function or cast,
 *                  or through an aggregate that returns one of its inputs (min, max, string_agg, lag, ...)
 * @param derived   columns that shape the output without their values showing: counted, summed or averaged,
 *                  tested by a CASE, or the ordering of a rank
 * @param aggregate whether the output is computed over many rows (an aggregate or a window function other than
 *                  one returning a neighbour's value) rather than one row's value
 */
public record OutputColumn(String name, SortedSet<ColumnRef> values, SortedSet<ColumnRef> derived, boolean aggregate) {

    public OutputColumn {
        values = Collections.unmodifiableSortedSet(new TreeSet<>(values));
        derived = Collections.unmodifiableSortedSet(new TreeSet<>(derived));
    }

    /** Every source column, values and derived. */
    public SortedSet<ColumnRef> lineage() {
        TreeSet<ColumnRef> all = new TreeSet<>(values);
        all.addAll(derived);
        return Collections.unmodifiableSortedSet(all);
    }
}
