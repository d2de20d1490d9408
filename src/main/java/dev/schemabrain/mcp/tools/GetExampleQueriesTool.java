package dev.schemabrain.mcp.tools;

import dev.schemabrain.gate.ViewRefusals;
import dev.schemabrain.served.CatalogProvider;
import dev.schemabrain.served.ServedCatalog;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schemabrain.catalog.InferenceMethod;
import dev.schemabrain.catalog.NameLookup;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.ValidationState;
import dev.schemabrain.error.StoreException;
import dev.schemabrain.mcp.args.ArgSchema;
import dev.schemabrain.mcp.args.Arguments;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.error.ErrorKind;
import dev.schemabrain.mcp.envelope.Provenance;
import dev.schemabrain.mcp.envelope.Recovery;
import dev.schemabrain.mcp.envelope.ToolError;
import dev.schemabrain.mcp.tool.LatencyHint;
import dev.schemabrain.mcp.tool.ToolSpec;
import dev.schemabrain.pii.PiiCategory;
import dev.schemabrain.store.QueryLogRepository;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * get_example_queries: SQL that really ran against a table or column, mined from the query log
 * ({@code mine-queries}), most observed first, then most recently seen; each has its rank, equal for a tie, which
 * a {@code rank_note} names. Literals were replaced by {@code ?} before anything was stored, except ordinals, date
 * units and formats, and values the catalog already shows for a non-PII column; each carries the PII categories of
 * the columns it touches (the stored ones and today's tags). Before any mining: empty, pointing at describe_table.
 */
public final class GetExampleQueriesTool extends CatalogTool {

    static final String NAME = "get_example_queries";
    private static final ArgSchema ARGS = ArgSchema.parse("""
            {
              "qualified_name": {"type": "string", "required": true, "minLength": 1, "maxLength": 512,
                                 "description": "schema.table or schema.table.column."},
              "limit": {"type": "integer", "minimum": 1, "maximum": 50, "default": 10},
              "response_format": {"type": "enum", "enum": ["concise", "detailed"], "default": "concise"}
            }""");
    private static final ToolSpec SPEC = ToolSpec.storeReader(NAME, "Get example queries",
            "Use this when you want real SQL from the query log that reads a table or column, most run first, with"
                    + " its joins. Use suggest_joins instead for how tables connect. After describe_table.",
            ARGS, LatencyHint.FAST);

    private final ExampleQueries examples;

    public GetExampleQueriesTool(CatalogProvider catalogs, ExampleQueries examples) {
        super(SPEC, catalogs);
        this.examples = examples;
    }

    /** How many of a table's mined queries a restricted caller's page is cut from, after the hidden ones go. */
    private static final int VISIBLE_SCAN = 1_000;

    @Override
    Envelope answer(Arguments arguments, ServedCatalog served) {
        String input = arguments.string("qualified_name").orElseThrow();
        NameLookup lookup = served.lookup();
        QualifiedName table;
        String column = null;
        NameLookup.TableResult asTable = lookup.resolveTable(input);
        if (asTable instanceof NameLookup.TableResult.Found found) {
            table = found.table().name();
        } else {
            NameLookup.ColumnResult asColumn = lookup.resolveColumn(input);
            if (asColumn instanceof NameLookup.ColumnResult.Found found) {
                table = found.table().name();
                column = found.column().name();
            } else {
                Optional<Envelope> refused = ViewRefusals.table(served, input, 2)
                        .or(() -> ViewRefusals.table(served, input, 3)).map(Refusals::envelope);
                if (refused.isPresent()) {
                    return refused.get();
                }
                // Report the reading that got furthest: a column of a known table, else the table error.
                return asColumn instanceof NameLookup.ColumnResult.UnknownColumn
                        ? NameReplies.retrying(DescribeTableTool.NAME).forColumn(input, asColumn, served)
                        : NameReplies.retrying(NAME).forTable(input, asTable, served);
            }
        }
        Optional<QueryLogRepository.Page> page;
        try {
            // Under a role, the hidden queries go before the limit: a page of them cut after it would say how many there are.
            page = examples.find(table, column, served.access().restricted() ? VISIBLE_SCAN : arguments.integer("limit"));
        } catch (StoreException e) {
            return Envelope.error(ToolError.of(ErrorKind.INTERNAL_ERROR,
                    "The mined query log could not be read from the store; try again, or describe the table instead.",
                    Recovery.call(DescribeTableTool.NAME, Map.of("qualified_name", table.toString()))),
                    List.of(DescribeTableTool.NAME));
        }
        if (page.isPresent() && served.access().restricted()) {
            // A query that also reads a table outside the caller's role is not shown, nor counted.
            List<QueryLogRepository.Example> visible = page.get().examples().stream().filter(e -> visible(e, served)).toList();
            page = Optional.of(new QueryLogRepository.Page(visible.subList(0, Math.min(visible.size(),
                    arguments.integer("limit"))), visible.size()));
        }
        ObjectNode data = Replies.object();
        data.put("qualified_name", column == null ? table.toString() : table + "." + column);
        if (page.isEmpty() || page.get().examples().isEmpty()) {
            data.putArray("queries");
            data.put("reason", page.isEmpty()
                    ? "No query log has been mined for this store yet, so there are no observed queries."
                    : "The mined query log holds no SELECT that reads this " + (column == null ? "table." : "column."));
            data.putObject("suggested_call").put("tool", DescribeTableTool.NAME)
                    .putObject("args").put("qualified_name", table.toString());
            return Envelope.empty(data, List.of(DescribeTableTool.NAME));
        }
        boolean detailed = arguments.string("response_format").orElseThrow().equals("detailed");
        data.put("total", page.get().total());
        ArrayNode queries = data.putArray("queries");
        List<QueryLogRepository.Example> shown = page.get().examples();
        List<Integer> ranks = ExampleRanks.of(shown);
        for (int i = 0; i < shown.size(); i++) {
            QueryLogRepository.Example e = shown.get(i);
            ObjectNode q = queries.addObject().put("rank", ranks.get(i)).put("sql", e.sql()).put("observations", e.observations())
                    .put("first_seen", e.firstSeenAt()).put("last_seen", e.lastSeenAt());
            ExampleRanks.note(ranks, i).ifPresent(note -> q.put("rank_note", note));
            q.set("tables", Replies.strings(e.tables()));
            ArrayNode joins = q.putArray("joins");
            for (QueryLogRepository.StoredJoin j : e.joins()) {
                joins.add(side(j.left(), j.leftColumns()) + " = " + side(j.right(), j.rightColumns()));
            }
            q.set("pii_categories", Replies.strings(categories(e, served)));
            if (detailed) {
                ArrayNode columns = q.putArray("columns");
                for (QueryLogRepository.StoredColumn c : e.columns()) {
                    columns.addObject().put("column", c.qualifiedTable() + "." + c.column()).set("roles", Replies.strings(c.roles()));
                }
                q.set("aggregates", Replies.strings(e.aggregates()));
                q.put("fingerprint", e.fingerprint());
            }
        }
        // Observed facts, not yet validated by anyone: MEDIUM at most, as any applied inference.
        Provenance provenance = new Provenance(Provenance.Source.INFERRED, null, "query_log",
                InferenceMethod.OBSERVED_IN_QUERY_LOG, ValidationState.APPLIED);
        return Envelope.success(data, provenance.confidence(), provenance, List.of(SuggestJoinsTool.NAME, DescribeTableTool.NAME));
    }

    /** Whether every table the example reads, joins or names a column of is in the caller's view. */
    private static boolean visible(QueryLogRepository.Example e, ServedCatalog served) {
        Set<String> tables = new HashSet<>();
        served.catalog().tables().forEach(t -> tables.add(t.name().toString()));
        return tables.containsAll(e.tables())
                && e.joins().stream().allMatch(j -> tables.contains(j.left().toString()) && tables.contains(j.right().toString()))
                && e.columns().stream().allMatch(c -> tables.contains(c.qualifiedTable().toString()));
    }

    private static String side(QualifiedName table, List<String> columns) {
        return columns.size() == 1 ? table + "." + columns.get(0)
                : table + ".(" + String.join(", ", columns) + ")";
    }

    /** The categories stored at mining, with those the columns carry now (an operator may have tagged one since). */
    private static List<String> categories(QueryLogRepository.Example e, ServedCatalog served) {
        Set<String> out = new TreeSet<>(e.piiCategories());
        for (QueryLogRepository.StoredColumn c : e.columns()) {
            for (PiiCategory category : served.pii().tag(c.qualifiedTable(), c.column()).categories()) {
                out.add(category.wireName());
            }
        }
        return List.copyOf(out);
    }
}
