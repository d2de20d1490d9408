package dev.schemabrain.index;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.store.CatalogChanges;
import dev.schemabrain.store.CatalogChanges.Change;
import dev.schemabrain.store.CatalogChanges.ColumnWrite;
import dev.schemabrain.store.CatalogChanges.Refresh;
import dev.schemabrain.store.CatalogChanges.TableWrite;
import dev.schemabrain.store.StoredTable;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Compares a fresh catalog with what the store holds and decides, object by object, what a
 * re-index must write: unchanged → nothing; semantic change → rewrite so the description
 * is redone; structural change → rewrite and stamp {@code schema_changed_at}; missing → deprecate;
 * deprecated for longer than the retention → purge.
 */
public final class CatalogDiff {

    public static final Duration RETENTION = Duration.ofDays(30);

    private CatalogDiff() {
    }

    /** Identity of the run the changes belong to. */
    public record Run(String sourceId, String sourceKind, String displayUrl, String catalogToken, Instant startedAt,
                      Instant now, long introspectMillis) {
    }

    public static CatalogChanges compute(Run run, Catalog catalog, List<StoredTable> stored) {
        Map<QualifiedName, StoredTable> byName = stored.stream()
                .collect(Collectors.toMap(t -> t.table().name(), Function.identity()));
        List<TableWrite> writes = new ArrayList<>();
        List<Refresh> refreshes = new ArrayList<>();
        List<Long> deprecateColumns = new ArrayList<>();
        int tablesNew = 0, tablesChanged = 0, tablesUnchanged = 0;
        int columnsNew = 0, columnsChanged = 0, columnsUnchanged = 0;
        Set<QualifiedName> seen = new HashSet<>();
        // Hashing is the costly part and independent per table: spread it over the cores.
        Map<QualifiedName, Fingerprints.TableHashes> allHashes = catalog.tables().parallelStream()
                .collect(Collectors.toConcurrentMap(Table::name, Fingerprints::of));

        for (Table table : catalog.tables()) {
            seen.add(table.name());
            Fingerprints.TableHashes hashes = allHashes.get(table.name());
            StoredTable old = byName.get(table.name());
            List<ColumnWrite> columns = new ArrayList<>();
            for (Column column : table.columns()) {
                Fingerprints.Hashes h = hashes.columns().get(column.name());
                StoredTable.StoredColumn oldColumn = old == null ? null : old.columns().get(column.name());
                Change change = classify(oldColumn == null, oldColumn != null && oldColumn.deprecated(),
                        oldColumn == null ? null : oldColumn.structuralHash(),
                        oldColumn == null ? null : oldColumn.semanticHash(), h);
                columns.add(new ColumnWrite(oldColumn == null ? null : oldColumn.id(), column,
                        h.structural(), h.semantic(), change));
                switch (change) {
                    case NEW -> columnsNew++;
                    case UNCHANGED -> columnsUnchanged++;
                    default -> columnsChanged++;
                }
            }
            if (old != null) {
                Set<String> present = table.columns().stream().map(Column::name).collect(Collectors.toSet());
                old.columns().forEach((name, oldColumn) -> {
                    if (!present.contains(name) && !oldColumn.deprecated()) {
                        deprecateColumns.add(oldColumn.id());
                    }
                });
            }
            Change tableChange = classify(old == null, old != null && old.deprecated(),
                    old == null ? null : old.structuralHash(), old == null ? null : old.semanticHash(), hashes.table());
            switch (tableChange) {
                case NEW -> tablesNew++;
                case UNCHANGED -> tablesUnchanged++;
                default -> tablesChanged++;
            }
            if (tableChange == Change.UNCHANGED) {
                Table oldTable = old.table();
                if (!Objects.equals(oldTable.rowEstimate(), table.rowEstimate())
                        || !Objects.equals(oldTable.dataVersion(), table.dataVersion())) {
                    refreshes.add(new Refresh(old.id(), table.rowEstimate(), table.dataVersion()));
                }
            } else {
                writes.add(new TableWrite(old == null ? null : old.id(), table, hashes.table().structural(),
                        hashes.table().semantic(), tableChange, columns));
            }
        }

        List<Long> deprecateTables = new ArrayList<>();
        int columnsDeprecated = deprecateColumns.size();
        for (StoredTable old : stored) {
            if (!seen.contains(old.table().name()) && !old.deprecated()) {
                deprecateTables.add(old.id());
                columnsDeprecated += old.table().columns().size();
            }
        }
        CatalogChanges.RunCounts counts = new CatalogChanges.RunCounts(tablesNew, tablesChanged, tablesUnchanged,
                deprecateTables.size(), columnsNew, columnsChanged, columnsUnchanged, columnsDeprecated);
        return new CatalogChanges(run.sourceId(), run.sourceKind(), run.displayUrl(), run.catalogToken(),
                run.startedAt(), run.now(),
                run.introspectMillis(), writes, refreshes, deprecateTables, deprecateColumns,
                run.now().minus(RETENTION), counts);
    }

    private static Change classify(boolean isNew, boolean wasDeprecated, String oldStructural, String oldSemantic,
                                   Fingerprints.Hashes now) {
        if (isNew) {
            return Change.NEW;
        }
        if (wasDeprecated || !now.structural().equals(oldStructural)) {
            return Change.STRUCTURAL;
        }
        return now.semantic().equals(oldSemantic) ? Change.UNCHANGED : Change.SEMANTIC;
    }
}
