package dev.schemabrain.mcp.tools;

import dev.schemabrain.served.ServedCatalog;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schemabrain.pii.MetricPiiCheck;
import dev.schemabrain.pii.PiiTag;
import dev.schemabrain.semantic.Dimensions;
import dev.schemabrain.semantic.TimeAxis;
import dev.schemabrain.semantic.model.Metric;

import java.util.List;

/**
 * How the dimensions and time axes of the semantic layer read in describe_entity and list_metrics: enough for an
 * agent to write a correct get_metric call (group_by, time_dimension) from those two answers alone.
 */
final class DimensionReplies {

    /** list_metrics names this many per metric (the nearest first), so a large layer stays a readable answer. */
    static final int LISTED_PER_METRIC = 15;

    private final ServedCatalog served;

    DimensionReplies(ServedCatalog served) {
        this.served = served;
    }

    List<Dimensions.Dimension> of(String entity) {
        return served.dimensions(entity);
    }

    TimeAxis axis(String entity) {
        return served.timeAxis(entity);
    }

    /** Whether this server's PII policy lets a metric be grouped by the dimension. */
    boolean groupable(Dimensions.Dimension d) {
        return served.piiCheck(List.of(new MetricPiiCheck.ColumnUse(d.table(), d.column(), MetricPiiCheck.Use.GROUP_BY)))
                .refusal().isEmpty();
    }

    /** describe_entity's dimensions: each with its kind, the joins to it, its PII tag and whether it may be grouped by. */
    ArrayNode detailed(String entity) {
        ArrayNode out = Replies.JSON.createArrayNode();
        for (Dimensions.Dimension d : of(entity)) {
            PiiTag tag = PiiReplies.tag(served, d.table(), d.column());
            ObjectNode row = out.addObject().put("reference", d.reference()).put("kind", d.kind().wireName());
            row.set("joins", Replies.strings(d.joins()));
            PiiReplies.annotate(row, served, tag);
            row.put("groupable", groupable(d));
        }
        return out;
    }

    /** The time axes of an entity's metrics, best first; the first is the default unless {@code tied}. */
    ObjectNode time(ObjectNode node, String entity) {
        TimeAxis axis = axis(entity);
        ArrayNode candidates = node.putArray("time_dimensions");
        for (TimeAxis.Candidate c : axis.candidates()) {
            ObjectNode row = candidates.addObject().put("reference", c.reference());
            row.set("joins", Replies.strings(c.joins()));
        }
        node.put("default_time_dimension", axis.chosen().map(TimeAxis.Candidate::reference).orElse(null));
        return node;
    }

    /** list_metrics' additions to a metric: the joins to its time dimension, the other time axes, its dimensions. */
    ObjectNode metric(ObjectNode node, Metric m) {
        List<TimeAxis.Candidate> candidates = axis(m.entity()).candidates();
        String time = m.timeDimension();
        candidates.stream().filter(c -> c.reference().equals(time)).findFirst()
                .ifPresent(c -> node.set("time_dimension_joins", Replies.strings(c.joins())));
        node.set("other_time_dimensions", Replies.strings(candidates.stream().map(TimeAxis.Candidate::reference)
                .filter(r -> !r.equals(time)).toList()));
        List<String> groupable = of(m.entity()).stream().filter(this::groupable).map(Dimensions.Dimension::reference).toList();
        node.set("dimensions", Replies.strings(groupable.subList(0, Math.min(groupable.size(), LISTED_PER_METRIC))));
        if (groupable.size() > LISTED_PER_METRIC) {
            node.put("more_dimensions", groupable.size() - LISTED_PER_METRIC);   // describe_entity lists them all
        }
        return node;
    }
}
