package dev.schemabrain.semantic;

import dev.schemabrain.catalog.InferenceMethod;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.ValidationState;
import dev.schemabrain.semantic.model.Entity;
import dev.schemabrain.semantic.model.Filter;
import dev.schemabrain.semantic.model.FilterOp;
import dev.schemabrain.semantic.model.Metric;
import dev.schemabrain.semantic.model.Origin;
import dev.schemabrain.semantic.model.Segment;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Where the query log keeps filtering an entity on its status ENUM ({@code status = 'paid'}) and a draft metric of
 * that entity has no filter, a second draft beside it with that filter ({@code invoice_count_status_paid}). A
 * separate metric, not an edit: the original stays as it was, the proposal can be compared with it through
 * get_metric, and an operator accepts it by applying its file or leaves it out.
 */
final class ObservedMetricFilters {

    static final Origin OBSERVED_DRAFT = new Origin(InferenceMethod.OBSERVED_IN_QUERY_LOG, ValidationState.DRAFT);

    private ObservedMetricFilters() {
    }

    /**
     * @param e      the entity with its observed segments
     * @param drafts the entity's draft metrics
     * @param taken  metric names in use; the proposals' names are added
     */
    static List<Metric> of(Entity e, Table t, List<Metric> drafts, Set<String> taken) {
        Optional<Segment> onStatus = statusSegment(e, t);
        if (onStatus.isEmpty()) {
            return List.of();
        }
        Segment s = onStatus.get();
        String filter = ObservedSegments.describe(s.filters().get(0));
        return drafts.stream()
                .filter(m -> m.isSimple() && m.filters().isEmpty() && m.origin().inferred() && m.entity().equals(e.name()))
                .filter(m -> taken.add(SemanticInference.fit(m.name() + "_" + s.name())))
                .map(m -> new Metric(SemanticInference.fit(m.name() + "_" + s.name()),
                        (m.description() == null ? m.name() : m.description()) + " Only where " + filter
                                + ", the status filter the query log uses most on " + e.name() + " (a proposal beside "
                                + m.name() + ").",
                        m.entity(), m.measure(), m.timeDimension(), m.timeGrains(), s.filters(), OBSERVED_DRAFT))
                .toList();
    }

    /** The most used observed segment that keeps some values of the entity's status, a declared ENUM. */
    private static Optional<Segment> statusSegment(Entity e, Table t) {
        Optional<RowSignals.Status> status = RowSignals.of(e.name(), t).status().filter(s -> s.source().equals("declared"));
        if (status.isEmpty()) {
            return Optional.empty();
        }
        return e.segments().stream().filter(s -> s.observed() != null).filter(s -> {
            Filter f = s.filters().get(0);
            List<?> values = f.value() instanceof List<?> list ? list : f.value() == null ? List.of() : List.of(f.value());
            return f.column().equals(status.get().reference()) && (f.op() == FilterOp.EQ || f.op() == FilterOp.IN)
                    && status.get().values().containsAll(values);
        }).findFirst();
    }
}
