package dev.schemabrain.mining;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Resolves the names a statement wrote to the catalog's own: a qualified table, a table's columns ({@link SearchPaths}
 * resolves unqualified tables). Case-insensitive, as unquoted names are; of two tables differing only by case, the
 * first in the catalog wins.
 */
final class CatalogNames {

    private final Map<String, Table> byQualified = new HashMap<>();
    private final Map<String, Table> byName = new HashMap<>();
    /** Every schema, table and column name, lower-cased: the identifiers a statement may keep. */
    private final Set<String> names = new HashSet<>();

    CatalogNames(Catalog catalog) {
        for (Table t : catalog.tables()) {
            String key = key(t.name().schema(), t.name().table());
            byQualified.putIfAbsent(key, t);
            names.add(t.name().schema().toLowerCase(Locale.ROOT));
            names.add(t.name().table().toLowerCase(Locale.ROOT));
            for (Column c : t.columns()) {
                names.add(c.name().toLowerCase(Locale.ROOT));
            }
            byName.put(t.name().toString(), t);
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

    /** The table's columns, in the catalog's order. */
    List<String> columns(QualifiedName table) {
        Table t = byName.get(table.toString());
        return t == null ? List.of() : t.columns().stream().map(Column::name).toList();
    }

    private static String key(String schema, String table) {
        return schema.toLowerCase(Locale.ROOT) + "." + table.toLowerCase(Locale.ROOT);
    }
}
