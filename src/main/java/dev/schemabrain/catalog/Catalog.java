package dev.schemabrain.catalog;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/** Everything introspection found in one source, tables sorted by qualified name. */
public record Catalog(List<Table> tables) {

    public Catalog {
        tables = tables.stream().sorted(Comparator.comparing(Table::name)).toList();
    }

    public Optional<Table> table(QualifiedName name) {
        return tables.stream().filter(t -> t.name().equals(name)).findFirst();
    }

    public Map<QualifiedName, Table> byName() {
        return tables.stream().collect(Collectors.toMap(Table::name, Function.identity(), (a, b) -> a, TreeMap::new));
    }

    public int columnCount() {
        return tables.stream().mapToInt(t -> t.columns().size()).sum();
    }

    public int foreignKeyCount() {
        return tables.stream().mapToInt(t -> t.foreignKeys().size()).sum();
    }
}
