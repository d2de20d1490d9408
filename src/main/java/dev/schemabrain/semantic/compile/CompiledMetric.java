package dev.schemabrain.semantic.compile;

import dev.schemabrain.error.DegradationReason;

import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.semantic.model.FilterOp;
import dev.schemabrain.semantic.model.Metric;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A compiled metric query. {@code sql} has {@code ?} placeholders for {@code params} in order; its
 * result columns are, in order, {@link #columns()} (the keys of get_metric's rows). The LIMIT asks for
 * one row more than {@code limit}, so the executor can tell a cut-off result from a complete one.
 *
 * @param requiredJoins join names walked, in order
 * @param fanOutJoins   joins walked in a direction that can repeat the metric's rows
 * @param degradation   why the answer is degraded, if it is
 * @param touched       every catalog column the statement reads, for PII checks and the audit
 * @param minGroupSize  when small groups are suppressed, the smallest shown; the SELECT then has one more
 *                      result column after {@code columns}: 1 for a suppressed group (its value NULL; sorted last and
 *                      left out of the answer), else 0
 * @param subjects      whom suppression counts per group (distinct people): each person entity, with the path to it
 * @param groupCount    for a grouped metric, the statement that counts its groups (no LIMIT), run when the limit cut
 *                      the answer so it can say "10 of 83"
 * @param assumed       what each simple metric it is built of assumed, for the answer's assumptions
 * @param rowFilters    the labels of the access role's row filters the statement carries, for the audit row
 */
public record CompiledMetric(Metric metric, String sql, List<Object> params, List<String> columns, int limit,
                             List<String> requiredJoins, List<String> fanOutJoins, Optional<DegradationReason> degradation,
                             List<ColumnRef> touched, OptionalInt minGroupSize, List<String> subjects,
                             Optional<Count> groupCount, List<Assumed> assumed, List<String> rowFilters) {

    public CompiledMetric {
        params = List.copyOf(params);
        columns = List.copyOf(columns);
        requiredJoins = List.copyOf(requiredJoins);
        fanOutJoins = List.copyOf(fanOutJoins);
        touched = List.copyOf(touched);
        subjects = List.copyOf(subjects);
        assumed = List.copyOf(assumed);
        rowFilters = List.copyOf(rowFilters);
    }

    /** Whether the SELECT carries the suppression flag column. */
    public boolean suppresses() {
        return minGroupSize.isPresent();
    }

    /** A SELECT of one row and one column, with its bound values. */
    public record Count(String sql, List<Object> params) {
        public Count {
            params = List.copyOf(params);
        }
    }

    /**
     * A catalog column a statement reads, and in which role.
     *
     * @param op the filter's operator for a FILTER, else null
     */
    public record ColumnRef(QualifiedName table, String column, Role role, FilterOp op) {
        /** MEASURE_EXTREMUM: the operand of a min or max, whose answer is one row's value. */
        public enum Role { MEASURE, MEASURE_EXTREMUM, GROUP_BY, FILTER, TIME_DIMENSION, JOIN_KEY }

        public ColumnRef(QualifiedName table, String column, Role role) {
            this(table, column, role, null);
        }
    }
}
