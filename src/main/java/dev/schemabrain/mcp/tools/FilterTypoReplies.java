package dev.schemabrain.mcp.tools;

import dev.schemabrain.error.ErrorKind;
import dev.schemabrain.error.ExecutionException;
import dev.schemabrain.execute.BoundQuery;
import dev.schemabrain.execute.QueryExecutor;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.mcp.envelope.Recovery;
import dev.schemabrain.mcp.envelope.ToolError;
import dev.schemabrain.semantic.compile.FilterTypos;
import dev.schemabrain.semantic.compile.MetricCompiler;
import dev.schemabrain.semantic.compile.MetricRequest;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * get_metric's invalid_argument for a text filter value no row holds that is a typo of a value the catalog shows
 * ({@link FilterTypos}): a zero or a suppressed group would look like an answer. The nearest values come from the
 * caller's own view of the catalog; the recovery repeats the call with the one clearly nearest value.
 */
final class FilterTypoReplies {

    private FilterTypoReplies() {
    }

    static Optional<Envelope> refusal(MetricRequest request, MetricCompiler compiler, QueryExecutor source,
                                      ServedCatalog served) {
        Optional<FilterTypos.Typo> found = FilterTypos.find(compiler, request.filters(), source.dialect(),
                (table, column) -> served.pii().tag(table, column).tagged(), (sql, params) -> exists(source, sql, params));
        return found.map(typo -> Envelope.error(ToolError.of(ErrorKind.INVALID_ARGUMENT, typo.message(),
                recovery(request, typo).withFuzzyMatches(typo.nearest())), List.of(DescribeEntityTool.NAME, "list_metrics")));
    }

    /** A failed probe proves nothing: the value is taken to exist and the call goes on as before. */
    private static boolean exists(QueryExecutor source, String sql, List<Object> params) {
        try {
            return !source.execute(new BoundQuery(sql, params), 1).rows().isEmpty();
        } catch (ExecutionException e) {
            return true;
        }
    }

    /** The caller's call with the typo replaced, when one value is clearly meant; else the column's entity. */
    private static Recovery recovery(MetricRequest request, FilterTypos.Typo typo) {
        String entity = typo.reference().substring(0, Math.max(0, typo.reference().indexOf('.')));
        Recovery describe = Recovery.call(DescribeEntityTool.NAME, Map.of("name", entity));
        if (typo.correction().isEmpty()) {
            return describe;
        }
        Optional<Map<String, Object>> call = GetMetricTool.retryArgs(request, null, null);
        if (call.isEmpty()) {
            return describe;
        }
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> filters = new ArrayList<>((List<Map<String, Object>>) call.get().get("filters"));
        Map<String, Object> fixed = new LinkedHashMap<>(filters.get(typo.filter()));
        String to = typo.correction().get();
        fixed.put("value", fixed.get("value") instanceof List<?> list
                ? list.stream().map(v -> typo.value().equals(v instanceof String s ? s : String.valueOf(v)) ? to : v).toList() : to);
        filters.set(typo.filter(), fixed);
        return GetMetricTool.retryArgs(request, "filters", filters).map(a -> Recovery.call(GetMetricTool.NAME, a)).orElse(describe);
    }
}
