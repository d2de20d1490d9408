package dev.schemabrain.pii;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The tag each column carries: the operator's override where there is one, else the classifier's.
 * An override with no categories marks a column as not PII, hiding a false positive.
 */
public final class PiiTags {

    public static final PiiTags NONE = new PiiTags(List.of(), List.of());

    public enum Origin {
        HEURISTIC, OPERATOR;

        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** One column's tag and where it came from. */
    public record Entry(QualifiedName table, String column, PiiTag tag, Origin origin) {

        /** {@code schema.table.column}, as {@code policy tags} and the policy file name columns. */
        public String qualifiedColumn() {
            return table + "." + column;
        }
    }

    private record Key(QualifiedName table, String column) {
    }

    private final Map<Key, Entry> entries = new HashMap<>();
    private final Map<Key, Set<Allowance>> allowances = new HashMap<>();

    /** @param heuristic the classifier's tags; {@code overrides} win over them column by column */
    public PiiTags(List<Entry> heuristic, List<Entry> overrides) {
        heuristic.forEach(e -> entries.put(new Key(e.table(), e.column()), e));
        overrides.forEach(e -> entries.put(new Key(e.table(), e.column()), e));
    }

    /** These tags with the operator's allowances ({@code schema.table.column} resolved) replacing any others. */
    public PiiTags withAllowances(Map<QualifiedName, Map<String, Set<Allowance>>> byTable) {
        PiiTags out = new PiiTags(List.of(), List.of());
        out.entries.putAll(entries);
        byTable.forEach((table, columns) -> columns.forEach((column, allowed) -> {
            if (!allowed.isEmpty()) {
                out.allowances.put(new Key(table, column), Set.copyOf(EnumSet.copyOf(allowed)));
            }
        }));
        return out;
    }

    /** The uses the operator allows on this column (empty by default). */
    public Set<Allowance> allowances(QualifiedName table, String column) {
        return allowances.getOrDefault(new Key(table, column), Set.of());
    }

    /** The column's tag; {@link PiiTag#NONE} when nothing tags it. */
    public PiiTag tag(QualifiedName table, String column) {
        Entry e = entries.get(new Key(table, column));
        return e == null ? PiiTag.NONE : e.tag();
    }

    /** Every column with at least one category, by qualified name. */
    public List<Entry> tagged() {
        List<Entry> out = new ArrayList<>();
        for (Entry e : entries.values()) {
            if (e.tag().tagged()) {
                out.add(e);
            }
        }
        out.sort(Comparator.comparing(Entry::table).thenComparing(Entry::column));
        return out;
    }

    /** The catalog with no sample or indexed values on tagged columns: they are never stored, matched or shown. */
    public Catalog withoutTaggedSamples(Catalog catalog) {
        List<Table> tables = new ArrayList<>(catalog.tables().size());
        for (Table t : catalog.tables()) {
            boolean any = t.columns().stream().anyMatch(c -> (!c.samples().isEmpty() || !c.values().isEmpty()
                    || c.domain() != null && c.domain().listed()) && tag(t.name(), c.name()).tagged());
            if (!any) {
                tables.add(t);
                continue;
            }
            List<Column> columns = t.columns().stream()
                    .map(c -> tag(t.name(), c.name()).tagged() ? c.withoutData() : c).toList();
            tables.add(t.withColumns(columns));
        }
        return new Catalog(tables);
    }
}
