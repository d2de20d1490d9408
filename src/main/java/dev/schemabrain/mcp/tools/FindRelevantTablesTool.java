package dev.schemabrain.mcp.tools;

import dev.schemabrain.served.CatalogProvider;
import dev.schemabrain.served.ServedCatalog;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schemabrain.catalog.NameLookup;
import dev.schemabrain.describe.Description;
import dev.schemabrain.describe.TableDocuments;
import dev.schemabrain.mcp.args.ArgSchema;
import dev.schemabrain.mcp.args.Arguments;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.error.ErrorKind;
import dev.schemabrain.mcp.envelope.Recovery;
import dev.schemabrain.mcp.envelope.ToolError;
import dev.schemabrain.mcp.tool.LatencyHint;
import dev.schemabrain.mcp.tool.ToolSpec;
import dev.schemabrain.retrieve.TableHit;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** find_relevant_tables: tables ranked for a question in words. */
public final class FindRelevantTablesTool extends SearchTool {

    static final String NAME = "find_relevant_tables";
    private static final ArgSchema ARGS = arguments(1000, "In words, or * for every table.", """
              "schema": {"type": "string", "minLength": 1, "maxLength": 512, "description": "Only tables of this schema."},
              "response_format": {"type": "enum", "enum": ["concise", "detailed"], "default": "concise"}""");
    private static final ToolSpec SPEC = ToolSpec.storeReader(NAME, "Find relevant tables",
            "Use this when the user describes data in words: tables ranked by relevance, with the best column. "
                    + "Use describe_table instead when you know the table. Then: describe_table, suggest_joins.",
            ARGS, LatencyHint.FAST);

    public FindRelevantTablesTool(CatalogProvider catalogs) {
        super(SPEC, catalogs);
    }

    @Override
    Envelope search(String query, int limit, Arguments arguments, ServedCatalog served) {
        Optional<String> schema = Optional.empty();
        Optional<String> given = arguments.string("schema");
        if (given.isPresent()) {
            NameLookup.SchemaResult resolved = served.lookup().resolveSchema(given.get());
            if (!(resolved instanceof NameLookup.SchemaResult.Found found)) {
                return unknownSchema(given.get(), resolved, query);
            }
            schema = Optional.of(found.schema());
        }
        boolean detailed = arguments.string("response_format").orElseThrow().equals("detailed");
        List<TableHit> hits = served.retriever().search(query, limit, schema);
        ObjectNode data = Replies.object();
        ArrayNode rows = data.putArray(HITS);
        for (TableHit hit : hits) {
            ObjectNode row = scored(rows.addObject().put("qualified_name", hit.table().name().toString()), hit.score());
            PiiReplies.bestColumn(row, served, hit, hit.bestColumn() == null ? null : hit.bestColumn().name());
            row.set("pii_columns", PiiReplies.taggedColumns(served, hit.table()));
            TableDocuments documents = served.documents(hit.table().name());
            // The value index never holds a tagged column's values; checked again in case a tag came later.
            if (hit.matchedValue() != null && !PiiReplies.tag(served, hit.table().name(), hit.matchedValue().column()).tagged()) {
                row.putObject("matched_value").put("column", hit.matchedValue().column()).put("value", hit.matchedValue().value());
            }
            if (detailed) {
                row.put("kind", hit.table().kind().wireName())
                        .put("description", documents.description().text())
                        .put("row_estimate", hit.table().rowEstimate())
                        .put("column_count", hit.table().columns().size())
                        .set("matched_terms", Replies.strings(hit.matchedTerms()));
            }
            DescriptionProvenance.annotate(row, shown(served, hit, documents, detailed));
        }
        return ranked(data, hits.isEmpty() ? 0 : hits.get(0).score(), List.of("describe_table", "suggest_joins"),
                List.of("list_indexed_schemas"));
    }

    /** The descriptions a hit shows: its best column's (unless redacted), and in detail the table's. */
    private static List<Description> shown(ServedCatalog served, TableHit hit, TableDocuments documents, boolean detailed) {
        List<Description> shown = new ArrayList<>();
        if (hit.bestColumn() != null
                && PiiReplies.blocked(served, PiiReplies.tag(served, hit.table().name(), hit.bestColumn().name())).isEmpty()) {
            documents.columns().stream().filter(c -> c.column().equals(hit.bestColumn().name()))
                    .forEach(c -> shown.add(c.description()));
        }
        if (detailed) {
            shown.add(documents.description());
        }
        return shown;
    }

    private static Envelope unknownSchema(String schema, NameLookup.SchemaResult resolved, String query) {
        List<String> matches = resolved instanceof NameLookup.NotFound n ? n.fuzzyMatches()
                : resolved instanceof NameLookup.SchemaResult.Ambiguous a ? a.candidates().stream().limit(3).toList()
                : List.of();
        Recovery recovery = matches.isEmpty()
                ? Recovery.call("list_indexed_schemas", Map.of())
                : Recovery.call(NAME, Map.of("query", Replies.shown(query), "schema", matches.get(0))).withFuzzyMatches(matches);
        return Envelope.error(ToolError.of(ErrorKind.UNKNOWN_NAME,
                "No indexed schema is named '" + Replies.shown(schema) + "'"
                        + (matches.isEmpty() ? "; list_indexed_schemas shows the schemas there are." : "; did you mean "
                        + String.join(", ", matches) + "?"), recovery), List.of("list_indexed_schemas"));
    }
}
