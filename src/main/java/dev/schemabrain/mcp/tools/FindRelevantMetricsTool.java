package dev.schemabrain.mcp.tools;

import dev.schemabrain.served.CatalogProvider;
import dev.schemabrain.served.ServedCatalog;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schemabrain.mcp.args.ArgSchema;
import dev.schemabrain.mcp.args.Arguments;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.mcp.tool.LatencyHint;
import dev.schemabrain.mcp.tool.ToolSpec;
import dev.schemabrain.retrieve.MetricSearch;

import java.util.List;

/** find_relevant_metrics: the semantic layer's metrics ranked for a question in words. */
public final class FindRelevantMetricsTool extends SearchTool {

    static final String NAME = "find_relevant_metrics";
    private static final ArgSchema ARGS = arguments(512, "The number wanted, in words.", "");
    private static final ToolSpec SPEC = ToolSpec.storeReader(NAME, "Find relevant metrics",
            "Use this when the user asks for a number in words: metrics ranked by meaning. Use list_metrics instead "
                    + "to see them all. Then: get_metric, describe_entity.",
            ARGS, LatencyHint.FAST);

    public FindRelevantMetricsTool(CatalogProvider catalogs) {
        super(SPEC, catalogs);
    }

    @Override
    Envelope search(String query, int limit, Arguments arguments, ServedCatalog served) {
        ObjectNode data = Replies.object();
        ArrayNode rows = data.putArray(HITS);
        if (served.semantic().metrics().isEmpty()) {
            return Envelope.empty(data, List.of("find_relevant_tables", "list_entities"));
        }
        List<MetricSearch.Hit> hits = served.metricSearch().search(query, limit);
        hits.forEach(hit -> scored(SemanticReplies.metric(rows.addObject(), hit.metric()), hit.score()));
        return ranked(data, hits.isEmpty() ? 0 : hits.get(0).score(), List.of("get_metric", DescribeEntityTool.NAME),
                List.of(ListSemanticTool.METRICS));
    }
}
