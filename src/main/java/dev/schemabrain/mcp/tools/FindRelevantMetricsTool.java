package dev.schemabrain.mcp.tools;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schemabrain.mcp.args.ArgSchema;
import dev.schemabrain.mcp.args.Arguments;
import dev.schemabrain.mcp.envelope.Confidence;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.mcp.tool.LatencyHint;
import dev.schemabrain.mcp.tool.ToolSpec;
import dev.schemabrain.retrieve.MetricSearch;

import java.util.List;

/** find_relevant_metrics: the semantic layer's metrics ranked for a question in words. */
public final class FindRelevantMetricsTool extends CatalogTool {

    static final String NAME = "find_relevant_metrics";
    private static final ArgSchema ARGS = ArgSchema.parse("""
            {
              "query": {"type": "string", "required": true, "minLength": 1, "maxLength": 512,
                        "description": "The number wanted, in words."},
              "limit": {"type": "integer", "minimum": 1, "maximum": 50, "default": 10}
            }""");
    private static final ToolSpec SPEC = ToolSpec.storeReader(NAME, "Find relevant metrics",
            "Use this when the user asks for a number in words: metrics ranked by meaning. Use list_metrics instead "
                    + "to see them all. Then: get_metric, describe_entity.",
            ARGS, LatencyHint.FAST);

    public FindRelevantMetricsTool(CatalogProvider catalogs) {
        super(SPEC, catalogs);
    }

    @Override
    Envelope answer(Arguments arguments, ServedCatalog served) {
        String query = arguments.string("query").orElseThrow();
        if (query.isBlank()) {
            return Replies.blankQuery(NAME);
        }
        ObjectNode data = Replies.object();
        ArrayNode rows = data.putArray("hits");
        if (served.semantic().metrics().isEmpty()) {
            return Envelope.empty(data, List.of("find_relevant_tables", "list_entities"));
        }
        List<MetricSearch.Hit> hits = served.metricSearch().search(query, arguments.integer("limit"));
        for (MetricSearch.Hit hit : hits) {
            SemanticReplies.metric(rows.addObject(), hit.metric()).put("score", Math.round(hit.score() * 1000) / 1000.0);
        }
        if (hits.isEmpty()) {
            return Envelope.empty(data, List.of(ListSemanticTool.METRICS));
        }
        return Envelope.success(data, Confidence.fromScore(hits.get(0).score()), null,
                List.of("get_metric", DescribeEntityTool.NAME));
    }
}
