package dev.schemabrain.mcp.tools;

import dev.schemabrain.served.CatalogProvider;
import dev.schemabrain.served.ServedCatalog;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schemabrain.engine.Explain;
import dev.schemabrain.execute.BoundQuery;
import dev.schemabrain.error.ExecutionException;
import dev.schemabrain.execute.QueryExecutor;
import dev.schemabrain.execute.SourceExecutors;
import dev.schemabrain.index.Fingerprints;
import dev.schemabrain.mcp.args.ArgSchema;
import dev.schemabrain.mcp.args.ArgSpec;
import dev.schemabrain.mcp.args.Arguments;
import dev.schemabrain.mcp.envelope.Confidence;
import dev.schemabrain.error.DegradationReason;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.mcp.envelope.Recovery;
import dev.schemabrain.mcp.envelope.Status;
import dev.schemabrain.mcp.envelope.ToolError;
import dev.schemabrain.mcp.tool.LatencyHint;
import dev.schemabrain.mcp.tool.CallAudit;
import dev.schemabrain.mcp.tool.SideEffects;
import dev.schemabrain.mcp.tool.ToolCall;
import dev.schemabrain.mcp.tool.CallRecorder;
import dev.schemabrain.mcp.tool.ToolSpec;
import dev.schemabrain.gate.MetricDecision;
import dev.schemabrain.gate.MetricGate;
import dev.schemabrain.gate.MetricRefusals;
import dev.schemabrain.gate.Refused;
import dev.schemabrain.semantic.compile.CompiledMetric;
import dev.schemabrain.semantic.compile.MetricRequest;
import dev.schemabrain.pii.MetricPiiCheck;
import dev.schemabrain.semantic.model.Join;
import dev.schemabrain.semantic.model.Origin;
import dev.schemabrain.semantic.model.TimeGrain;

import java.math.BigDecimal;
import java.time.temporal.TemporalAccessor;
import java.util.ArrayList;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * get_metric: a metric of the semantic layer, compiled to one read-only SELECT and run by the executor.
 * The only tool that reaches the source database; nothing the caller writes becomes SQL.
 */
public final class GetMetricTool extends CatalogTool {

    static final String NAME = "get_metric";
    private static final ArgSchema ARGS = arguments();
    private static final ToolSpec SPEC = new ToolSpec(NAME, "Get metric",
            "Use this when the user wants a number: compiles a metric to read-only SQL, runs it, returns rows. "
                    + "Use find_relevant_metrics instead to find one; describe_entity has the columns to group by.",
            ARGS, SideEffects.READ, true, true, LatencyHint.SLOW,
            new ToolSpec.RetryRule(Set.of("filters", "group_by", "time_grain", "time_dimension", "via"), "list_metrics"));

    /** The server's default K: {@link MetricGate#DEFAULT_MIN_GROUP_SIZE}. */
    public static final int DEFAULT_MIN_GROUP_SIZE = MetricGate.DEFAULT_MIN_GROUP_SIZE;

    private final MetricGate gate;

    /** @param minGroupSize the smallest group of people whose value is shown; 1 shows every group */
    public GetMetricTool(CatalogProvider catalogs, SourceExecutors executors, int minGroupSize) {
        super(SPEC, catalogs);
        this.gate = new MetricGate(executors, minGroupSize);
    }

    @Override
    Envelope answer(Arguments arguments, ServedCatalog served) {
        return answer(arguments, served, ToolCall.unaudited(NAME));
    }

    @Override
    Envelope answer(Arguments arguments, ServedCatalog served, ToolCall call) {
        MetricRequest request = request(arguments);
        MetricDecision decision = gate.decide(request, served, call.access(), call::rowFiltersApplied);
        if (decision instanceof Refused refused) {
            return Refusals.envelope(refused);
        }
        MetricDecision.Plan plan = (MetricDecision.Plan) decision;
        CompiledMetric compiled = plan.compiled();
        MetricPiiCheck.Verdict pii = plan.pii();
        QueryExecutor source = plan.source();
        call.source(source.sourceId());
        BoundQuery query = new BoundQuery(compiled.sql(), compiled.params());
        try {
            call.beforeSql(fingerprint(compiled));
        } catch (CallAudit.AuditUnavailable e) {
            return CallRecorder.unavailable(NAME);
        }
        Optional<Refused> typo = gate.typo(plan, served);
        if (typo.isPresent()) {
            return Refusals.envelope(typo.get());
        }
        ObjectNode data = Replies.object();
        data.set("columns", Replies.strings(compiled.columns()));
        try {
            if (arguments.bool("dry_run")) {
                Explain explain = source.explain(query);
                describe(data, compiled, pii);
                // The plan's row estimates would reveal the count a real run suppresses: only a cost class leaves.
                data.putObject("explain").put("cost_class", costClass(explain.totalCost()));
                return answered(Status.SUCCESS, data, compiled, served, null);
            }
            QueryExecutor.Result result = source.execute(query, compiled.limit());
            call.rowsReturned(result.rows().size());
            ArrayNode rows = data.putArray("rows");
            int suppressed = 0;
            for (List<Object> row : result.rows()) {
                // A suppressed group is left out whole: its keys would say who is in it.
                if (compiled.suppresses() && flagged(row.get(compiled.columns().size()))) {
                    suppressed++;
                    continue;
                }
                ObjectNode out = rows.addObject();
                for (int i = 0; i < compiled.columns().size(); i++) {
                    out.putPOJO(compiled.columns().get(i), shortest(row.get(i)));
                }
            }
            // Suppressed groups sort last: once one is among the rows, every shown group is in, whatever the limit cut.
            boolean cut = result.truncated() && suppressed == 0;
            // Past the limit there may be more suppressed groups than the rows showed: the count statement says how many.
            Optional<long[]> counts = compiled.groupCount().isPresent() && result.truncated() ? groupCounts(source, compiled)
                    : Optional.empty();
            if (compiled.suppresses() && counts.isPresent()) {
                suppressed = (int) Math.max(suppressed, counts.get()[1]);
            }
            // The row past the limit may itself have been a suppressed group: then nothing shown was cut.
            boolean truncated = counts.isPresent() && compiled.suppresses() ? rows.size() < counts.get()[0] - counts.get()[1] : cut;
            data.put("row_count", rows.size()).put("truncated", truncated);
            result.byteCut().ifPresent(sentence -> data.put("cut_at_bytes", result.cutAtBytes()).put("truncation", sentence));
            if (compiled.groupCount().isPresent()) {
                if (!truncated) {
                    data.put("total_groups", rows.size());
                } else {
                    counts.ifPresent(c -> data.put("total_groups", c[0] - (compiled.suppresses() ? c[1] : 0)));
                }
            }
            Suppression suppression = null;
            if (compiled.suppresses()) {
                data.put("min_group_size", compiled.minGroupSize().getAsInt()).put("suppressed_groups", suppressed);
                if (suppressed > 0) {
                    List<String> subjects = subjects(compiled, served);
                    suppression = new Suppression(compiled.minGroupSize().getAsInt(), suppressed, subjects,
                            wideningHint(request, compiled, subjects));
                    ObjectNode about = data.putObject("suppression");
                    about.put("min_group_size", suppression.k()).put("suppressed_groups", suppressed)
                            .put("widening_hint", suppression.hint());
                    about.set("subjects", Replies.strings(suppression.subjects()));
                }
            }
            describe(data, compiled, pii);
            return answered(truncated ? Status.PARTIAL : Status.SUCCESS, data, compiled, served, suppression);
        } catch (ExecutionException e) {
            return executionError(e, request, compiled.metric().entity());
        }
    }

    /** A failure on the database, with the call most likely to work: the same call as a dry run, or again later. */
    private static Envelope executionError(ExecutionException e, MetricRequest request, String metricEntity) {
        Recovery otherwise = Recovery.call("list_metrics", Map.of());
        Recovery recovery = switch (e.kind()) {
            case STATEMENT_TIMEOUT, COST_CAP_EXCEEDED -> retry(request, "dry_run", true, otherwise);
            case SOURCE_UNAVAILABLE, SOURCE_BUSY -> retry(request, null, null, otherwise);
            // The database refused the statement: the same call fails again; the entity's columns may explain why.
            default -> Recovery.call(DescribeEntityTool.NAME, Map.of("name", metricEntity));
        };
        return Envelope.error(ToolError.of(e.kind(), e.getMessage(), recovery), List.of("list_metrics"));
    }

    private static Recovery retry(MetricRequest request, String key, Object value, Recovery otherwise) {
        return MetricRefusals.retryArgs(request, key, value).map(a -> Recovery.call(NAME, a)).orElse(otherwise);
    }

    /** Small groups left out of an answer: K, how many, whom they count, and how to ask so fewer are. */
    record Suppression(int k, int count, List<String> subjects, String hint) {
    }

    /**
     * How many groups the whole answer has and how many of them are suppressed, from the count statement (same
     * FROM, WHERE and GROUP BY; derived from the audited statement). Empty if that count fails: the answer still
     * says it was truncated or suppressed.
     */
    private static Optional<long[]> groupCounts(QueryExecutor source, CompiledMetric compiled) {
        CompiledMetric.Count count = compiled.groupCount().orElseThrow();
        try {
            List<List<Object>> rows = source.execute(new BoundQuery(count.sql(), count.params()), 1).rows();
            if (rows.isEmpty() || !(rows.get(0).get(0) instanceof Number n)) {
                return Optional.empty();
            }
            long flagged = rows.get(0).size() > 1 && rows.get(0).get(1) instanceof Number f ? f.longValue() : 0;
            return Optional.of(new long[]{n.longValue(), flagged});
        } catch (ExecutionException e) {
            return Optional.empty();
        }
    }

    /**
     * Whom the suppressed groups count ("customer via invoice.customer_id"), with a person entity outside the caller's
     * view called "people": suppression counts them all the same, but their entity is not named to this caller.
     */
    private static List<String> subjects(CompiledMetric compiled, ServedCatalog served) {
        List<String> out = new ArrayList<>();
        for (String subject : compiled.subjects()) {
            int space = subject.indexOf(' ');
            String entity = space < 0 ? subject : subject.substring(0, space);
            out.add(served.semantic().entity(entity).isPresent() || served.whole().semantic().entity(entity).isEmpty()
                    ? subject : "people" + (space < 0 ? "" : subject.substring(space)));
        }
        return out;
    }

    /** What to ask instead when groups were too small: a coarser grain, one dimension fewer, or wider filters. */
    static String wideningHint(MetricRequest request, CompiledMetric compiled, List<String> subjects) {
        List<String> ways = new ArrayList<>();
        String coarser = null;
        if (request.timeGrain() != null) {
            TimeGrain grain = TimeGrain.fromWire(request.timeGrain());   // valid: the call compiled
            coarser = grain == TimeGrain.YEAR ? null : TimeGrain.values()[grain.ordinal() + 1].wireName();
        }
        if (coarser != null) {
            ways.add("a coarser time_grain (" + coarser + ")");
        }
        if (request.groupBy().size() == 1) {
            ways.add("no group_by (one total instead of a row per " + Replies.shown(request.groupBy().get(0)) + ")");
        } else if (!request.groupBy().isEmpty()) {
            ways.add("one group_by column fewer (drop " + Replies.shown(request.groupBy().get(request.groupBy().size() - 1)) + ")");
        }
        if (!request.filters().isEmpty()) {
            ways.add("wider filters");
        }
        return "Groups of fewer than " + compiled.minGroupSize().orElse(0) + " distinct people (" + String.join(", ", subjects)
                + ") are left out; ask with " + (ways.isEmpty() ? "a wider question: the whole answer covers too few people"
                : String.join(", or ", ways)) + ".";
    }

    /**
     * The plan's total cost as a class, never the row estimate it came with; {@code unknown} where the engine gives
     * no cost (MySQL and MariaDB's EXPLAIN has only row estimates, which are what must not leave).
     */
    static String costClass(Double totalCost) {
        return totalCost == null ? "unknown" : totalCost < 1_000 ? "low" : totalCost < 100_000 ? "medium" : "high";
    }



    /**
     * A decimal in its shortest exact form (112.30 → 112.3, never 1E+3), so the JSON a client parses and
     * re-serializes has the same text as the one sent, and token_estimate describes both.
     */
    private static Object shortest(Object value) {
        if (value instanceof BigDecimal d) {
            BigDecimal s = d.stripTrailingZeros();
            return s.scale() < 0 ? s.setScale(0) : s;
        }
        return value;
    }

    private static boolean flagged(Object flag) {
        return flag instanceof Number n ? n.intValue() != 0 : Boolean.TRUE.equals(flag);
    }



    private static void describe(ObjectNode data, CompiledMetric compiled, MetricPiiCheck.Verdict pii) {
        data.put("sql", compiled.sql());
        ArrayNode params = data.putArray("params");
        compiled.params().forEach(p -> params.addPOJO(p instanceof TemporalAccessor ? p.toString() : p));
        data.set("required_joins", Replies.strings(compiled.requiredJoins()));
        data.set("fan_out_joins", Replies.strings(compiled.fanOutJoins()));
        data.set("pii_categories", Replies.strings(pii.propagatedNames()));
        data.put("sql_fingerprint", fingerprint(compiled));
    }

    /** The statement's identity in answers and the audit log: its SQL text hashed, never its parameters. */
    private static String fingerprint(CompiledMetric compiled) {
        return Fingerprints.sha256(compiled.sql()).substring(0, 16);
    }

    /** Degraded wins over partial: a wrong-looking number matters more than a cut-off list (truncated says so too). */
    private static Envelope answered(Status status, ObjectNode data, CompiledMetric compiled, ServedCatalog served,
                                     Suppression suppression) {
        data.set("assumptions", MetricAssumptions.of(compiled, suppression, served.semantic().review(compiled.metric().name())));
        List<Origin> origins = new ArrayList<>(List.of(compiled.metric().origin()));
        for (String name : compiled.requiredJoins()) {
            served.semantic().join(name).map(Join::origin).ifPresent(origins::add);
        }
        Confidence confidence = SemanticReplies.worst(origins);
        var provenance = SemanticReplies.worstProvenance(origins);
        List<String> hints = List.of("describe_entity", "list_metrics");
        if (compiled.degradation().isPresent()) {
            DegradationReason reason = compiled.degradation().get();
            return new Envelope(Status.DEGRADED, data, null, confidence, provenance, hints, reason);
        }
        if (suppression != null) {
            return new Envelope(Status.DEGRADED, data, null, confidence, provenance, hints,
                    DegradationReason.SMALL_GROUPS_SUPPRESSED);
        }
        if (status == Status.SUCCESS && data.has("rows") && data.get("rows").isEmpty()) {
            return new Envelope(Status.EMPTY, data, null, confidence, provenance, hints, null);
        }
        return new Envelope(status, data, null, confidence, provenance, hints, null);
    }

    /** name, then the request's arguments as a metric test declares them too, then dry_run. */
    private static ArgSchema arguments() {
        Map<String, ArgSpec> all = new LinkedHashMap<>(ArgSchema.parse("""
                {"name": {"type": "string", "required": true, "minLength": 1, "maxLength": 512, "description": "As list_metrics shows it."}}""").args());
        all.putAll(MetricArguments.SCHEMA.args());
        all.putAll(ArgSchema.parse("""
                {"dry_run": {"type": "boolean", "default": false, "description": "Only the SQL and a cost class."}}""").args());
        return new ArgSchema(all);
    }

    /** The arguments as a request: their declaration has checked every field, the compiler checks the references. */
    static MetricRequest request(Arguments arguments) {
        return MetricArguments.request(arguments.string("name").orElseThrow(), arguments);
    }

}
