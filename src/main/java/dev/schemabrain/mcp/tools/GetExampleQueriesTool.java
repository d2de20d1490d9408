package dev.schemabrain.mcp.tools;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schemabrain.catalog.NameLookup;
import dev.schemabrain.mcp.args.ArgSchema;
import dev.schemabrain.mcp.args.Arguments;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.mcp.tool.LatencyHint;
import dev.schemabrain.mcp.tool.ToolSpec;

import java.util.List;
import java.util.Map;

/**
 * get_example_queries: SQL others ran against a table or column. Query-log mining does not exist
 * yet, so a resolved name answers empty, pointing at describe_table.
 */
public final class GetExampleQueriesTool extends CatalogTool {

    static final String NAME = "get_example_queries";
    private static final ArgSchema ARGS = ArgSchema.parse("""
            {
              "qualified_name": {"type": "string", "required": true, "minLength": 1, "maxLength": 512,
                                 "description": "schema.table or schema.table.column."},
              "response_format": {"type": "enum", "enum": ["concise", "detailed"], "default": "concise"}
            }""");
    private static final ToolSpec SPEC = ToolSpec.storeReader(NAME, "Get example queries",
            "Use this when you want real SQL from the query log that reads a table or column. Use suggest_joins "
                    + "instead for how tables connect. After describe_table.",
            ARGS, LatencyHint.FAST);

    public GetExampleQueriesTool(CatalogProvider catalogs) {
        super(SPEC, catalogs);
    }

    @Override
    Envelope answer(Arguments arguments, ServedCatalog served) {
        String input = arguments.string("qualified_name").orElseThrow();
        NameLookup lookup = served.lookup();
        String table;
        NameLookup.TableResult asTable = lookup.resolveTable(input);
        if (asTable instanceof NameLookup.TableResult.Found found) {
            table = found.table().name().toString();
        } else {
            NameLookup.ColumnResult asColumn = lookup.resolveColumn(input);
            if (asColumn instanceof NameLookup.ColumnResult.Found found) {
                table = found.table().name().toString();
            } else {
                // Report the reading that got furthest: a column of a known table, else the table error.
                return asColumn instanceof NameLookup.ColumnResult.UnknownColumn
                        ? NameReplies.retrying(DescribeTableTool.NAME).forColumn(input, asColumn)
                        : NameReplies.retrying(NAME).forTable(input, asTable);
            }
        }
        ObjectNode data = Replies.object();
        data.putArray("queries");
        data.put("reason", "No query log has been mined for this store yet, so there are no observed queries.");
        data.putObject("suggested_call").put("tool", DescribeTableTool.NAME)
                .putObject("args").put("qualified_name", table);
        return Envelope.empty(data, List.of(DescribeTableTool.NAME));
    }
}
