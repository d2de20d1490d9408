package dev.schemabrain.mcp.tools;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schemabrain.mcp.args.ArgSchema;
import dev.schemabrain.mcp.args.Arguments;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.mcp.envelope.Status;
import dev.schemabrain.mcp.tool.LatencyHint;
import dev.schemabrain.mcp.tool.ToolSpec;
import dev.schemabrain.semantic.model.Entity;
import dev.schemabrain.semantic.model.Join;
import dev.schemabrain.semantic.model.Metric;
import dev.schemabrain.semantic.model.Origin;
import dev.schemabrain.semantic.model.SemanticModel;

import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;

/** list_entities, list_joins and list_metrics: one listing each of the semantic layer, with provenance. */
final class ListSemanticTool<T> extends CatalogTool {

    private final String field;
    private final Function<SemanticModel, List<T>> rows;
    private final Function<T, Origin> origin;
    /** How a row reads, given the catalog served (list_metrics adds each metric's dimensions). */
    private final Function<ServedCatalog, BiFunction<ObjectNode, T, ObjectNode>> render;
    private final List<String> hints;

    private ListSemanticTool(ToolSpec spec, CatalogProvider catalogs, String field, Function<SemanticModel, List<T>> rows,
                             Function<T, Origin> origin, Function<ServedCatalog, BiFunction<ObjectNode, T, ObjectNode>> render,
                             List<String> hints) {
        super(spec, catalogs);
        this.field = field;
        this.rows = rows;
        this.origin = origin;
        this.render = render;
        this.hints = hints;
    }

    static ListSemanticTool<Entity> entities(CatalogProvider catalogs) {
        return new ListSemanticTool<>(ToolSpec.storeReader("list_entities", "List entities",
                "Use this when you want the business entities the semantic layer knows. Use find_relevant_entities "
                        + "instead to search them by meaning. Then: describe_entity, list_metrics.",
                ArgSchema.empty(), LatencyHint.FAST), catalogs, "entities", SemanticModel::entities, Entity::origin,
                served -> SemanticReplies::entity, List.of("describe_entity", "list_metrics"));
    }

    static ListSemanticTool<Join> joins(CatalogProvider catalogs) {
        return new ListSemanticTool<>(ToolSpec.storeReader("list_joins", "List joins",
                "Use this when you want the canonical joins between entities. Use resolve_join instead for one pair, "
                        + "suggest_joins for raw tables. Then: get_metric with via.",
                ArgSchema.empty(), LatencyHint.FAST), catalogs, "joins", SemanticModel::joins, Join::origin,
                served -> SemanticReplies::join, List.of("resolve_join", "get_metric"));
    }

    static ListSemanticTool<Metric> metrics(CatalogProvider catalogs) {
        return new ListSemanticTool<>(ToolSpec.storeReader("list_metrics", "List metrics",
                "Use this when the user wants a number and you need the metric that computes it and its dimensions. "
                        + "Use get_metric instead to compute one. Then: describe_entity, get_metric.",
                ArgSchema.empty(), LatencyHint.FAST), catalogs, "metrics", SemanticModel::metrics, Metric::origin,
                served -> {
                    DimensionReplies dimensions = new DimensionReplies(served);
                    return (node, m) -> dimensions.metric(SemanticReplies.metric(node, m), m);
                }, List.of("get_metric", "describe_entity"));
    }

    @Override
    Envelope answer(Arguments arguments, ServedCatalog served) {
        List<T> list = rows.apply(served.semantic());
        ObjectNode data = Replies.object();
        ArrayNode array = data.putArray(field);
        BiFunction<ObjectNode, T, ObjectNode> rendering = render.apply(served);
        list.forEach(row -> rendering.apply(array.addObject(), row));
        if (list.isEmpty()) {
            return Envelope.empty(data, List.of("find_relevant_tables", "list_indexed_schemas"));
        }
        List<Origin> origins = list.stream().map(origin).toList();
        return new Envelope(Status.SUCCESS, data, null, SemanticReplies.worst(origins),
                SemanticReplies.worstProvenance(origins), hints, null);
    }
}
