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
        return Map.ofEntries(
                Map.entry("list_indexed_schemas", Map.of()),
                Map.entry("find_relevant_tables", Map.of("query", "invoice payments by card")),
                Map.entry("describe_table", Map.of("qualified_name", "main.invoices")),
                Map.entry("describe_column", Map.of("qualified_name", "main.invoices.total_cents")),
                Map.entry("suggest_joins", Map.of("tables", List.of("main.users", "main.invoices"))),
                Map.entry("get_example_queries", Map.of("qualified_name", "main.invoices")),
                Map.entry("list_entities", Map.of()),
                Map.entry("find_relevant_entities", Map.of("query", "invoices paid by card")),
                Map.entry("describe_entity", Map.of("name", "invoices")),
                Map.entry("list_joins", Map.of()),
                Map.entry("resolve_join", Map.of("entity_a", "users", "entity_b", "organizations")),
                Map.entry("list_metrics", Map.of()),
                Map.entry("find_relevant_metrics", Map.of("query", "revenue per month")),
                Map.entry("get_metric", Map.of("name", "invoices_total_cents_sum", "group_by", List.of("organizations.country"),
                        "time_grain", "month")),
                Map.entry("validate_query", Map.of("sql", "SELECT name, monthly_price_cents FROM main.plans")),
                Map.entry("execute", Map.of("sql", "SELECT name, monthly_price_cents FROM main.plans")));
    }
}
