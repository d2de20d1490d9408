package dev.schemabrain.mcp.tools;

import dev.schemabrain.error.ExecutionException;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.mcp.envelope.ErrorKind;
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
        ErrorKind kind = ErrorKind.valueOf(e.problem().name());
        Recovery recovery = switch (e.problem()) {
            case UNKNOWN_METRIC -> e.candidates().isEmpty() ? Recovery.call("list_metrics", Map.of())
                    : Recovery.call(GetMetricTool.NAME, Map.of("name", e.candidates().get(0)));
            case UNKNOWN_GROUP_BY_COLUMN, UNKNOWN_FILTER_COLUMN, UNKNOWN_ORDER_BY_COLUMN, UNKNOWN_MEASURE_COLUMN ->
                    Recovery.call(DescribeEntityTool.NAME, Map.of("name", entityOf(e, metricEntity)));
            case AMBIGUOUS_PATH, AMBIGUOUS_TIME_DIMENSION, GRAIN_MISMATCH -> {
                Map.Entry<String, Object> fix = e.suggestedArgs().entrySet().iterator().next();
                yield retry(request, fix.getKey(), fix.getValue(), metricEntity);
            }
            case UNREACHABLE_ENTITY, UNKNOWN_VIA_JOIN -> Recovery.call("list_joins", Map.of());
            case INVALID_TIME_GRAIN -> retry(request, "time_grain", "month", metricEntity);
            case SCHEMA_DRIFT -> Recovery.call("list_indexed_schemas", Map.of());
            // The same call would fail again, and one without the bad filter would answer another question:
            // describe_entity lists the values a column allows (the fuzzy matches name the nearest).
            case INVALID_ARGUMENT -> Recovery.call(DescribeEntityTool.NAME, Map.of("name", metricEntity));
        };
        return Envelope.error(ToolError.of(kind, e.getMessage(), recovery.withFuzzyMatches(e.candidates().stream().limit(3).toList())),
                List.of("describe_entity", "list_metrics"));
    }

    static Envelope executionError(ExecutionException e, MetricRequest request) {
        ErrorKind kind = switch (e.kind()) {
            case SOURCE_UNAVAILABLE -> ErrorKind.SOURCE_UNAVAILABLE;
            case STATEMENT_TIMEOUT -> ErrorKind.STATEMENT_TIMEOUT;
            case SOURCE_BUSY -> ErrorKind.SOURCE_BUSY;
            case COST_CAP_EXCEEDED -> ErrorKind.COST_CAP_EXCEEDED;
            case QUERY_FAILED -> ErrorKind.INTERNAL_ERROR;
        };
        Recovery recovery = switch (e.kind()) {
            case STATEMENT_TIMEOUT, COST_CAP_EXCEEDED -> GetMetricTool.retryArgs(request, "dry_run", true)
                    .map(a -> Recovery.call(GetMetricTool.NAME, a)).orElse(Recovery.call("list_metrics", Map.of()));
            default -> GetMetricTool.retryArgs(request, null, null)
                    .map(a -> Recovery.call(GetMetricTool.NAME, a)).orElse(Recovery.call("list_metrics", Map.of()));
        };
        return Envelope.error(ToolError.of(kind, e.getMessage(), recovery), List.of("list_metrics"));
    }

    /**
     * pii_blocked, naming only the categories that caused it, before any SQL leaves. A refused grouping
     * suggests grouping by the identity of the entity that owns the column (recovery → describe_entity).
     */
    static Envelope refusal(MetricPiiCheck.Refusal refusal, CompiledMetric compiled, SemanticModel model) {
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
                    rewrite = owner.map(e -> "group_by [\"" + e.name() + "." + e.identity().get(0) + "\"] (the "
                                    + e.name() + " identity) instead of " + column + ", or by an untagged column")
                            .orElse("group by an untagged column instead of " + column);
                }
                case MIN_MAX_OPERAND -> {
                    why = "it takes " + compiled.metric().measure().agg().wireName() + " over " + column
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

    /** The caller's call with one argument changed, or describe_entity when it cannot be repeated as written. */
    private static Recovery retry(MetricRequest request, String key, Object value, String metricEntity) {
        return GetMetricTool.retryArgs(request, key, value).map(a -> Recovery.call(GetMetricTool.NAME, a))
                .orElse(Recovery.call(DescribeEntityTool.NAME, Map.of("name", metricEntity)));
    }

    /** The entity a close match names (else the metric's own), for describe_entity. */
    private static String entityOf(CompileException e, String metricEntity) {
        return e.candidates().stream().filter(c -> c.contains(".")).map(c -> c.substring(0, c.indexOf('.'))).findFirst()
                .orElse(metricEntity);
    }
}
