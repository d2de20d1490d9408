package dev.schemabrain.mcp.tools;

import dev.schemabrain.gate.ViewRefusals;
import dev.schemabrain.served.ServedCatalog;
import dev.schemabrain.catalog.NameLookup;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.error.ErrorKind;
import dev.schemabrain.mcp.envelope.Recovery;
import dev.schemabrain.mcp.envelope.ToolError;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The answers for names that do not resolve, shared by every tool that takes one: malformed_name
 * for a name that breaks the identifier rules or is ambiguous without its schema, unknown_name with
 * up to three fuzzy matches and a ready call for one that exists nowhere.
 *
 * @param tool  the tool to retry with a corrected name
 * @param retry the arguments of that retry, given the corrected name
 */
record NameReplies(String tool, Function<String, Map<String, Object>> retry) {

    /** Retry {@code tool} with the corrected name as its {@code qualified_name}. */
    static NameReplies retrying(String tool) {
        return new NameReplies(tool, name -> Map.of("qualified_name", name));
    }

    private static final List<String> HINTS = List.of("find_relevant_tables", "list_indexed_schemas");

    Envelope malformed(String problem, String input) {
        return Envelope.error(ToolError.of(ErrorKind.MALFORMED_NAME,
                problem + " Tables are named schema.table and columns schema.table.column.",
                Recovery.call("find_relevant_tables", Map.of("query", Replies.shown(input)))), HINTS);
    }

    Envelope ambiguous(String input, List<QualifiedName> candidates) {
        List<String> names = candidates.stream().limit(3).map(QualifiedName::toString).toList();
        return Envelope.error(ToolError.of(ErrorKind.MALFORMED_NAME,
                "'" + Replies.shown(input) + "' names tables in " + candidates.size() + " schemas (" + String.join(", ", names)
                        + (candidates.size() > 3 ? ", …" : "") + "); qualify it as schema.table.",
                Recovery.call(tool, retry.apply(names.get(0))).withFuzzyMatches(names)), List.of(tool));
    }

    Envelope notFound(String input, List<String> fuzzy) {
        if (fuzzy.isEmpty()) {
            return Envelope.error(ToolError.of(ErrorKind.UNKNOWN_NAME,
                    "No indexed table is named '" + Replies.shown(input) + "' and none is close; search by meaning instead.",
                    Recovery.call("find_relevant_tables", Map.of("query", Replies.shown(input)))), HINTS);
        }
        return Envelope.error(ToolError.of(ErrorKind.UNKNOWN_NAME,
                "No indexed table is named '" + Replies.shown(input) + "'; did you mean " + String.join(", ", fuzzy) + "?",
                Recovery.call(tool, retry.apply(fuzzy.get(0))).withFuzzyMatches(fuzzy)), List.of(tool, "find_relevant_tables"));
    }

    Envelope unknownColumn(NameLookup.ColumnResult.UnknownColumn unknown) {
        String table = unknown.table().name().toString();
        return Envelope.error(ToolError.of(ErrorKind.UNKNOWN_NAME,
                "Table " + table + " has no column '" + Replies.shown(unknown.column()) + "'"
                        + (unknown.fuzzyMatches().isEmpty() ? "; describe_table lists its columns."
                        : "; did you mean " + String.join(", ", unknown.fuzzyMatches()) + "?"),
                Recovery.call("describe_table", Map.of("qualified_name", table)).withFuzzyMatches(unknown.fuzzyMatches())),
                List.of("describe_table"));
    }

    /**
     * The envelope for a table name that did not resolve to a table of {@code served}: allowlist_violation when it
     * names a table outside the caller's role.
     */
    Envelope forTable(String input, NameLookup.TableResult result, ServedCatalog served) {
        if (result instanceof NameLookup.NotFound) {
            Optional<Envelope> refused = ViewRefusals.table(served, input, 2).map(Refusals::envelope);
            if (refused.isPresent()) {
                return refused.get();
            }
        }
        return failed(input, result);
    }

    /** The envelope for a column name that did not resolve to a column, as {@link #forTable} for its table. */
    Envelope forColumn(String input, NameLookup.ColumnResult result, ServedCatalog served) {
        if (result instanceof NameLookup.NotFound) {
            Optional<Envelope> refused = ViewRefusals.table(served, input, 3).map(Refusals::envelope);
            if (refused.isPresent()) {
                return refused.get();
            }
        }
        return result instanceof NameLookup.ColumnResult.UnknownColumn u ? unknownColumn(u) : failed(input, result);
    }

    /** The failures tables and columns share. */
    private Envelope failed(String input, Object result) {
        if (result instanceof NameLookup.Malformed m) {
            return malformed(m.problem(), input);
        }
        if (result instanceof NameLookup.Ambiguous a) {
            return ambiguous(input, a.candidates());
        }
        if (result instanceof NameLookup.NotFound n) {
            return notFound(input, n.fuzzyMatches());
        }
        throw new IllegalArgumentException("resolved names need no error: " + result);
    }
}
