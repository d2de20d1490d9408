package dev.schemabrain.mcp.lint;

import java.util.List;
import java.util.Map;

/**
 * One call per tool that must succeed on the bundled demo database (schema {@code main}). A new tool
 * adds its line here, or the lint reports it.
 */
public final class DemoHappyPaths {

    private DemoHappyPaths() {
    }

    public static Map<String, Map<String, Object>> calls() {
        return Map.of(
                "list_indexed_schemas", Map.of(),
                "find_relevant_tables", Map.of("query", "invoice payments by card"),
                "describe_table", Map.of("qualified_name", "main.invoices"),
                "describe_column", Map.of("qualified_name", "main.invoices.total_cents"),
                "suggest_joins", Map.of("tables", List.of("main.users", "main.invoices")),
                "get_example_queries", Map.of("qualified_name", "main.invoices"));
    }
}
