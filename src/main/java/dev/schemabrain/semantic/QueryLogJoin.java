package dev.schemabrain.semantic;

import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.ValidationState;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An equi-join the query log showed, {@code many.manyColumns = one.oneColumns}, oriented so that {@code one}'s
 * columns are unique (a key) there. A join with no key on either side (two cities equated) is no way to
 * join entities and is not made one.
 *
 * @param state APPLIED when observed at least {@link #FREQUENT} times (confidence MEDIUM), else DRAFT (LOW)
 */
public record QueryLogJoin(QualifiedName many, List<String> manyColumns, QualifiedName one, List<String> oneColumns,
                           ValidationState state) {

    /** Observations from which an observed join is trusted at MEDIUM confidence. */
    public static final long FREQUENT = 5;

    public QueryLogJoin {
        manyColumns = List.copyOf(manyColumns);
        oneColumns = List.copyOf(oneColumns);
    }

    /** {@code a.aColumns = b.bColumns}, oriented by the catalog's keys; empty when neither side is a key. */
    public static Optional<QueryLogJoin> of(Map<QualifiedName, Table> tables, QualifiedName a, List<String> aColumns,
                                            QualifiedName b, List<String> bColumns, long observations) {
        Table ta = tables.get(a);
        Table tb = tables.get(b);
        if (ta == null || tb == null || a.equals(b)) {
            return Optional.empty();
        }
        ValidationState state = observations >= FREQUENT ? ValidationState.APPLIED : ValidationState.DRAFT;
        if (tb.isUnique(bColumns)) {
            return Optional.of(new QueryLogJoin(a, aColumns, b, bColumns, state));
        }
        if (ta.isUnique(aColumns)) {
            return Optional.of(new QueryLogJoin(b, bColumns, a, aColumns, state));
        }
        return Optional.empty();
    }
}
