package dev.schemabrain.mcp.tools;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schemabrain.catalog.InferenceMethod;
import dev.schemabrain.catalog.ValidationState;
import dev.schemabrain.mcp.envelope.Confidence;
import dev.schemabrain.mcp.envelope.Provenance;
import dev.schemabrain.semantic.model.ColumnPair;
import dev.schemabrain.semantic.model.Entity;
import dev.schemabrain.semantic.model.Filter;
import dev.schemabrain.semantic.model.Join;
import dev.schemabrain.semantic.model.Metric;
import dev.schemabrain.semantic.model.MetricKind;
import dev.schemabrain.semantic.model.Origin;
import dev.schemabrain.semantic.model.TimeGrain;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/** How entities, joins and metrics read in tool answers, and the provenance their origin gives. */
final class SemanticReplies {

    private SemanticReplies() {
    }

    /** Facts the database or a person declared are schema facts; guesses are inferred. */
    static Provenance provenance(Origin origin) {
        Provenance.Source source = switch (origin.method()) {
            case HEURISTIC, OBSERVED_IN_QUERY_LOG -> Provenance.Source.INFERRED;
            case LLM_SUGGESTED -> Provenance.Source.LLM;
            default -> Provenance.Source.SCHEMA;
        };
        return new Provenance(source, null, null, origin.method(), origin.state());
    }

    static Confidence confidence(Origin origin) {
        return Confidence.derive(origin.state(), origin.method());
    }

    /** A list's confidence is its worst row's. */
    static Confidence worst(Collection<Origin> origins) {
        return Confidence.worst(origins.stream().map(SemanticReplies::confidence).toList()).orElse(Confidence.LOW);
    }

    /** The provenance of a list: of its least trusted row. */
    static Provenance worstProvenance(Collection<Origin> origins) {
        return origins.stream().min(Comparator.comparing(SemanticReplies::confidence))
                .map(SemanticReplies::provenance)
                .orElse(provenance(new Origin(InferenceMethod.HEURISTIC, ValidationState.DRAFT)));
    }

    static void origin(ObjectNode node, Origin origin) {
        node.put("inference_method", origin.method().wireName())
                .put("validation_state", origin.state().wireName())
                .put("confidence", confidence(origin).name());
    }

    static ObjectNode entity(ObjectNode node, Entity e) {
        node.put("name", e.name()).put("description", e.description()).put("table", e.table().toString());
        node.set("identity", Replies.strings(e.identity()));
        if (!e.segments().isEmpty()) {
            ArrayNode segments = node.putArray("segments");
            for (var g : e.segments()) {
                ObjectNode seg = segments.addObject().put("name", g.name()).put("description", g.description())
                        .put("default", g.isDefault());
                ArrayNode filters = seg.putArray("filters");
                g.filters().forEach(f -> filter(filters.addObject(), f));
                if (g.observed() != null) {
                    // A proposal from the query log, not yet the operator's: say so, and how often it was seen.
                    seg.put("inference_method", InferenceMethod.OBSERVED_IN_QUERY_LOG.wireName())
                            .put("validation_state", ValidationState.DRAFT.wireName());
                    seg.putObject("observed").put("statements", g.observed().statements())
                            .put("observations", g.observed().observations()).put("last_seen", g.observed().lastSeen());
                }
            }
        }
        origin(node, e.origin());
        return node;
    }

    static ObjectNode join(ObjectNode node, Join j) {
        node.put("name", j.name()).put("source_entity", j.sourceEntity()).put("target_entity", j.targetEntity())
                .put("cardinality", j.cardinality().wireName());
        if (j.bridge() == null) {
            pairs(node.putArray("on"), j.on());
        } else {
            ObjectNode through = node.putObject("through").put("table", j.bridge().table().toString());
            pairs(through.putArray("source_on"), j.bridge().sourceOn());
            pairs(through.putArray("target_on"), j.bridge().targetOn());
        }
        origin(node, j.origin());
        return node;
    }

    static ObjectNode metric(ObjectNode node, Metric m) {
        node.put("name", m.name()).put("description", m.description()).put("type", m.kind().wireName()).put("entity", m.entity());
        m.kind().accept(new MetricKind.Cases<ObjectNode>() {
            @Override
            public ObjectNode simple(MetricKind.Simple s) {
                ObjectNode measure = node.putObject("measure").put("agg", m.measure().agg().wireName());
                if (m.measure().column() != null) {
                    measure.put("column", m.measure().column());
                }
                if (m.measure().expression() != null) {
                    measure.put("expression", m.measure().expression());
                }
                if (m.measure().nonAdditive() != null) {
                    var n = m.measure().nonAdditive();
                    ObjectNode snapshot = measure.putObject("non_additive").put("column", n.column()).put("window", n.window().wireName());
                    if (!n.groupings().isEmpty()) {
                        snapshot.set("groupings", Replies.strings(n.groupings()));
                    }
                }
                return node;
            }

            @Override
            public ObjectNode ratio(MetricKind.Ratio r) {
                return node.put("numerator", r.numerator()).put("denominator", r.denominator());
            }

            @Override
            public ObjectNode derived(MetricKind.Derived d) {
                return node.put("expression", d.expression());
            }

            @Override
            public ObjectNode cumulative(MetricKind.Cumulative c) {
                node.put("metric", c.metric());
                if (c.window() != null) {
                    node.putObject("window").put("count", c.window()).put("grain", c.windowGrain().wireName());
                }
                if (c.grainToDate() != null) {
                    node.put("grain_to_date", c.grainToDate().wireName());
                }
                return node;
            }
        });
        node.put("time_dimension", m.timeDimension());
        node.set("time_grains", Replies.strings(m.timeGrains().stream().map(TimeGrain::wireName).toList()));
        if (!m.filters().isEmpty()) {
            ArrayNode filters = node.putArray("default_filters");
            m.filters().forEach(f -> filter(filters.addObject(), f));
        }
        origin(node, m.origin());
        return node;
    }

    static ObjectNode filter(ObjectNode node, Filter f) {
        node.put("column", f.column()).put("op", f.op().wireName());
        if (f.comparesColumns()) {
            node.put("other_column", f.otherColumn());
        } else {
            node.putPOJO("value", f.value());
        }
        return node;
    }

    private static void pairs(ArrayNode array, List<ColumnPair> pairs) {
        pairs.forEach(p -> array.addObject().put("source", p.source()).put("target", p.target()));
    }
}
