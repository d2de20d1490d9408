package dev.schemabrain.mcp.tools;

import dev.schemabrain.served.CatalogProvider;
import dev.schemabrain.served.ServedCatalog;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.NameLookup;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.describe.Description;
import dev.schemabrain.mcp.args.ArgSchema;
import dev.schemabrain.mcp.args.Arguments;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.mcp.tool.LatencyHint;
import dev.schemabrain.mcp.tool.ToolSpec;
import dev.schemabrain.pii.PiiTag;
import dev.schemabrain.semantic.JoinGraph;

import java.util.List;

/** describe_column: one column with the foreign keys through it and its sample values. */
public final class DescribeColumnTool extends CatalogTool {

    static final String NAME = "describe_column";
    private static final ArgSchema ARGS = ArgSchema.parse("""
            {
              "qualified_name": {"type": "string", "required": true, "minLength": 1, "maxLength": 512,
                                 "description": "schema.table.column, or table.column."}
            }""");
    private static final ToolSpec SPEC = ToolSpec.storeReader(NAME, "Describe column",
            "Use this when you need one column in depth: samples and every foreign key through it. Use "
                    + "describe_table instead for all of a table's columns. Then: suggest_joins.",
            ARGS, LatencyHint.FAST);

    public DescribeColumnTool(CatalogProvider catalogs) {
        super(SPEC, catalogs);
    }

    @Override
    Envelope answer(Arguments arguments, ServedCatalog served) {
        String input = arguments.string("qualified_name").orElseThrow();
        NameLookup.ColumnResult result = served.lookup().resolveColumn(input);
        if (!(result instanceof NameLookup.ColumnResult.Found found)) {
            // Whatever part failed, the parent table's description is the way forward.
            return NameReplies.retrying(DescribeTableTool.NAME).forColumn(input, result, served);
        }
        Table table = found.table();
        Column column = found.column();
        Description description = served.documents(table.name()).columns().get(table.columns().indexOf(column)).description();
        PiiTag tag = PiiReplies.tag(served, table.name(), column.name());
        ObjectNode data = Replies.object()
                .put("qualified_name", table.name() + "." + column.name())
                .put("table", table.name().toString())
                .put("name", column.name())
                .put("type", column.dataType())
                .put("nullable", column.nullable())
                .put("primary_key", table.isPrimaryKey(column.name()))
                .put("unique", table.uniqueConstraints().stream().anyMatch(u -> u.columns().equals(List.of(column.name())))
                        || table.primaryKey().equals(List.of(column.name())))
                .put("default", column.defaultValue())
                .put("description", PiiReplies.description(served, tag, description.text()))
                .put("description_source", description.origin().wireName());
        PiiReplies.annotate(data, served, tag);
        DomainReplies.annotate(data, column, tag);
        data.set("samples", Replies.strings(column.samples()));
        ArrayNode references = data.putArray("references");
        ArrayNode referencedBy = data.putArray("referenced_by");
        for (JoinGraph.Step step : served.joins().neighbours(table.name())) {
            int at = step.fromColumns().indexOf(column.name());
            if (at < 0) {
                continue;
            }
            ArrayNode target = step.direction() == JoinGraph.Direction.FORWARD ? references : referencedBy;
            target.addObject()
                    .put("column", step.to() + "." + step.toColumns().get(at))
                    .put("cardinality", step.cardinality().wireName())
                    .put("composite", step.fromColumns().size() > 1);
        }
        DescriptionProvenance.Shown shown = DescriptionProvenance.of(List.of(description));
        return Envelope.success(data, shown.confidence(), shown.provenance(),
                List.of("describe_table", "suggest_joins"));
    }
}
