package dev.schemabrain.mcp.tools;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schemabrain.catalog.InferenceMethod;
import dev.schemabrain.catalog.ValidationState;
import dev.schemabrain.error.DegradationReason;
import dev.schemabrain.semantic.compile.Assumed;
import dev.schemabrain.semantic.compile.CompiledMetric;
import dev.schemabrain.semantic.model.Filter;
import dev.schemabrain.semantic.model.MetricReview;
import dev.schemabrain.semantic.model.Origin;
import dev.schemabrain.semantic.model.Segment;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What a get_metric answer assumed, said in every answer (its {@code assumptions}): where the metric's definition
 * came from and whether anyone reviewed it, the rows its definition counts (statuses), the rows its default segments
 * leave out (test, deleted), how amounts handle currency, the time axis of each part, and the groups suppression left
 * out; structured, and as one sentence an agent can repeat to its user.
 */
final class MetricAssumptions {

    private MetricAssumptions() {
    }

    /** @param suppression the groups left out, or null when none were */
    /** @param review who made the metric's definition theirs and when, if anyone did */
    static ObjectNode of(CompiledMetric compiled, GetMetricTool.Suppression suppression,
                         Optional<MetricReview> review) {
        ObjectNode node = Replies.object();
        List<String> sentence = new ArrayList<>();
        Origin origin = compiled.metric().origin();
        String definition = definition(origin) + review.map(r -> ", reviewed by " + r.by() + " at " + r.at()).orElse("");
        review.ifPresent(r -> node.putObject("review").put("by", r.by()).put("at", r.at()));
        node.put("definition", definition);
        sentence.add("The metric " + compiled.metric().name() + " is " + definition);

        Set<String> statuses = new LinkedHashSet<>();
        Set<String> counted = new LinkedHashSet<>();
        Set<String> excluded = new LinkedHashSet<>();
        Set<String> currency = new LinkedHashSet<>();
        ArrayNode time = JsonNodeFactory.instance.arrayNode();
        for (Assumed a : compiled.assumed()) {
            a.counted().forEach(f -> counted.add(describe(f)));
            a.statuses().ifPresent(statuses::add);
            for (Segment s : a.segments()) {
                excluded.add(s.description() != null && !s.description().isBlank() ? s.description()
                        : "segment " + s.name() + " (" + String.join(" and ", s.filters().stream().map(MetricAssumptions::describe).toList()) + ")");
            }
            a.currency().ifPresent(currency::add);
            if (a.timeAxis() != null) {
                time.addObject().put("metric", a.metric()).put("dated_by", a.timeAxis());
            }
        }
        node.set("counted", Replies.strings(List.copyOf(counted)));
        node.set("segments_applied", Replies.strings(List.copyOf(excluded)));
        if (!currency.isEmpty()) {
            node.put("currency", String.join("; ", currency));
        }
        node.set("time_axes", time);
        node.set("statuses", Replies.strings(List.copyOf(statuses)));
        statuses.forEach(x -> sentence.add("it " + x));
        List<String> others = counted.stream().filter(c -> statuses.stream().noneMatch(x -> x.contains(c.split(" ")[0]))).toList();
        if (!others.isEmpty()) {
            sentence.add("its definition keeps only rows where " + String.join(" and ", others));
        }
        excluded.forEach(e -> sentence.add(lowerFirst(e.replace("; pass default_segments: false to count them", ""))));
        currency.forEach(sentence::add);
        List<String> axes = new ArrayList<>();
        time.forEach(t -> axes.add(t.path("dated_by").asText()));
        if (!axes.isEmpty()) {
            sentence.add("it is dated by " + String.join(" and ", new LinkedHashSet<>(axes)));
        }
        if (compiled.degradation().filter(d -> d == DegradationReason.FILTERED_THROUGH_RELATED_ROWS).isPresent()) {
            String related = "a filter on rows reached one-to-many (through " + String.join(", ", compiled.fanOutJoins())
                    + ") keeps only the rows that have at least one matching related row; it is not a plain filter";
            node.put("related_rows", related);
            sentence.add(related);
        }
        if (suppression != null) {
            String left = suppression.count() + " group" + (suppression.count() == 1 ? "" : "s") + " of fewer than "
                    + suppression.k() + " distinct people (" + String.join(", ", suppression.subjects()) + ") left out";
            node.put("suppression", left);
            sentence.add(left);
        }
        node.put("sentence", String.join("; ", sentence) + ".");
        return node;
    }

    /** Where the definition came from, in words a reader weighs the number by. */
    static String definition(Origin origin) {
        if (origin.state() == ValidationState.CONFIRMED) {
            return "a reviewed metric";
        }
        if (origin.method() == InferenceMethod.MANUALLY_AUTHORED) {
            return "a metric the operator wrote";
        }
        if (origin.method() == InferenceMethod.DBT_IMPORT) {
            return "a metric imported from dbt";
        }
        return "a draft nobody has reviewed, inferred from the "
                + (origin.method() == InferenceMethod.OBSERVED_IN_QUERY_LOG ? "query log" : "schema and its data")
                + ", so check its description before relying on it";
    }

    /** {@code food_order.status in (delivered, in_transit)}. */
    static String describe(Filter f) {
        String value = f.comparesColumns() ? f.otherColumn()
                : f.value() instanceof List<?> list ? "(" + String.join(", ", list.stream().map(String::valueOf).toList()) + ")"
                : String.valueOf(f.value());
        return switch (f.op()) {
            case IS_NULL -> f.column() + " is null";
            case NOT_NULL -> f.column() + " is not null";
            case IN, NOT_IN -> f.column() + " " + f.op().wireName().replace('_', ' ') + " " + value;
            default -> f.column() + " " + f.op().wireName() + " " + value;
        };
    }

    private static String lowerFirst(String s) {
        return s.isEmpty() ? s : Character.toLowerCase(s.charAt(0)) + s.substring(1);
    }
}
