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

    /** A binary search of the sorted tables: semantic inference asks this per join step of every entity. */
    public Optional<Table> table(QualifiedName name) {
        int low = 0;
        int high = tables.size() - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            int c = tables.get(mid).name().compareTo(name);
            if (c < 0) {
                low = mid + 1;
            } else if (c > 0) {
                high = mid - 1;
            } else {
                while (mid > 0 && tables.get(mid - 1).name().equals(name)) {
                    mid--;   // the first of equal names, as a search in order would find
                }
                return Optional.of(tables.get(mid));
            }
        }
        return Optional.empty();
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
