package dev.schemabrain.mining;

import dev.schemabrain.catalog.QualifiedName;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * An equi-join seen in the query log: {@code left.leftColumns = right.rightColumns}, pairwise. Canonical: the
 * smaller table name is on the left and the column pairs are sorted, so the same join written either way is
 * one value.
 */
public record ObservedJoin(QualifiedName left, List<String> leftColumns, QualifiedName right, List<String> rightColumns) {

    public ObservedJoin {
        Objects.requireNonNull(left, "left");
        Objects.requireNonNull(right, "right");
        leftColumns = List.copyOf(leftColumns);
        rightColumns = List.copyOf(rightColumns);
        if (leftColumns.size() != rightColumns.size() || leftColumns.isEmpty()) {
            throw new IllegalArgumentException("a join pairs as many columns on each side, at least one");
        }
    }

    /** The canonical form of {@code a.aColumns = b.bColumns}. */
    public static ObservedJoin of(QualifiedName a, List<String> aColumns, QualifiedName b, List<String> bColumns) {
        if (a.compareTo(b) > 0) {
            return of(b, bColumns, a, aColumns);
        }
        List<String[]> pairs = new ArrayList<>();
        for (int i = 0; i < aColumns.size(); i++) {
            pairs.add(new String[] {aColumns.get(i), bColumns.get(i)});
        }
        pairs.sort((x, y) -> x[0].equals(y[0]) ? x[1].compareTo(y[1]) : x[0].compareTo(y[0]));
        return new ObservedJoin(a, pairs.stream().map(p -> p[0]).toList(), b, pairs.stream().map(p -> p[1]).toList());
    }
}
