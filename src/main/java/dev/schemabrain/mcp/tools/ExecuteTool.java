package dev.schemabrain.mcp.tools;

import dev.schemabrain.error.DegradationReason;
import dev.schemabrain.gate.SqlRewrite;
import dev.schemabrain.served.CatalogProvider;
import dev.schemabrain.served.ServedCatalog;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
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

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * execute: runs the rewritten statement of a SQL text that passes the gate through the one execution
 * path (read-only session, statement timeout, row cap, EXPLAIN cost cap), never the caller's text.
 */
public final class ExecuteTool extends SqlTool {

    static final String NAME = "execute";
    static final int DEFAULT_LIMIT = 1000;
    private static final ArgSchema ARGS = ArgSchema.parse("""
            {"sql": {"type": "string", "required": true, "minLength": 1, "maxLength": 100000, "description": "One SELECT."},
             "limit": {"type": "integer", "minimum": 1, "maximum": 10000, "default": 1000}}""");
    private static final ToolSpec SPEC = new ToolSpec(NAME, "Execute query",
            "Use this when no metric answers: runs one read-only SELECT, rewritten to your access, returns rows. "
                    + "Use get_metric instead when a metric fits. After describe_table.",
            ARGS, SideEffects.READ, true, true, LatencyHint.SLOW);

    public ExecuteTool(CatalogProvider catalogs, SourceExecutors executors, int minGroupSize) {
        super(SPEC, catalogs, executors, minGroupSize);
    }

    @Override
    Envelope answer(Arguments arguments, ServedCatalog served, ToolCall call) {
        int limit = arguments.integer("limit");
        Gated gated = gateAndRoute(arguments, served, call, limit);
        if (gated.decision() instanceof Refused refusal) {
            return Refusals.envelope(refusal);
        }
        if (executors.isEmpty()) {
            return noSource(NAME);
        }
        if (gated.refusal().isPresent()) {
            return Refusals.envelope(gated.refusal().get());
        }
        QueryExecutor executor = gated.executor().get();
        SqlDecision.Plan plan = (SqlDecision.Plan) gated.decision();
        try {
            call.beforeSql(plan.fingerprint());
        } catch (CallAudit.AuditUnavailable e) {
            return CallRecorder.unavailable(NAME);
        }
        call.rowFiltersApplied(plan.rowFilters());
        QueryExecutor.Result result;
        try {
            result = executor.execute(new BoundQuery(plan.sql(), plan.params()), limit);
        } catch (ExecutionException e) {
            return executionError(e);
        }
        call.rowsReturned(result.rows().size());
        ObjectNode data = Replies.object();
        List<String> names = plan.bound().outputs().stream().map(o -> o.name()).toList();
        data.set("columns", Replies.strings(names));
        ArrayNode rows = data.putArray("rows");
        for (List<Object> row : result.rows()) {
            // Rows as arrays: two outputs may share a name (a.id, b.id), which keyed objects would merge.
            ArrayNode out = rows.addArray();
            row.forEach(out::addPOJO);
        }
        data.put("row_count", rows.size()).put("truncated", result.truncated());
        result.byteCut().ifPresent(sentence -> data.put("cut_at_bytes", result.cutAtBytes()).put("truncation", sentence));
        describe(data, plan, served);
        OptionalLong counted = suppressed(plan, executor);
        data.set("assumptions", assumptions(plan, limit, counted));
        if (plan.minGroupSize().isPresent()) {
            // Unknown (null) when the count failed: never a 0 that would pass the answer off as complete.
            data.putPOJO("suppressed_groups", counted.isPresent() ? counted.getAsLong() : null);
        }
        if (counted.isEmpty() || counted.getAsLong() > 0) {
            // The withheld groups are not listed, only counted.
            data.putObject("suppression").put("min_group_size", plan.minGroupSize().getAsInt())
                    .putPOJO("suppressed_groups", counted.isPresent() ? counted.getAsLong() : null)
                    .put("widening_hint", "Groups about fewer than " + plan.minGroupSize().getAsInt()
                            + " distinct people are left out" + (counted.isPresent() ? "" : " (how many could not be counted)")
                            + "; group by fewer or coarser columns, or widen the filters.");
            return new Envelope(Status.DEGRADED, data, null, PROVENANCE.confidence(), PROVENANCE,
                    List.of("validate_query", "list_metrics"), DegradationReason.SMALL_GROUPS_SUPPRESSED);
        }
        if (rows.isEmpty() && !result.truncated()) {
            // Not empty when the byte budget left out a first row too large to return: that answer is partial.
            return new Envelope(Status.EMPTY, data, null, PROVENANCE.confidence(), PROVENANCE,
                    List.of("validate_query", "describe_table"), null);
        }
        return answered(result.truncated() ? Status.PARTIAL : Status.SUCCESS, data);
    }

    /**
     * What an execute answer assumed: nothing about the rows it counts (no status, test-row or currency rule: the SQL
     * says what it counts), the role's row filters, the small-group rule, the row limit; and that the statement ran
     * as the gate wrote it again.
     */
    private static ObjectNode assumptions(SqlDecision.Plan plan, int limit, OptionalLong suppressed) {
        ObjectNode node = Replies.object();
        List<String> sentence = new ArrayList<>(List.of("The statement ran as SchemaBrain wrote it again from its"
                + " checked form; no metric definition applies here, so no status, test-row, soft-delete or currency rule"
                + " was added: the SQL alone says which rows count"));
        node.put("definition", "the caller's SQL");
        node.set("row_filters", Replies.strings(plan.rowFilters()));
        if (!plan.rowFilters().isEmpty()) {
            sentence.add("your role's row filters applied (" + String.join(", ", plan.rowFilters()) + ")");
        }
        plan.minGroupSize().ifPresent(k -> {
            String left = "groups of fewer than " + k + " distinct people are left out"
                    + (suppressed.isPresent() ? " (" + suppressed.getAsLong() + " here)" : "");
            node.put("suppression", left);
            sentence.add(left);
        });
        node.put("row_limit", limit);
        sentence.add("at most " + limit + " rows are returned");
        node.put("sentence", String.join("; ", sentence) + ".");
        return node;
    }

    /**
     * How many groups the small-group rule left out, from the count statement derived from the audited one (same
     * FROM, WHERE and GROUP BY): 0 without the rule, empty when the count failed (the answer then says some may be).
     */
    private static OptionalLong suppressed(SqlDecision.Plan plan, QueryExecutor executor) {
        long total = 0;
        for (SqlRewrite.Rewritten count : plan.suppressedCount()) {
            try {
                List<List<Object>> rows = executor.execute(new BoundQuery(count.sql(), count.params()), 1)
                        .rows();
                if (rows.isEmpty() || !(rows.get(0).get(0) instanceof Number n)) {
                    return OptionalLong.empty();
                }
                total += n.longValue();
            } catch (ExecutionException e) {
                return OptionalLong.empty();
            }
        }
        return OptionalLong.of(total);
    }
}
