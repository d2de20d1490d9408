package dev.schemabrain.mcp.tools;

import dev.schemabrain.served.CatalogProvider;
import dev.schemabrain.served.ServedCatalog;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.mcp.args.ArgSchema;
import dev.schemabrain.mcp.args.Arguments;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.mcp.tool.LatencyHint;
import dev.schemabrain.mcp.tool.ToolSpec;
import dev.schemabrain.retrieve.TableHit;
import dev.schemabrain.semantic.model.Entity;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * find_relevant_entities: the table retriever's ranking mapped onto entities, so an entity is found
 * by its table's words and meaning; an entity whose own name or description contains the question's
 * words is lifted (an authored "customer" entity can win over its table's plainer name).
 */
public final class FindRelevantEntitiesTool extends SearchTool {

    static final String NAME = "find_relevant_entities";
    /** Tables searched for each entity asked for: tables without an entity (junctions, keyless) are skipped. */
    private static final int OVERSAMPLE = 4;
    private static final double OWN_WORDS_BONUS = 0.1;
    private static final ArgSchema ARGS = arguments(512, "In words.", "");
    private static final ToolSpec SPEC = ToolSpec.storeReader(NAME, "Find relevant entities",
            "Use this when the user describes a business thing in words: the entities that model it. Use "
                    + "find_relevant_tables instead without a semantic layer. Then: describe_entity.",
            ARGS, LatencyHint.FAST);

    public FindRelevantEntitiesTool(CatalogProvider catalogs) {
        super(SPEC, catalogs);
    }

    @Override
    Envelope search(String query, int limit, Arguments arguments, ServedCatalog served) {
        Map<QualifiedName, Entity> byTable = new HashMap<>();
        served.semantic().entities().forEach(e -> byTable.putIfAbsent(e.table(), e));
        List<String> words = List.of(query.toLowerCase(Locale.ROOT).split("[^a-z0-9]+"));
        List<TableHit> hits = served.retriever().search(query, limit * OVERSAMPLE, Optional.empty());
        record Scored(Entity entity, double score, TableHit hit) {
        }
        List<Scored> scored = hits.stream().filter(h -> byTable.containsKey(h.table().name()))
                .map(h -> {
                    Entity e = byTable.get(h.table().name());
                    String own = (e.name() + " " + (e.description() == null ? "" : e.description())).toLowerCase(Locale.ROOT);
                    boolean named = words.stream().anyMatch(w -> w.length() > 2 && own.contains(w));
                    return new Scored(e, Math.min(1, h.score() + (named ? OWN_WORDS_BONUS : 0)), h);
                })
                .sorted((a, b) -> a.score() != b.score() ? Double.compare(b.score(), a.score()) : a.entity().name().compareTo(b.entity().name()))
                .limit(limit).toList();
        ObjectNode data = Replies.object();
        ArrayNode rows = data.putArray(HITS);
        for (Scored s : scored) {
            ObjectNode row = scored(SemanticReplies.entity(rows.addObject(), s.entity()), s.score());
            PiiReplies.bestColumn(row, served, s.hit(),
                    s.hit().bestColumn() == null ? null : s.entity().name() + "." + s.hit().bestColumn().name());
            row.set("pii_columns", PiiReplies.taggedColumns(served, s.hit().table()));
        }
        return ranked(data, scored.isEmpty() ? 0 : scored.get(0).score(), List.of(DescribeEntityTool.NAME, "get_metric"),
                List.of("list_entities", "find_relevant_tables"));
    }
}
