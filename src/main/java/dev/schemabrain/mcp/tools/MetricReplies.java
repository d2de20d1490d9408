package dev.schemabrain.mcp.tools;

import dev.schemabrain.execute.ExecutionException;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.mcp.envelope.ErrorKind;
import dev.schemabrain.mcp.envelope.Recovery;
import dev.schemabrain.mcp.envelope.ToolError;
import dev.schemabrain.semantic.compile.CompileException;
import dev.schemabrain.semantic.compile.MetricRequest;

import java.util.List;
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
                yield Recovery.call(GetMetricTool.NAME, GetMetricTool.retryArgs(request, fix.getKey(), fix.getValue()));
            }
            case UNREACHABLE_ENTITY, UNKNOWN_VIA_JOIN -> Recovery.call("list_joins", Map.of());
            case INVALID_TIME_GRAIN -> Recovery.call(GetMetricTool.NAME, GetMetricTool.retryArgs(request, "time_grain", "month"));
            case SCHEMA_DRIFT -> Recovery.call("list_indexed_schemas", Map.of());
            case INVALID_ARGUMENT -> Recovery.call(GetMetricTool.NAME, GetMetricTool.retryArgs(request, null, null));
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
            case STATEMENT_TIMEOUT, COST_CAP_EXCEEDED -> Recovery.call(GetMetricTool.NAME,
                    GetMetricTool.retryArgs(request, "dry_run", true));
            default -> Recovery.call(GetMetricTool.NAME, GetMetricTool.retryArgs(request, null, null));
        };
        return Envelope.error(ToolError.of(kind, e.getMessage(), recovery), List.of("list_metrics"));
    }

    /** The entity a close match names (else the metric's own), for describe_entity. */
    private static String entityOf(CompileException e, String metricEntity) {
        return e.candidates().stream().filter(c -> c.contains(".")).map(c -> c.substring(0, c.indexOf('.'))).findFirst()
                .orElse(metricEntity);
    }
}
