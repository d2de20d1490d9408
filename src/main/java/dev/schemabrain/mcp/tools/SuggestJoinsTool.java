package dev.schemabrain.mcp.tools;

import dev.schemabrain.served.CatalogProvider;
import dev.schemabrain.served.ServedCatalog;
import dev.schemabrain.catalog.InferenceMethod;
import dev.schemabrain.catalog.ValidationState;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schemabrain.catalog.NameLookup;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.mcp.args.ArgSchema;
import dev.schemabrain.mcp.args.Arguments;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.error.ErrorKind;
import dev.schemabrain.mcp.envelope.Confidence;
import dev.schemabrain.mcp.envelope.Provenance;
import dev.schemabrain.mcp.envelope.Recovery;
import dev.schemabrain.mcp.envelope.Status;
import dev.schemabrain.mcp.envelope.ToolError;
import dev.schemabrain.mcp.tool.LatencyHint;
import dev.schemabrain.mcp.tool.ToolSpec;
import dev.schemabrain.semantic.JoinGraph;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * suggest_joins: the shortest foreign-key paths between tables, junction tables made explicit, and joins the
 * query log showed where no foreign key connects two tables.
 */
public final class SuggestJoinsTool extends CatalogTool {

    static final String NAME = "suggest_joins";
    static final int MAX_TABLES = 10;
    private static final ArgSchema ARGS = ArgSchema.parse("""
            {
              "tables": {"type": "string", "isArray": true, "required": true, "minLength": 1, "maxLength": 512,
                         "description": "Two to ten tables as schema.table."},
              "max_hops": {"type": "integer", "minimum": 1, "maximum": 10, "default": 6}
            }""");
    private static final ToolSpec SPEC = ToolSpec.storeReader(NAME, "Suggest joins",
            "Use this when you need how two or more tables connect: the shortest foreign-key paths, or joins seen in the"
                    + " query log. Use describe_table instead for one table's keys. Then: execute.",
            ARGS, LatencyHint.FAST);

    public SuggestJoinsTool(CatalogProvider catalogs) {
        super(SPEC, catalogs);
    }

    @Override
    Envelope answer(Arguments arguments, ServedCatalog served) {
        List<String> inputs = List.copyOf(new LinkedHashSet<>(arguments.stringList("tables")));
        if (inputs.size() > MAX_TABLES) {
            return Envelope.error(ToolError.of(ErrorKind.INVALID_ARGUMENT,
                    "suggest_joins takes at most " + MAX_TABLES + " tables per call, got " + inputs.size() + "; split the call.",
                    Recovery.call(NAME, Map.of("tables", inputs.subList(0, 2).stream().map(Replies::shown).toList()))),
                    List.of(NAME));
        }
        List<QualifiedName> tables = new ArrayList<>();
        for (int i = 0; i < inputs.size(); i++) {
            NameLookup.TableResult result = served.lookup().resolveTable(inputs.get(i));
            if (result instanceof NameLookup.TableResult.Found found) {
                tables.add(found.table().name());
            } else {
                int at = i;
                return new NameReplies(NAME, name -> Map.of("tables", replaced(inputs, at, name))).forTable(inputs.get(i), result, served);
            }
        }
        List<QualifiedName> distinct = List.copyOf(new LinkedHashSet<>(tables));
        if (distinct.size() < 2) {
            String only = distinct.isEmpty() ? "" : distinct.get(0).toString();
            return Envelope.error(ToolError.of(ErrorKind.MALFORMED_NAME,
                    "suggest_joins needs at least two different tables" + (only.isEmpty() ? "" : ", got only " + only)
                            + "; describe_table shows one table's own foreign keys.",
                    only.isEmpty() ? Recovery.call("list_indexed_schemas", Map.of())
                            : Recovery.call(DescribeTableTool.NAME, Map.of("qualified_name", only))),
                    List.of(DescribeTableTool.NAME, "find_relevant_tables"));
        }
        JoinGraph.JoinPaths found = served.joins().paths(distinct, arguments.integer("max_hops"));
        ObjectNode data = Replies.object();
        ArrayNode paths = data.putArray("paths");
        List<ValidationState> observed = new ArrayList<>();
        for (JoinGraph.Path path : found.paths()) {
            ObjectNode p = paths.addObject()
                    .put("from", path.from().toString())
                    .put("to", path.to().toString())
                    .put("hops", path.hops())
                    .put("crosses_junction", path.crossesJunction());
            ArrayNode steps = p.putArray("steps");
            for (JoinGraph.Step step : path.steps()) {
                ObjectNode s = steps.addObject().put("from", step.from().toString());
                s.set("from_columns", Replies.strings(step.fromColumns()));
                s.put("to", step.to().toString());
                s.set("to_columns", Replies.strings(step.toColumns()));
                s.put("via", step.via().wireName()).put("cardinality", step.cardinality().wireName());
                if (step.junction() != null) {
                    s.put("junction", step.junction().toString());
                }
                if (step.alternatives() > 0) {
                    s.put("other_foreign_keys", step.alternatives());
                }
                if (step.via() == JoinGraph.Via.QUERY_LOG) {
                    s.put("inference_method", InferenceMethod.OBSERVED_IN_QUERY_LOG.wireName())
                            .put("confidence", Confidence.derive(step.observed(), InferenceMethod.OBSERVED_IN_QUERY_LOG).name());
                    observed.add(step.observed());
                }
            }
        }
        ArrayNode unreachable = data.putArray("unreachable");
        for (JoinGraph.Unreachable u : found.unreachable()) {
            unreachable.addObject().put("from", u.from().toString()).put("to", u.to().toString())
                    .put("reason", u.reason().wireName()).put("hops_needed", u.hopsNeeded());
        }
        if (found.paths().isEmpty()) {
            return Envelope.empty(data, List.of(DescribeTableTool.NAME));
        }
        // A path is as sure as its weakest step: an observed join makes the answer observed, a rare one a draft.
        Provenance provenance = observed.isEmpty() ? Provenance.schema(InferenceMethod.FK_CONSTRAINT)
                : new Provenance(Provenance.Source.INFERRED, null, "query_log", InferenceMethod.OBSERVED_IN_QUERY_LOG,
                        observed.contains(ValidationState.DRAFT) ? ValidationState.DRAFT : ValidationState.APPLIED);
        Status status = found.unreachable().isEmpty() ? Status.SUCCESS : Status.PARTIAL;
        return new Envelope(status, data, null, provenance.confidence(), provenance, List.of(DescribeTableTool.NAME), null);
    }

    private static List<String> replaced(List<String> inputs, int at, String name) {
        List<String> copy = new ArrayList<>();
        for (int i = 0; i < inputs.size(); i++) {
            copy.add(i == at ? name : Replies.shown(inputs.get(i)));
        }
        return copy;
    }
}
