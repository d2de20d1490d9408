package dev.schemabrain.mcp.server;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code initialize} instructions: how the envelope works and the canonical workflows of the
 * charter, keeping only the workflows whose tools this server actually offers.
 */
public final class Instructions {

    private static final String PREAMBLE = "SchemaBrain lets you find, understand and aggregate data in the indexed "
            + "database without writing SQL. Every tool answers with one envelope: status (success, empty, partial, "
            + "degraded, error, refused), data, error (with recovery.suggested_tool and recovery.suggested_args: make "
            + "that call next), confidence (HIGH/MEDIUM/LOW), provenance and follow_up_hints. Tables are named "
            + "schema.table, columns schema.table.column.";

    private static final List<String> WORKFLOWS = List.of(
            "What is in this database: list_indexed_schemas, then find_relevant_tables with query \"*\".",
            "A domain such as revenue: find_relevant_tables, then describe_table on the top 1-3 hits, then "
                    + "describe_column for details.",
            "How tables relate: suggest_joins, then describe_table on any bridge table.",
            "Aggregating: find_relevant_metrics or list_metrics, then describe_entity for the metric's entity, then get_metric.",
            "How others queried a table: get_example_queries.",
            "No metric answers: write one SELECT, validate_query it, then execute it.");

    private static final Pattern TOOL = Pattern.compile("\\b[a-z]+(?:_[a-z]+)+\\b");

    private Instructions() {
    }

    public static String forTools(Collection<String> tools) {
        List<String> kept = new ArrayList<>();
        for (String workflow : WORKFLOWS) {
            Matcher m = TOOL.matcher(workflow);
            boolean offered = true;
            while (m.find()) {
                offered &= tools.contains(m.group());
            }
            if (offered) {
                kept.add(workflow);
            }
        }
        return PREAMBLE + (kept.isEmpty() ? "" : " Workflows: " + String.join(" ", kept));
    }
}
