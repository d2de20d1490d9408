package dev.schemabrain.mcp.tools;

import dev.schemabrain.served.CatalogProvider;
import dev.schemabrain.served.ServedCatalog;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schemabrain.mcp.args.ArgSchema;
import dev.schemabrain.mcp.args.Arguments;
import dev.schemabrain.mcp.envelope.Confidence;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.mcp.tool.ToolSpec;

import java.util.List;

/**
 * A search in words (find_relevant_tables, _entities, _metrics): its query and limit arguments, the refusal of a
 * blank query, the rounded score of each hit, and the envelope of a ranked list or of no match.
 */
abstract class SearchTool extends CatalogTool {

    /** The key the ranked rows are listed under. */
    static final String HITS = "hits";

    SearchTool(ToolSpec spec, CatalogProvider catalogs) {
        super(spec, catalogs);
    }

    /** The arguments of a search: {@code query} (at most {@code maxLength} characters), {@code limit}, then {@code more}. */
    static ArgSchema arguments(int maxLength, String queryDescription, String more) {
        return ArgSchema.parse("""
                {
                  "query": {"type": "string", "required": true, "minLength": 1, "maxLength": %d,
                            "description": "%s"},
                  "limit": {"type": "integer", "minimum": 1, "maximum": 50, "default": 10}%s
                }""".formatted(maxLength, queryDescription, more.isEmpty() ? "" : ",\n" + more));
    }

    @Override
    final Envelope answer(Arguments arguments, ServedCatalog served) {
        String query = arguments.string("query").orElseThrow();
        if (query.isBlank()) {
            return Replies.blankQuery(spec().name());
        }
        return search(query, arguments.integer("limit"), arguments, served);
    }

    /** Answers a search whose query holds words. */
    abstract Envelope search(String query, int limit, Arguments arguments, ServedCatalog served);

    /** A hit's score as shown: three decimals. */
    static ObjectNode scored(ObjectNode row, double score) {
        return row.put("score", Math.round(score * 1000) / 1000.0);
    }

    /**
     * The answer of a search: {@code data}, whose hits are best first, with the confidence of the best
     * {@code topScore} and the {@code next} tools; or, without hits, empty with the {@code otherwise} tools.
     */
    static Envelope ranked(ObjectNode data, double topScore, List<String> next, List<String> otherwise) {
        if (data.path(HITS).isEmpty()) {
            return Envelope.empty(data, otherwise);
        }
        return Envelope.success(data, Confidence.fromScore(topScore), null, next);
    }
}
