package dev.schemabrain.mcp.tools;

import dev.schemabrain.served.CatalogProvider;
import dev.schemabrain.served.ServedCatalog;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schemabrain.engine.Explain;
import dev.schemabrain.error.ExecutionException;
import dev.schemabrain.execute.BoundQuery;
import dev.schemabrain.gate.Refused;
import dev.schemabrain.gate.SqlDecision;
import dev.schemabrain.execute.QueryExecutor;
import dev.schemabrain.execute.SourceExecutors;
import dev.schemabrain.mcp.args.ArgSchema;
import dev.schemabrain.mcp.args.Arguments;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.mcp.envelope.Status;
import dev.schemabrain.mcp.tool.CallAudit;
import dev.schemabrain.mcp.tool.CallRecorder;
import dev.schemabrain.mcp.tool.LatencyHint;
import dev.schemabrain.mcp.tool.SideEffects;
import dev.schemabrain.mcp.tool.ToolCall;
import dev.schemabrain.mcp.tool.ToolSpec;

import java.util.Optional;

/**
 * validate_query: what execute would do with a SQL text, running nothing against the data: the
 * refusal, or the tables, outputs with PII roles, the rewritten statement and a cost class from EXPLAIN (never
 * EXPLAIN ANALYZE, never the row estimate).
 */
public final class ValidateQueryTool extends SqlTool {

    static final String NAME = "validate_query";
    static final ArgSchema ARGS = ArgSchema.parse("""
            {"sql": {"type": "string", "required": true, "minLength": 1, "maxLength": 100000, "description": "One SELECT."}}""");
    private static final ToolSpec SPEC = new ToolSpec(NAME, "Validate query",
            "Use this when no metric answers and you wrote SQL: checks it and shows what execute would run; runs "
                    + "nothing. Use get_metric instead when a metric fits (list_metrics). Then: execute.",
            ARGS, SideEffects.READ, true, true, LatencyHint.FAST);

    public ValidateQueryTool(CatalogProvider catalogs, SourceExecutors executors, int minGroupSize) {
        super(SPEC, catalogs, executors, minGroupSize);
    }

    @Override
    Envelope answer(Arguments arguments, ServedCatalog served, ToolCall call) {
        int limit = executors.all().stream().mapToInt(e -> e.settings().maxRows()).min().orElse(ExecuteTool.DEFAULT_LIMIT);
        Gated gated = gateAndRoute(arguments, served, call, Math.min(limit, ExecuteTool.DEFAULT_LIMIT));
        if (gated.decision() instanceof Refused refusal) {
            return Refusals.envelope(refusal);
        }
        if (gated.refusal().isPresent()) {
            return Refusals.envelope(gated.refusal().get());
        }
        SqlDecision.Plan plan = (SqlDecision.Plan) gated.decision();
        Optional<QueryExecutor> executor = gated.executor();
        ObjectNode data = Replies.object();
        data.put("allowed", true);
        describe(data, plan, served);
        if (executor.isPresent()) {
            try {
                // EXPLAIN without ANALYZE is SQL that leaves: audited like any statement.
                call.beforeSql(plan.fingerprint());
            } catch (CallAudit.AuditUnavailable e) {
                return CallRecorder.unavailable(NAME);
            }
            call.rowFiltersApplied(plan.rowFilters());
            try {
                Explain explain = executor.get().explain(new BoundQuery(plan.sql(), plan.params()));
                data.putObject("explain").put("cost_class", GetMetricTool.costClass(explain.totalCost()));
            } catch (ExecutionException e) {
                data.putObject("explain").put("cost_class", "unknown");
            }
        }
        return answered(Status.SUCCESS, data);
    }
}
