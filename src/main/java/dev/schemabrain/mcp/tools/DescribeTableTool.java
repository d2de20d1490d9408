package dev.schemabrain.mcp.tools;

import dev.schemabrain.served.CatalogProvider;
import dev.schemabrain.served.ServedCatalog;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.ForeignKey;
import dev.schemabrain.catalog.NameLookup;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.UniqueConstraint;
import dev.schemabrain.describe.Description;
import dev.schemabrain.describe.TableDocuments;
import dev.schemabrain.mcp.args.ArgSchema;
import dev.schemabrain.mcp.args.Arguments;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.mcp.tool.LatencyHint;
import dev.schemabrain.mcp.tool.ToolSpec;
import dev.schemabrain.pii.PiiTag;
import dev.schemabrain.semantic.JoinGraph;

import java.util.ArrayList;
import java.util.List;

/** describe_table: one table's columns, keys and relations. */
public final class DescribeTableTool extends CatalogTool {

    static final String NAME = "describe_table";
    private static final ArgSchema ARGS = ArgSchema.parse("""
            {
              "qualified_name": {"type": "string", "required": true, "minLength": 1, "maxLength": 512,
                                 "description": "schema.table, or a unique table name."},
              "response_format": {"type": "enum", "enum": ["concise", "detailed"], "default": "concise"}
            }""");
    private static final ToolSpec SPEC = ToolSpec.storeReader(NAME, "Describe table",
            "Use this when you know a table's name: its columns, types, keys and links. Use find_relevant_tables "
                    + "instead when you only have words. Then: suggest_joins, execute.",
            ARGS, LatencyHint.FAST);

    public DescribeTableTool(CatalogProvider catalogs) {
        super(SPEC, catalogs);
    }

    @Override
    Envelope answer(Arguments arguments, ServedCatalog served) {
        String input = arguments.string("qualified_name").orElseThrow();
        NameLookup.TableResult result = served.lookup().resolveTable(input);
        if (!(result instanceof NameLookup.TableResult.Found found)) {
            return NameReplies.retrying(NAME).forTable(input, result, served);
        }
        Table table = found.table();
        TableDocuments documents = served.documents(table.name());
        boolean detailed = arguments.string("response_format").orElseThrow().equals("detailed");
        ObjectNode data = Replies.object()
                .put("qualified_name", table.name().toString())
                .put("kind", table.kind().wireName())
                .put("description", documents.description().text())
                .put("row_estimate", table.rowEstimate())
                .put("is_junction", table.isJunction());
        // Which database it is in: a store may serve several (list_indexed_schemas gives each schema's).
        served.sourceOf(table.name()).ifPresent(id -> data.put("source_id", id));
        data.set("primary_key", Replies.strings(table.primaryKey()));
        ArrayNode columns = data.putArray("columns");
        for (int i = 0; i < table.columns().size(); i++) {
            Column c = table.columns().get(i);
            Description description = documents.columns().get(i).description();
            PiiTag tag = PiiReplies.tag(served, table.name(), c.name());
            ObjectNode column = columns.addObject()
                    .put("name", c.name())
                    .put("type", c.dataType())
                    .put("nullable", c.nullable())
                    .put("primary_key", table.isPrimaryKey(c.name()))
                    .put("default", c.defaultValue())
                    .put("description", PiiReplies.description(served, tag, description.text()));
            PiiReplies.annotate(column, served, tag);
            if (detailed) {
                column.put("description_source", description.origin().wireName());
                column.put("position", c.position());
                column.set("samples", Replies.strings(c.samples()));
                DomainReplies.annotate(column, c, tag);
            }
        }
        ArrayNode out = data.putArray("foreign_keys_out");
        for (ForeignKey fk : table.foreignKeys()) {
            ObjectNode row = out.addObject();
            row.set("columns", Replies.strings(fk.columns()));
            row.put("references", fk.target().toString());
            row.set("target_columns", Replies.strings(fk.targetColumns()));
            if (detailed) {
                row.put("name", fk.name());
            }
        }
        ArrayNode in = data.putArray("foreign_keys_in");
        for (JoinGraph.Step step : served.joins().neighbours(table.name())) {
            // A reverse step starts here and walks to a table whose foreign key points at this one.
            if (step.direction() == JoinGraph.Direction.REVERSE) {
                ObjectNode row = in.addObject().put("from", step.to().toString());
                row.set("columns", Replies.strings(step.toColumns()));
                row.set("target_columns", Replies.strings(step.fromColumns()));
                if (detailed) {
                    row.put("name", step.foreignKeyName());
                }
            }
        }
        if (detailed) {
            data.put("description_source", documents.description().origin().wireName());
            ArrayNode unique = data.putArray("unique_constraints");
            for (UniqueConstraint u : table.uniqueConstraints()) {
                unique.addObject().put("name", u.name()).set("columns", Replies.strings(u.columns()));
            }
        }
        if (table.isJunction()) {
            data.put("note", "Junction table: it links " + table.foreignKeys().stream().map(fk -> fk.target().toString())
                    .distinct().toList() + " many-to-many; joining through it multiplies rows.");
        }
        List<Description> described = new ArrayList<>(List.of(documents.description()));
        documents.columns().forEach(c -> described.add(c.description()));
        DescriptionProvenance.Shown shown = DescriptionProvenance.of(described);
        return Envelope.success(data, shown.confidence(), shown.provenance(),
                List.of("describe_column", "suggest_joins", "get_example_queries"));
    }
}
