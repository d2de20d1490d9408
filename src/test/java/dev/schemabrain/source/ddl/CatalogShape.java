package dev.schemabrain.source.ddl;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.TableKind;

import dev.schemabrain.engine.IntrospectionOptions;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.error.SourceException;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.source.Sources;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * What a DDL file and the live database must agree on, table by table and case aside (SQLite and
 * MariaDB keep a name's spelling, the DDL reader its own): column names and types, primary key,
 * foreign keys (columns to target table) and unique keys. Schema names differ by design (the file
 * has none, so its tables land in public) and are left out.
 */
final class CatalogShape {

    private CatalogShape() {
    }

    /** The live database at {@code liveUrl} and the DDL file {@code script} describe the same tables. */
    static void assertDdlMatches(String liveUrl, Path script) throws SourceException {
        Catalog live;
        try (SchemaSource source = Sources.open(SourceUrl.parse(liveUrl))) {
            live = source.introspect(IntrospectionOptions.withoutSamples());
        }
        Catalog parsed;
        try (DdlSource source = new DdlSource(SourceUrl.parse("ddl:" + script))) {
            parsed = source.introspect(IntrospectionOptions.withoutSamples());
        }
        assertEquals(of(live), of(parsed));
    }

    static Map<String, String> of(Catalog catalog) {
        Map<String, String> shape = new TreeMap<>();
        for (Table table : catalog.tables()) {
            if (table.kind() != TableKind.TABLE) {
                continue;
            }
            shape.put(lower(table.name().table()), "columns " + table.columns().stream().map(Column::name).map(CatalogShape::lower).toList()
                    + " types " + table.columns().stream().map(c -> lower(c.dataType()).replaceAll("\\s+", "")).toList()
                    + " pk " + lower(table.primaryKey())
                    + " fk " + table.foreignKeys().stream()
                            .map(fk -> lower(fk.columns()) + "->" + lower(fk.target().table()))
                            .collect(Collectors.toCollection(TreeSet::new))
                    + " unique " + table.uniqueConstraints().stream().map(u -> lower(u.columns()).toString())
                            .collect(Collectors.toCollection(TreeSet::new)));
        }
        return shape;
    }

    private static List<String> lower(List<String> names) {
        return names.stream().map(CatalogShape::lower).toList();
    }

    private static String lower(String name) {
        return name.toLowerCase(Locale.ROOT);
    }
}
