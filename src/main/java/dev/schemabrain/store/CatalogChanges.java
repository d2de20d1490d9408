package dev.schemabrain.store;

import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.Table;

import java.time.Instant;
import java.util.List;

/**
 * Everything one index run writes, decided before the write transaction starts.
 *
 * @param catalogToken  the source's change token read before introspection, or null
 * @param writes        new tables and tables with any change (their columns classified one by one)
 * @param refreshes     unchanged tables whose row estimate or data version moved
 * @param deprecateTables ids of tables the source no longer has
 * @param deprecateColumns ids of columns the source no longer has, in tables that remain
 * @param purgeBefore   objects deprecated before this instant are deleted
 */
public record CatalogChanges(String sourceId, String sourceKind, String displayUrl, String catalogToken,
                             Instant startedAt, Instant now,
                             long introspectMillis, List<TableWrite> writes, List<Refresh> refreshes,
                             List<Long> deprecateTables, List<Long> deprecateColumns, Instant purgeBefore,
                             RunCounts counts) {

    /** A run in which the source's change token showed nothing changed: only the run is recorded. */
    public static CatalogChanges unchanged(String sourceId, String sourceKind, String displayUrl, String catalogToken,
                                           Instant startedAt, Instant now, Instant purgeBefore, RunCounts counts) {
        return new CatalogChanges(sourceId, sourceKind, displayUrl, catalogToken, startedAt, now, 0, List.of(), List.of(),
                List.of(), List.of(), purgeBefore, counts);
    }

    public CatalogChanges {
        writes = List.copyOf(writes);
        refreshes = List.copyOf(refreshes);
        deprecateTables = List.copyOf(deprecateTables);
        deprecateColumns = List.copyOf(deprecateColumns);
    }

    public enum Change { NEW, STRUCTURAL, SEMANTIC, UNCHANGED }

    /** A table to insert ({@code existingId == null}) or update. */
    public record TableWrite(Long existingId, Table table, String structuralHash, String semanticHash,
                             Change change, List<ColumnWrite> columns) {
        public TableWrite {
            columns = List.copyOf(columns);
        }
    }

    public record ColumnWrite(Long existingId, Column column, String structuralHash, String semanticHash, Change change) {
    }

    public record Refresh(long tableId, Long rowEstimate, String dataVersion) {
    }

    /** The summary figures of a run; {@code tablesPurged} is filled in by the write. */
    public record RunCounts(int tablesNew, int tablesChanged, int tablesUnchanged, int tablesDeprecated,
                            int columnsNew, int columnsChanged, int columnsUnchanged, int columnsDeprecated) {
    }
}
