package dev.schemabrain.catalog;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Resolves the names callers send ({@code schema.table}, {@code schema.table.column}, an
 * unqualified name when it is unique) against a catalog, with "did you mean" suggestions when
 * nothing matches.
 *
 * <p>Each lookup tries the exact spelling first, then a case-insensitive match that must be unique:
 * agents rarely know an engine's case rules, but two tables that differ only in case must not be
 * guessed between. Quoted parts ({@code "Order Details"}) are matched the same way; the quotes only
 * lift the syntax rule. Suggestions are rendered so they can be sent back as they are
 * ({@link NameSyntax#render(QualifiedName)}).
 *
 * <p>Immutable and thread-safe; build one per catalog and reuse it (the fuzzy index is built eagerly).
 */
public final class NameLookup {

    // ------------------------------------------------------------------ results

    /** The outcome of {@link #resolveTable(String)}. */
    public sealed interface TableResult {
        record Found(Table table) implements TableResult {
        }
    }

    /** The outcome of {@link #resolveColumn(String)}. */
    public sealed interface ColumnResult {
        record Found(Table table, Column column) implements ColumnResult {
        }

        /**
         * The table resolved but has no such column.
         *
         * @param fuzzyMatches up to three {@code schema.table.column} names from that table
         */
        record UnknownColumn(Table table, String column, List<String> fuzzyMatches) implements ColumnResult {
            public UnknownColumn {
                fuzzyMatches = List.copyOf(fuzzyMatches);
            }
        }
    }

    /** The outcome of {@link #resolveSchema(String)}. */
    public sealed interface SchemaResult {
        /** @param schema the schema's real spelling */
        record Found(String schema) implements SchemaResult {
        }

        /** Several schemas match case-insensitively and none exactly. */
        record Ambiguous(List<String> candidates) implements SchemaResult {
            public Ambiguous {
                candidates = List.copyOf(candidates);
            }
        }
    }

    /** An unqualified (or case-insensitive) table name that fits several tables; sorted. */
    public record Ambiguous(List<QualifiedName> candidates) implements TableResult, ColumnResult {
        public Ambiguous {
            candidates = List.copyOf(candidates);
        }
    }

    /**
     * No table (or schema) has that name.
     *
     * @param fuzzyMatches up to three names, rendered as a caller would send them, best first
     */
    public record NotFound(List<String> fuzzyMatches) implements TableResult, ColumnResult, SchemaResult {
        public NotFound {
            fuzzyMatches = List.copyOf(fuzzyMatches);
        }
    }

    /** The input breaks the identifier rules or has the wrong number of parts. */
    public record Malformed(String problem) implements TableResult, ColumnResult, SchemaResult {
    }

    // ------------------------------------------------------------------ index

    private final Map<QualifiedName, Table> byName = new HashMap<>();
    private final Map<String, List<Table>> byLowerQualified = new HashMap<>();
    private final Map<String, List<Table>> byBare = new HashMap<>();
    private final Map<String, List<Table>> byLowerBare = new HashMap<>();
    private final List<String> schemas;
    private final Fuzzy tableFuzzy;
    private final Fuzzy schemaFuzzy;

    public NameLookup(Catalog catalog) {
        this(catalog.tables());
    }

    public NameLookup(Collection<Table> tables) {
        List<Table> sorted = tables.stream().sorted(Comparator.comparing(Table::name)).toList();
        TreeSet<String> schemaNames = new TreeSet<>();
        List<Fuzzy.Candidate> candidates = new ArrayList<>(sorted.size());
        for (Table t : sorted) {
            QualifiedName n = t.name();
            byName.putIfAbsent(n, t);
            byLowerQualified.computeIfAbsent(lower(n.schema()) + '.' + lower(n.table()), k -> new ArrayList<>()).add(t);
            byBare.computeIfAbsent(n.table(), k -> new ArrayList<>()).add(t);
            byLowerBare.computeIfAbsent(lower(n.table()), k -> new ArrayList<>()).add(t);
            schemaNames.add(n.schema());
            // Compared as "schema.table" and as the bare table name: callers often omit or misspell the schema.
            candidates.add(new Fuzzy.Candidate(NameSyntax.render(n), List.of(n.schema() + "." + n.table(), n.table())));
        }
        this.schemas = List.copyOf(schemaNames);
        this.tableFuzzy = Fuzzy.over(candidates);
        this.schemaFuzzy = Fuzzy.overNames(schemas);
    }

    /** Schema names, sorted. */
    public List<String> schemas() {
        return schemas;
    }

    // ------------------------------------------------------------------ lookups

    /** {@code schema.table} or a bare {@code table}. */
    public TableResult resolveTable(String input) {
        NameSyntax.Result parsed = NameSyntax.parse(input, 1, 2);
        if (parsed instanceof NameSyntax.Problem p) {
            return new Malformed(p.message());
        }
        return table(((NameSyntax.Parts) parsed).parts());
    }

    /** {@code schema.table.column} or {@code table.column}, the bare table resolved as in {@link #resolveTable}. */
    public ColumnResult resolveColumn(String input) {
        NameSyntax.Result parsed = NameSyntax.parse(input, 2, 3);
        if (parsed instanceof NameSyntax.Problem p) {
            return new Malformed(p.message());
        }
        List<String> parts = ((NameSyntax.Parts) parsed).parts();
        TableResult owner = table(parts.subList(0, parts.size() - 1));
        if (owner instanceof TableResult.Found found) {
            return column(found.table(), parts.get(parts.size() - 1));
        }
        if (parts.size() == 2 && owner instanceof NotFound && match(parts) instanceof TableResult.Found t) {
            // A table passed where a column was expected (describe_column given "public.album").
            return new Malformed("'" + NameSyntax.excerpt(input.strip()) + "' names the table "
                    + NameSyntax.render(t.table().name()) + "; expected schema.table.column or table.column");
        }
        return (ColumnResult) owner;
    }

    /** One schema name. */
    public SchemaResult resolveSchema(String input) {
        NameSyntax.Result parsed = NameSyntax.parse(input, 1, 1);
        if (parsed instanceof NameSyntax.Problem p) {
            return new Malformed(p.message());
        }
        String wanted = ((NameSyntax.Parts) parsed).parts().get(0);
        if (schemas.contains(wanted)) {
            return new SchemaResult.Found(wanted);
        }
        List<String> folded = schemas.stream().filter(s -> s.equalsIgnoreCase(wanted)).toList();
        if (folded.size() == 1) {
            return new SchemaResult.Found(folded.get(0));
        }
        if (folded.size() > 1) {
            return new SchemaResult.Ambiguous(folded);
        }
        return new NotFound(schemaFuzzy.best(wanted, Fuzzy.DEFAULT_LIMIT).stream().map(NameSyntax::render).toList());
    }

    /** A table by its exact qualified name. */
    public Optional<Table> table(QualifiedName name) {
        return Optional.ofNullable(byName.get(name));
    }

    // ------------------------------------------------------------------ internals

    private TableResult table(List<String> parts) {
        TableResult matched = match(parts);
        if (matched != null) {
            return matched;
        }
        // With a schema that exists, only the table part is misspelled: comparing the whole name would let
        // the shared "schema." prefix make any table look close.
        boolean knownSchema = parts.size() == 2 && schemas.stream().anyMatch(s -> s.equalsIgnoreCase(parts.get(0)));
        String query = knownSchema ? parts.get(1) : String.join(".", parts);
        return new NotFound(tableFuzzy.best(query, Fuzzy.DEFAULT_LIMIT));
    }

    /** Found or Ambiguous for one or two parts, null when nothing matches (suggestions are the caller's business). */
    private TableResult match(List<String> parts) {
        if (parts.size() == 2) {
            Table exact = byName.get(QualifiedName.of(parts.get(0), parts.get(1)));
            if (exact != null) {
                return new TableResult.Found(exact);
            }
            return unique(byLowerQualified.getOrDefault(lower(parts.get(0)) + '.' + lower(parts.get(1)), List.of()));
        }
        String bare = parts.get(0);
        TableResult unique = unique(byBare.getOrDefault(bare, List.of()));
        return unique != null ? unique : unique(byLowerBare.getOrDefault(lower(bare), List.of()));
    }

    /** Found for one table, Ambiguous for several, null for none. */
    private static TableResult unique(List<Table> matches) {
        if (matches.isEmpty()) {
            return null;
        }
        if (matches.size() == 1) {
            return new TableResult.Found(matches.get(0));
        }
        return new Ambiguous(matches.stream().map(Table::name).sorted().toList());
    }

    private static ColumnResult column(Table table, String name) {
        Optional<Column> exact = table.column(name);
        if (exact.isPresent()) {
            return new ColumnResult.Found(table, exact.get());
        }
        List<Column> folded = table.columns().stream().filter(c -> c.name().equalsIgnoreCase(name)).toList();
        if (folded.size() == 1) {
            return new ColumnResult.Found(table, folded.get(0));
        }
        List<String> suggestions;
        if (folded.size() > 1) {
            // Columns differing only in case: offer them all rather than guess.
            suggestions = folded.stream().map(c -> NameSyntax.render(table.name(), c.name())).sorted().toList();
        } else {
            suggestions = Fuzzy.over(table.columns().stream()
                            .map(c -> new Fuzzy.Candidate(NameSyntax.render(table.name(), c.name()), List.of(c.name())))
                            .toList())
                    .best(name, Fuzzy.DEFAULT_LIMIT);
        }
        return new ColumnResult.UnknownColumn(table, name, suggestions);
    }

    private static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }
}
