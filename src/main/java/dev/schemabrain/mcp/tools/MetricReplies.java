package dev.schemabrain.mcp.tools;

import dev.schemabrain.error.ExecutionException;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.error.ErrorKind;
import dev.schemabrain.mcp.envelope.Recovery;
import dev.schemabrain.mcp.envelope.ToolError;
import dev.schemabrain.semantic.compile.CompileException;
import dev.schemabrain.semantic.compile.MetricRequest;

import dev.schemabrain.pii.MetricPiiCheck;
import dev.schemabrain.semantic.compile.CompiledMetric;
import dev.schemabrain.semantic.model.Entity;
import dev.schemabrain.semantic.model.SemanticModel;

import java.util.List;
import java.util.Optional;
import java.util.Map;

/** get_metric's failures as envelopes: each kind with the call most likely to fix it. */
final class MetricReplies {

    private MetricReplies() {
    }

    static Envelope compileError(CompileException e, MetricRequest request, String metricEntity) {
        ErrorKind kind = e.problem();
        Recovery recovery = switch (kind) {
            case UNKNOWN_METRIC -> e.candidates().isEmpty() ? Recovery.call("list_metrics", Map.of())
                    : retry(request, "name", e.candidates().get(0), Recovery.call("list_metrics", Map.of()));
            case UNKNOWN_GROUP_BY_COLUMN, UNKNOWN_FILTER_COLUMN, UNKNOWN_ORDER_BY_COLUMN, UNKNOWN_MEASURE_COLUMN ->
                    Recovery.call(DescribeEntityTool.NAME, Map.of("name", entityOf(e, metricEntity)));
            case AMBIGUOUS_PATH, AMBIGUOUS_TIME_DIMENSION, GRAIN_MISMATCH -> {
                Map.Entry<String, Object> fix = e.suggestedArgs().entrySet().iterator().next();
                yield retry(request, fix.getKey(), fix.getValue(), metricEntity);
            }
            case UNREACHABLE_ENTITY, UNKNOWN_VIA_JOIN -> Recovery.call("list_joins", Map.of());
            case INVALID_TIME_GRAIN -> retry(request, "time_grain", "month", metricEntity);
            case SCHEMA_DRIFT -> Recovery.call("list_indexed_schemas", Map.of());
            // Which value was wrong is the caller's to fix (fuzzy_matches has the domain's nearest values); a retry
            // without the offending filter would be a different question's number.
            case INVALID_ARGUMENT -> e.suggestedArgs().isEmpty()
                    ? Recovery.call(DescribeEntityTool.NAME, Map.of("name", entityOf(e, metricEntity)))
                    : retry(request, e.suggestedArgs().keySet().iterator().next(), e.suggestedArgs().values().iterator().next(),
                    metricEntity);   // the same question asked so it has one right answer (grouped by currency)
            default -> Recovery.call("list_metrics", Map.of());   // the compiler raises none other today
        };
        return Envelope.error(ToolError.of(kind, e.getMessage(), recovery.withFuzzyMatches(e.candidates().stream().limit(3).toList())),
                List.of("describe_entity", "list_metrics"));
    }

    static Envelope executionError(ExecutionException e, MetricRequest request, String metricEntity) {
        ErrorKind kind = e.kind();
        Recovery recovery = switch (kind) {
            case STATEMENT_TIMEOUT, COST_CAP_EXCEEDED -> retry(request, "dry_run", true, Recovery.call("list_metrics", Map.of()));
            case SOURCE_UNAVAILABLE, SOURCE_BUSY -> retry(request, null, null, Recovery.call("list_metrics", Map.of()));
            // The database refused the statement: the same call fails again; the entity's columns may explain why.
            default -> Recovery.call(DescribeEntityTool.NAME, Map.of("name", metricEntity));
        };
        return Envelope.error(ToolError.of(kind, e.getMessage(), recovery), List.of("list_metrics"));
    }

    /**
     * pii_blocked, naming only the categories that caused it, before any SQL leaves. A refused grouping
     * suggests grouping by the identity of the entity that owns the column (recovery → describe_entity).
     */
    static Envelope refusal(MetricPiiCheck.Refusal refusal, CompiledMetric compiled, ServedCatalog served) {
        SemanticModel model = served.semantic();
        String categories = String.join(", ", refusal.categoryNames());
        String metricEntity = compiled.metric().entity();
        Optional<Entity> owner = refusal.table() == null ? Optional.empty()
                : model.entities().stream().filter(e -> e.table().equals(refusal.table())).findFirst();
        String entity = owner.map(Entity::name).orElse(metricEntity);
        String column = refusal.column();
        String why;
        String rewrite;
        if (refusal.cause() == MetricPiiCheck.Cause.BLOCKED) {
            why = "it reads " + column + ", and this server blocks " + categories;
            rewrite = "leave out filters, groupings and time dimensions on columns tagged " + categories;
        } else {
            switch (refusal.use()) {
                case GROUP_BY, TIME_DIMENSION -> {
                    why = (refusal.use() == MetricPiiCheck.Use.GROUP_BY ? "it groups by " : "its time dimension is ") + column
                            + ", a column tagged " + categories + ", and each group would expose a personal value";
                    // Not the owner's identity: one group per person would be suppressed whole (SPEC §11.1).
                    boolean time = refusal.use() == MetricPiiCheck.Use.TIME_DIMENSION;
                    List<String> instead = untagged(served, owner.map(Entity::name).orElse(metricEntity), time);
                    rewrite = instead.isEmpty() ? (time ? "use an untagged date as time_dimension" : "group by an untagged column")
                            + " instead of " + column
                            : (time ? "time_dimension \"" + instead.get(0) + "\"" : "group_by [\"" + instead.get(0) + "\"]")
                            + " instead of " + column + (instead.size() > 1 ? " (or " + String.join(", ", instead.subList(1, instead.size())) + ")" : "")
                            + "; groups about fewer people than the server's minimum are left out";
                }
                case MIN_MAX_OPERAND -> {
                    why = "it takes the min or max over " + column
                            + ", a column tagged " + categories + ", and the answer would be one person's value";
                    rewrite = "use a count or sum metric, or one over an untagged column";
                }
                case FILTER_RANGE -> {
                    why = "it filters " + column + ", a column tagged " + categories + ", by a range, and repeated"
                            + " ranges recover a personal value";
                    rewrite = "filter by an untagged column instead of " + column;
                }
                case FILTER_EQUALITY -> {
                    why = "it filters " + column + ", a direct identifier (" + categories + "), by value, and each"
                            + " answer would confirm whether that person is there";
                    rewrite = "filter by an untagged column, or use is_null / not_null on " + column;
                }
                default -> {
                    why = "it reads " + column + ", a column tagged " + categories;
                    rewrite = "leave out " + column;
                }
            }
        }
        Recovery recovery = new Recovery(DescribeEntityTool.NAME, Map.of("name", entity), List.of(), rewrite, null);
        return Envelope.error(new ToolError(ErrorKind.PII_BLOCKED, "get_metric refused " + compiled.metric().name() + ": "
                + why + "; describe_entity shows each column's PII tags.", recovery, refusal.categoryNames()),
                List.of(DescribeEntityTool.NAME, "list_metrics"));
    }

    /** Up to three untagged groupable columns (or dates) of {@code entity} and its parents, as entity.column. */
    private static List<String> untagged(ServedCatalog served, String entity, boolean dates) {
        return served.dimensions(entity).stream()
                .filter(d -> (d.kind() == dev.schemabrain.semantic.Dimensions.Kind.DATE) == dates)
                .filter(d -> !served.pii().tag(d.table(), d.column()).tagged())
                .map(d -> d.entity() + "." + d.column()).limit(3).toList();
    }

    /** The caller's call with one argument changed, or describe_entity when it cannot be repeated as written. */
    private static Recovery retry(MetricRequest request, String key, Object value, String metricEntity) {
        return retry(request, key, value, Recovery.call(DescribeEntityTool.NAME, Map.of("name", metricEntity)));
    }

    /** The caller's call with one argument changed, or {@code otherwise} when it cannot be repeated exactly. */
    private static Recovery retry(MetricRequest request, String key, Object value, Recovery otherwise) {
        return GetMetricTool.retryArgs(request, key, value).map(a -> Recovery.call(GetMetricTool.NAME, a)).orElse(otherwise);
    }

    /** The entity a close match names (else the metric's own), for describe_entity. */
    static String entityOf(CompileException e, String metricEntity) {
        return e.candidates().stream().filter(c -> c.contains(".")).map(c -> c.substring(0, c.indexOf('.'))).findFirst()
                .orElse(metricEntity);
    }
}
