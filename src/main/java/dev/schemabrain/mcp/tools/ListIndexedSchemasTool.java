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
import dev.schemabrain.store.SchemaSummary;

import java.util.List;

/** list_indexed_schemas: what the store holds, one row per schema. */
public final class ListIndexedSchemasTool extends CatalogTool {

    static final String NAME = "list_indexed_schemas";
    private static final ToolSpec SPEC = ToolSpec.storeReader(NAME, "List indexed schemas",
            "Use this when you start on a database: the indexed schemas with table and column counts. Use "
                    + "find_relevant_tables instead when you know what data you want. Then: describe_table.",
            ArgSchema.empty(), LatencyHint.FAST);

    public ListIndexedSchemasTool(CatalogProvider catalogs) {
        super(SPEC, catalogs);
    }

    @Override
    Envelope answer(Arguments arguments, ServedCatalog served) {
        ObjectNode data = Replies.object();
        ArrayNode schemas = data.putArray("schemas");
        int tables = 0;
        for (SchemaSummary s : served.schemas()) {
            schemas.addObject()
                    .put("schema", s.schema())
                    .put("tables", s.tables())
                    .put("columns", s.columns())
                    .put("source_id", s.sourceId())
                    .put("indexed_at", s.indexedAt().toString());
            tables += s.tables();
        }
        data.put("total_tables", tables);
        // Structural facts read from the store: no interpretation, so no confidence applies.
        return Envelope.success(data, null, null, List.of("find_relevant_tables", "describe_table"));
    }
}
