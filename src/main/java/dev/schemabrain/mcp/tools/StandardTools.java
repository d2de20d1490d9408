package dev.schemabrain.mcp.tools;

import dev.schemabrain.mcp.tool.ToolRegistry;

import java.util.List;

/** The tools {@code schemabrain serve} offers, in the order tools/list shows them. */
public final class StandardTools {

    private StandardTools() {
    }

    public static ToolRegistry registry(CatalogProvider catalogs) {
        return ToolRegistry.of(List.of(
                new ListIndexedSchemasTool(catalogs),
                new FindRelevantTablesTool(catalogs),
                new DescribeTableTool(catalogs),
                new DescribeColumnTool(catalogs),
                new SuggestJoinsTool(catalogs),
                new GetExampleQueriesTool(catalogs)));
    }
}
