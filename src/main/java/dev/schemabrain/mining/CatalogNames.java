package dev.schemabrain.mining;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Resolves the names a statement wrote to the catalog's own: a qualified table, a table's column ({@link SearchPaths}
 * resolves unqualified tables). Case-insensitive, as unquoted names are; of two tables differing only by case, the
 * first in the catalog wins.
 */
final class CatalogNames {

    private final Map<String, Table> byQualified = new HashMap<>();
    private final Map<String, Map<String, String>> columnsByTable = new HashMap<>();
    /** Every schema, table and column name, lower-cased: the identifiers a statement may keep. */
    private final java.util.Set<String> names = new java.util.HashSet<>();

    CatalogNames(Catalog catalog) {
        for (Table t : catalog.tables()) {
            String key = key(t.name().schema(), t.name().table());
            byQualified.putIfAbsent(key, t);
            names.add(t.name().schema().toLowerCase(Locale.ROOT));
            names.add(t.name().table().toLowerCase(Locale.ROOT));
            Map<String, String> columns = new HashMap<>();
            for (Column c : t.columns()) {
                columns.putIfAbsent(c.name().toLowerCase(Locale.ROOT), c.name());
                columns.put(c.name(), c.name());
                names.add(c.name().toLowerCase(Locale.ROOT));
            }
            columnsByTable.put(t.name().toString(), columns);
        }
    }

    /** Whether {@code name} is a schema, table or column of the catalog (case-insensitively). */
    boolean isName(String name) {
        return names.contains(name.toLowerCase(Locale.ROOT));
    }

    Optional<QualifiedName> table(String schema, String table) {
        return Optional.ofNullable(byQualified.get(key(schema, table))).map(Table::name);
    }

    /** The catalog's column, for what it already knows of its values. */
    Optional<Column> columnOf(QualifiedName table, String column) {
        Table t = byQualified.get(key(table.schema(), table.table()));
        return t == null ? Optional.empty() : t.columns().stream().filter(c -> c.name().equals(column)).findFirst();
    }

    /** The column's catalog spelling, when {@code table} has it. */
    Optional<String> column(QualifiedName table, String column) {
        Map<String, String> columns = columnsByTable.get(table.toString());
        if (columns == null || column == null) {
            return Optional.empty();
        }
        String exact = columns.get(column);
        return Optional.ofNullable(exact != null ? exact : columns.get(column.toLowerCase(Locale.ROOT)));
    }

    private static String key(String schema, String table) {
        return schema.toLowerCase(Locale.ROOT) + "." + table.toLowerCase(Locale.ROOT);
    }
}
