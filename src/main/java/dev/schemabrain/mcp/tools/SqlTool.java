package dev.schemabrain.mcp.tools;

import dev.schemabrain.catalog.InferenceMethod;
import dev.schemabrain.mcp.envelope.Provenance;
import dev.schemabrain.mcp.envelope.Status;
import dev.schemabrain.served.CatalogProvider;
import dev.schemabrain.served.ServedCatalog;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schemabrain.engine.Engine;
import dev.schemabrain.engine.Engines;
import dev.schemabrain.error.ErrorKind;
import dev.schemabrain.error.ExecutionException;
import dev.schemabrain.execute.QueryExecutor;
import dev.schemabrain.execute.SourceExecutors;
import dev.schemabrain.gate.Refused;
import dev.schemabrain.gate.SqlDecision;
import dev.schemabrain.gate.SourceRouting;
import dev.schemabrain.gate.SqlGate;
import dev.schemabrain.mcp.args.Arguments;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.mcp.envelope.Recovery;
import dev.schemabrain.mcp.envelope.ToolError;
import dev.schemabrain.mcp.tool.ToolCall;
import dev.schemabrain.mcp.tool.ToolSpec;
import dev.schemabrain.sql.guard.OutputColumn;
import dev.schemabrain.sql.guard.SqlRules;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/** What validate_query and execute share: the gate (SqlGate) for the served source's engine, and the answer's parts. */
abstract class SqlTool extends CatalogTool {

    final SourceExecutors executors;
    final int minGroupSize;

    SqlTool(ToolSpec spec, CatalogProvider catalogs, SourceExecutors executors, int minGroupSize) {
        super(spec, catalogs);
        this.executors = executors;
        this.minGroupSize = minGroupSize;
    }

    /**
     * The gate's decision and, for a plan, the database it runs on (empty without one): the refusal of routing when
     * its tables are in two databases or in one this server has no connection for.
     */
    record Gated(SqlDecision decision, Optional<QueryExecutor> executor, Optional<Refused> refusal) {
    }

    /**
     * Checks the statement under each served engine's rules in turn (one, on a server of one source): a plan counts
     * only under the rules of the engine that holds its tables, since that engine is the one reading the text.
     */
    Gated gateAndRoute(Arguments arguments, ServedCatalog served, ToolCall call, int limit) {
        if (executors.isEmpty()) {
            return new Gated(gate(arguments, served, call, limit, Engines.POSTGRESQL), Optional.empty(), Optional.empty());
        }
        Refused refused = null;
        for (Engine engine : executors.all().stream().map(e -> (Engine) e.dialect()).distinct().toList()) {
            SqlDecision d = gate(arguments, served, call, limit, engine);
            if (d instanceof Refused r) {
                refused = refused == null ? r : refused;
                continue;
            }
            SqlDecision.Plan plan = (SqlDecision.Plan) d;
            SourceRouting.Routed routed = SourceRouting.route(spec().name(), plan.bound().tables(), served, executors);
            if (routed.refusal().isPresent()) {
                return new Gated(plan, Optional.empty(), routed.refusal());
            }
            if (routed.executor().get().dialect().equals(engine)) {
                call.source(routed.executor().get().sourceId());
                return new Gated(plan, routed.executor(), Optional.empty());
            }
        }
        return new Gated(refused, Optional.empty(), Optional.empty());
    }

    @Override
    final Envelope answer(Arguments arguments, ServedCatalog served) {
        return answer(arguments, served, ToolCall.unaudited(spec().name()));
    }

    /** @param engine whose rules read the text: PostgreSQL's when the server has no source (nothing runs then) */
    SqlDecision gate(Arguments arguments, ServedCatalog served, ToolCall call, int limit, Engine engine) {
        Optional<SqlRules> rules = engine.sqlRules();
        if (rules.isEmpty()) {
            // Fail closed: another engine's rules would check text this engine reads differently.
            return new Refused(ErrorKind.POLICY_BLOCKED, spec().name() + " cannot check SQL for " + engine.title()
                    + ": SchemaBrain has no SQL rules for that engine, so no agent SQL runs there; use get_metric with a"
                    + " metric from list_metrics.", "list_metrics", Map.of(), List.of(), null, null, List.of(),
                    List.of("list_metrics"));
        }
        return new SqlGate(rules.get(), minGroupSize).check(spec().name(), arguments.string("sql").orElse(""), served,
                call.access(), limit);
    }

    static Envelope noSource(String tool) {
        return Envelope.error(ToolError.of(ErrorKind.MISSING_CREDENTIAL, tool + " needs the source database, and this"
                + " server was started without one; restart it with schemabrain serve --url-env VAR (or --source URL).",
                Recovery.call("validate_query", Map.of())), List.of("validate_query", "list_metrics"));
    }

    static Envelope executionError(ExecutionException e) {
        Recovery recovery = switch (e.kind()) {
            case STATEMENT_TIMEOUT, COST_CAP_EXCEEDED -> Recovery.call("list_metrics", Map.of());
            default -> Recovery.call("validate_query", Map.of());
        };
        return Envelope.error(ToolError.of(e.kind(), e.getMessage(), recovery), List.of("validate_query", "list_metrics"));
    }

    /** The plan's facts every answer carries: tables, outputs with their PII roles, the SQL that runs, its fingerprint. */
    static void describe(ObjectNode data, SqlDecision.Plan plan, ServedCatalog served) {
        data.set("tables", Replies.strings(plan.bound().tables().stream().map(Object::toString).toList()));
        ArrayNode outputs = data.putArray("outputs");
        for (OutputColumn o : plan.bound().outputs()) {
            ObjectNode out = outputs.addObject().put("name", o.name()).put("aggregate", o.aggregate());
            out.set("values", Replies.strings(o.values().stream().map(Object::toString).toList()));
            out.set("derived", Replies.strings(o.derived().stream().map(Object::toString).toList()));
            TreeSet<String> categories = new TreeSet<>();
            o.lineage().forEach(c -> served.pii().tag(c.table(), c.column()).categories()
                    .forEach(p -> categories.add(p.wireName())));
            out.set("pii_categories", Replies.strings(categories));
        }
        data.put("sql", plan.sql());
        // Row filter values are the caller's claims: the count of parameters shows, never the values.
        data.put("param_count", plan.params().size());
        data.set("row_filters", Replies.strings(plan.rowFilters()));
        data.set("pii_categories", Replies.strings(plan.piiCategories()));
        plan.minGroupSize().ifPresent(k -> data.put("min_group_size", k));
        data.put("sql_fingerprint", plan.fingerprint());
    }

    /**
     * The answer is the source's own data, but through SQL the caller wrote: nobody authored or reviewed it as a
     * metric, so it is caller_sql, which caps confidence at MEDIUM (a governed metric's can be HIGH).
     */
    static final Provenance PROVENANCE =
            Provenance.schema(InferenceMethod.CALLER_SQL);

    static Envelope answered(Status status, ObjectNode data) {
        return new Envelope(status, data, null, PROVENANCE.confidence(), PROVENANCE, List.of("list_metrics", "describe_table"),
                null);
    }
}
