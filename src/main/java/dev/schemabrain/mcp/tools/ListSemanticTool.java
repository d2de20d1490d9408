package dev.schemabrain.mcp.tools;

import dev.schemabrain.served.CatalogProvider;
import dev.schemabrain.served.ServedCatalog;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schemabrain.mcp.args.ArgSchema;
import dev.schemabrain.mcp.args.Arguments;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.error.ErrorKind;
import dev.schemabrain.mcp.envelope.Recovery;
import dev.schemabrain.mcp.envelope.Status;
import dev.schemabrain.mcp.envelope.ToolError;
import dev.schemabrain.mcp.tool.LatencyHint;
import dev.schemabrain.mcp.tool.ToolSpec;
import dev.schemabrain.semantic.model.Entity;
import dev.schemabrain.semantic.model.Join;
import dev.schemabrain.semantic.model.Metric;
import dev.schemabrain.semantic.model.Origin;
import dev.schemabrain.semantic.model.SemanticModel;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * list_entities, list_joins and list_metrics: one listing each of the semantic layer, with provenance, a page at a
 * time (a 300-table warehouse drafts over a thousand metrics, about 180 tokens each).
 */
final class ListSemanticTool<T> extends CatalogTool {

    static final String METRICS = "list_metrics";
    private static final ArgSchema ARGS = ArgSchema.parse("""
            {
              "limit": {"type": "integer", "minimum": 1, "maximum": 200, "default": 50},
              "cursor": {"type": "string", "minLength": 1, "maxLength": 512, "description": "A next_cursor."}
            }""");

    private final String name;
    private final String field;
    private final Function<T, String> nameOf;
    private final Function<SemanticModel, List<T>> rows;
    private final Function<T, Origin> origin;
    /** How a row reads, given the catalog served (list_metrics adds each metric's dimensions). */
    private final Function<ServedCatalog, BiFunction<ObjectNode, T, ObjectNode>> render;
    private final List<String> hints;

    private ListSemanticTool(ToolSpec spec, CatalogProvider catalogs, String field, Function<SemanticModel, List<T>> rows,
                             Function<T, String> nameOf, Function<T, Origin> origin,
                             Function<ServedCatalog, BiFunction<ObjectNode, T, ObjectNode>> render, List<String> hints) {
        super(spec, catalogs);
        this.name = spec.name();
        this.field = field;
        this.nameOf = nameOf;
        this.rows = rows;
        this.origin = origin;
        this.render = render;
        this.hints = hints;
    }

    static ListSemanticTool<Entity> entities(CatalogProvider catalogs) {
        return new ListSemanticTool<>(ToolSpec.storeReader("list_entities", "List entities",
                "Use this when you want the business entities the semantic layer knows. Use find_relevant_entities "
                        + "instead to search them by meaning. Then: describe_entity, list_metrics.",
                ARGS, LatencyHint.FAST), catalogs, "entities", SemanticModel::entities, Entity::name, Entity::origin,
                served -> SemanticReplies::entity, List.of("describe_entity", "list_metrics"));
    }

    static ListSemanticTool<Join> joins(CatalogProvider catalogs) {
        return new ListSemanticTool<>(ToolSpec.storeReader("list_joins", "List joins",
                "Use this when you want the canonical joins between entities. Use resolve_join instead for one pair, "
                        + "suggest_joins for raw tables. Then: get_metric with via.",
                ARGS, LatencyHint.FAST), catalogs, "joins", SemanticModel::joins, Join::name, Join::origin,
                served -> SemanticReplies::join, List.of("resolve_join", "get_metric"));
    }

    static ListSemanticTool<Metric> metrics(CatalogProvider catalogs) {
        return new ListSemanticTool<>(ToolSpec.storeReader(METRICS, "List metrics",
                "Use this when you want every metric, a page at a time, with its measure and entity. Use "
                        + "find_relevant_metrics instead to search in words. Then: get_metric.",
                ARGS, LatencyHint.FAST), catalogs, "metrics", SemanticModel::metrics, Metric::name, Metric::origin,
                served -> {
                    DimensionReplies dimensions = new DimensionReplies(served);
                    return (node, m) -> dimensions.metric(SemanticReplies.metric(node, m), m);
                }, List.of("get_metric", "describe_entity"));
    }

    @Override
    Envelope answer(Arguments arguments, ServedCatalog served) {
        List<T> list = rows.apply(served.semantic());
        int limit = arguments.integer("limit");
        Optional<Page> found = Page.of(list, nameOf, field, arguments.string("cursor"), limit);
        if (found.isEmpty()) {
            return Envelope.error(ToolError.of(ErrorKind.INVALID_ARGUMENT, "Invalid arguments for " + name
                    + ": cursor is not a next_cursor " + name + " returned; call " + name
                    + " again without cursor to start from the first page.",
                    Recovery.call(name, Map.of("limit", limit))), List.of(name));
        }
        Page page = found.get();
        List<T> shown = list.subList(page.from(), page.to());
        ObjectNode data = Replies.object();
        ArrayNode array = data.putArray(field);
        BiFunction<ObjectNode, T, ObjectNode> rendering = render.apply(served);
        shown.forEach(row -> rendering.apply(array.addObject(), row));
        data.put("total", list.size());
        if (shown.isEmpty()) {
            return Envelope.empty(data, list.isEmpty() ? List.of("find_relevant_tables", "list_indexed_schemas") : List.of(name));
        }
        List<Origin> origins = shown.stream().map(origin).toList();
        boolean more = page.more(list.size());
        data.put("truncated", more);
        if (more) {
            data.put("next_cursor", page.next(list, nameOf, field));
        }
        return new Envelope(more ? Status.PARTIAL : Status.SUCCESS, data, null, SemanticReplies.worst(origins),
                SemanticReplies.worstProvenance(origins), more ? List.of(name, hints.get(0)) : hints, null);
    }
}
