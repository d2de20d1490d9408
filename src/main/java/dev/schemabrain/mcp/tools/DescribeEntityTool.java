package dev.schemabrain.mcp.tools;

import dev.schemabrain.gate.ViewRefusals;
import dev.schemabrain.served.CatalogProvider;
import dev.schemabrain.served.ServedCatalog;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.Fuzzy;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.TypeClass;
import dev.schemabrain.describe.Description;
import dev.schemabrain.describe.TableDocuments;
import dev.schemabrain.mcp.args.ArgSchema;
import dev.schemabrain.mcp.args.Arguments;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.error.ErrorKind;
import dev.schemabrain.mcp.envelope.Recovery;
import dev.schemabrain.mcp.envelope.Status;
import dev.schemabrain.mcp.envelope.ToolError;
import dev.schemabrain.mcp.tool.LatencyHint;
import dev.schemabrain.mcp.tool.ToolSpec;
import dev.schemabrain.pii.PiiTag;
import dev.schemabrain.semantic.model.Entity;
import dev.schemabrain.semantic.model.Join;
import dev.schemabrain.semantic.model.Metric;
import dev.schemabrain.semantic.model.SemanticModel;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * describe_entity: an entity with its table, identity, columns (as entity.column), joins, metrics, the dimensions its
 * metrics can be grouped by (with PII tags) and its time axes.
 */
public final class DescribeEntityTool extends CatalogTool {

    static final String NAME = "describe_entity";
    private static final ArgSchema ARGS = ArgSchema.parse("""
            {"name": {"type": "string", "required": true, "minLength": 1, "maxLength": 512,
                      "description": "As list_metrics shows a metric's entity."}}""");
    private static final ToolSpec SPEC = ToolSpec.storeReader(NAME, "Describe entity",
            "Use this when you know an entity: its columns (entity.column), identity, joins, metrics and dimensions to "
                    + "group by. Use describe_table instead for a raw table. Then: get_metric.",
            ARGS, LatencyHint.FAST);

    public DescribeEntityTool(CatalogProvider catalogs) {
        super(SPEC, catalogs);
    }

    @Override
    Envelope answer(Arguments arguments, ServedCatalog served) {
        String name = arguments.string("name").orElseThrow().strip();
        SemanticModel model = served.semantic();
        Optional<Entity> found = model.entity(name);
        if (found.isEmpty()) {
            return unknownEntity(NAME, name, served);
        }
        Entity e = found.get();
        Optional<Table> table = served.catalog().table(e.table());
        if (table.isEmpty()) {
            return Envelope.error(ToolError.of(ErrorKind.SCHEMA_DRIFT, "Entity " + e.name() + " points at " + e.table()
                    + ", which the index no longer has; run schemabrain index, then apply the project again.",
                    Recovery.call("list_entities", Map.of())), List.of("list_entities"));
        }
        TableDocuments documents = served.documents(e.table());
        ObjectNode data = SemanticReplies.entity(Replies.object(), e);
        served.sourceOf(e.table()).ifPresent(id -> data.put("source_id", id));
        // The entity's provenance is the semantic layer's; the descriptions it shows say their own.
        List<Description> shown = new ArrayList<>();
        if (documents.description().text().equals(e.description())) {
            shown.add(documents.description());   // a drafted entity takes its table's description
        }
        ArrayNode columns = data.putArray("columns");
        for (int i = 0; i < table.get().columns().size(); i++) {
            Column c = table.get().columns().get(i);
            PiiTag tag = PiiReplies.tag(served, e.table(), c.name());
            if (PiiReplies.blocked(served, tag).isEmpty()) {
                shown.add(documents.columns().get(i).description());
            }
            ObjectNode column = columns.addObject()
                    .put("reference", e.name() + "." + c.name())
                    .put("type", c.dataType())
                    .put("nullable", c.nullable())
                    .put("identity", e.identity().contains(c.name()))
                    .put("time", TypeClass.of(c) == TypeClass.TEMPORAL)
                    .put("description", PiiReplies.description(served, tag, documents.columns().get(i).description().text()));
            PiiReplies.annotate(column, served, tag);
            DomainReplies.annotate(column, c, tag);
        }
        ArrayNode joins = data.putArray("joins");
        for (Join j : model.joins()) {
            if (j.connects(e.name())) {
                boolean forward = j.sourceEntity().equals(e.name());
                joins.addObject().put("name", j.name()).put("to", j.other(e.name()))
                        .put("cardinality", (forward ? j.cardinality() : j.cardinality().reversed()).wireName());
            }
        }
        data.set("metrics", Replies.strings(model.metrics().stream().filter(m -> m.entity().equals(e.name()))
                .map(Metric::name).toList()));
        DimensionReplies dimensions = new DimensionReplies(served);
        data.set("dimensions", dimensions.detailed(e.name()));
        dimensions.time(data, e.name());
        DescriptionProvenance.annotate(data, shown);
        return new Envelope(Status.SUCCESS, data, null, SemanticReplies.confidence(e.origin()),
                SemanticReplies.provenance(e.origin()), List.of("get_metric", "resolve_join"), null);
    }

    /** unknown_name for an entity, with close names and a search to fall back on. */
    /** unknown_name with the close entity names of the caller's view, or allowlist_violation for one it may not see. */
    static Envelope unknownEntity(String tool, String name, ServedCatalog served) {
        Optional<Envelope> refused = ViewRefusals.entity(served, name).map(Refusals::envelope);
        if (refused.isPresent()) {
            return refused.get();
        }
        SemanticModel model = served.semantic();
        List<String> matches = Fuzzy.best(name, model.entities().stream().map(Entity::name).toList(), Fuzzy.DEFAULT_LIMIT);
        Recovery recovery = matches.isEmpty()
                ? Recovery.call("find_relevant_entities", Map.of("query", Replies.shown(name)))
                : Recovery.call(NAME, Map.of("name", matches.get(0))).withFuzzyMatches(matches);
        return Envelope.error(ToolError.of(ErrorKind.UNKNOWN_NAME, "No entity is named '" + Replies.shown(name) + "'"
                + (matches.isEmpty() ? "; find_relevant_entities searches them by meaning." : "; did you mean "
                + String.join(", ", matches) + "?"), recovery), List.of("list_entities", "find_relevant_entities"));
    }
}
