package dev.schemabrain.semantic.compile;

import dev.schemabrain.semantic.compile.CompiledMetric.ColumnRef;
import dev.schemabrain.error.DegradationReason;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;

/**
 * One metric aggregated by the request's keys, as a SELECT whose columns are {@code "k0"…} (the time bucket
 * first when there is one, then the group_by columns), {@code "v"} (the value, never suppressed here) and
 * {@code "f"} (1 where the group is too small to show, else 0). Ratios, derived and cumulative metrics are
 * built from these; the compiler's last step hides a flagged value.
 *
 * @param keys      the result keys as the caller wrote them ({@code time_bucket}, {@code customer.country})
 * @param timeKey   whether {@code "k0"} is the time bucket
 * @param suppresses whether any group can be flagged (small-cell suppression reached a person)
 */
record Aggregate(SqlText select, List<String> keys, boolean timeKey, boolean suppresses, List<String> requiredJoins,
                 List<String> fanOut, Optional<DegradationReason> degradation, List<ColumnRef> touched, List<String> subjects) {

    Aggregate {
        keys = List.copyOf(keys);
        requiredJoins = List.copyOf(requiredJoins);
        fanOut = List.copyOf(fanOut);
        touched = List.copyOf(touched);
        subjects = List.copyOf(subjects);
    }

    /** The metadata of several components together (their joins, columns read, subjects), over a new select. */
    static Aggregate combining(SqlText select, List<Aggregate> parts) {
        Aggregate first = parts.get(0);
        LinkedHashSet<String> joins = new LinkedHashSet<>();
        LinkedHashSet<String> fans = new LinkedHashSet<>();
        List<ColumnRef> touched = new ArrayList<>();
        LinkedHashSet<String> subjects = new LinkedHashSet<>();
        Optional<DegradationReason> degradation = Optional.empty();
        boolean suppresses = false;
        for (Aggregate p : parts) {
            joins.addAll(p.requiredJoins());
            fans.addAll(p.fanOut());
            touched.addAll(p.touched());
            subjects.addAll(p.subjects());
            degradation = degradation.or(p::degradation);
            suppresses |= p.suppresses();
        }
        return new Aggregate(select, first.keys(), first.timeKey(), suppresses, List.copyOf(joins), List.copyOf(fans),
                degradation, touched, List.copyOf(subjects));
    }

    Aggregate withSelect(SqlText other) {
        return new Aggregate(other, keys, timeKey, suppresses, requiredJoins, fanOut, degradation, touched, subjects);
    }
}
