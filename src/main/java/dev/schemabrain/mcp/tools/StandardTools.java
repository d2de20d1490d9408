package dev.schemabrain.mcp.tools;

import dev.schemabrain.served.CatalogProvider;
import dev.schemabrain.execute.QueryExecutor;
import dev.schemabrain.execute.SourceExecutors;

import dev.schemabrain.mcp.tool.ToolRegistry;

import java.util.List;
import java.util.Optional;

/** The tools {@code schemabrain serve} offers, in the order tools/list shows them. */
public final class StandardTools {

    private StandardTools() {
    }

    public static ToolRegistry registry(CatalogProvider catalogs, Optional<QueryExecutor> executor) {
        return registry(catalogs, SourceExecutors.of(executor), GetMetricTool.DEFAULT_MIN_GROUP_SIZE, ExampleQueries.NONE);
    }

    /**
     * @param executors    one per source of the store: each statement runs on the database its tables are in
     * @param minGroupSize get_metric's small-cell suppression threshold ({@code serve --min-group-size})
     * @param examples     where get_example_queries reads the mined query log
     */
    public static ToolRegistry registry(CatalogProvider catalogs, SourceExecutors executors, int minGroupSize,
                                        ExampleQueries examples) {
        return ToolRegistry.of(List.of(
                new ListIndexedSchemasTool(catalogs),
                new FindRelevantTablesTool(catalogs),
                new DescribeTableTool(catalogs),
                new DescribeColumnTool(catalogs),
                new SuggestJoinsTool(catalogs),
                new GetExampleQueriesTool(catalogs, examples),
                ListSemanticTool.entities(catalogs),
                new FindRelevantEntitiesTool(catalogs),
                new DescribeEntityTool(catalogs),
                ListSemanticTool.joins(catalogs),
                new ResolveJoinTool(catalogs),
                ListSemanticTool.metrics(catalogs),
                new FindRelevantMetricsTool(catalogs),
                new GetMetricTool(catalogs, executors, minGroupSize),
                new ValidateQueryTool(catalogs, executors, minGroupSize),
                new ExecuteTool(catalogs, executors, minGroupSize)));
    }
}
