package dev.schemabrain.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.Domain;
import dev.schemabrain.catalog.ForeignKey;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.TableBuilder;
import dev.schemabrain.catalog.TableKind;
import dev.schemabrain.catalog.UniqueConstraint;
import dev.schemabrain.store.CatalogChanges.ColumnWrite;
import dev.schemabrain.store.CatalogChanges.TableWrite;

import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Reads and writes the catalog tables of the store (migration V1). */
public final class CatalogRepository {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectReader STRING_LIST =
            JSON.readerFor(new TypeReference<List<String>>() {
            });

    private CatalogRepository() {
    }

    // ---------------------------------------------------------------- reads

    /** Every table stored for the source, deprecated ones included. */
    public static List<StoredTable> load(Connection c, String sourceId) throws SQLException {
        if (!hasSchema(c)) {
            return List.of();
        }
        Map<Long, TableRow> rows = new LinkedHashMap<>();
        try (PreparedStatement st = c.prepareStatement("""
                SELECT table_id, schema_name, table_name, kind, row_estimate, comment, primary_key, data_version,
                       structural_hash, semantic_hash, deprecated_at
                  FROM catalog_tables WHERE source_id = ? ORDER BY schema_name, table_name""")) {
            st.setString(1, sourceId);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    long rowEstimate = rs.getLong("row_estimate");
                    Long estimate = rs.wasNull() ? null : rowEstimate;
                    TableBuilder builder = new TableBuilder(
                            QualifiedName.of(rs.getString("schema_name"), rs.getString("table_name")),
                            TableKind.fromWireName(rs.getString("kind")), estimate, rs.getString("comment"),
                            rs.getString("data_version"));
                    strings(rs.getString("primary_key")).forEach(builder::addPrimaryKeyColumn);
                    rows.put(rs.getLong("table_id"), new TableRow(rs.getLong("table_id"), builder,
                            rs.getString("structural_hash"), rs.getString("semantic_hash"),
                            instant(rs.getString("deprecated_at")), new HashMap<>()));
                }
            }
        }
        // Served stores are read without migrating: one from before V10 has no value index yet.
        String values = StoreDialect.hasColumn(c, "catalog_columns", "value_index") ? "k.value_index" : "'[]'";
        String domains = StoreDialect.hasColumn(c, "catalog_columns", "domain") ? "k.domain" : "NULL";
        try (PreparedStatement st = c.prepareStatement("""
                SELECT k.table_id, k.column_id, k.column_name, k.ordinal, k.data_type, k.is_nullable, k.default_value,
                       k.comment, k.samples, %s AS value_index, %s AS domain, k.structural_hash, k.semantic_hash,
                       k.deprecated_at
                  FROM catalog_columns k JOIN catalog_tables t ON t.table_id = k.table_id
                 WHERE t.source_id = ? ORDER BY k.table_id, k.ordinal""".formatted(values, domains))) {
            st.setString(1, sourceId);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    TableRow row = rows.get(rs.getLong("table_id"));
                    Instant deprecated = instant(rs.getString("deprecated_at"));
                    String name = rs.getString("column_name");
                    row.stored().put(name, new StoredTable.StoredColumn(rs.getLong("column_id"),
                            rs.getString("structural_hash"), rs.getString("semantic_hash"), deprecated));
                    if (deprecated == null) {
                        row.builder().addColumn(new Column(name, rs.getInt("ordinal"), rs.getString("data_type"),
                                rs.getInt("is_nullable") != 0, rs.getString("default_value"), rs.getString("comment"),
                                strings(rs.getString("samples")), strings(rs.getString("value_index")),
                                domain(rs.getString("domain"))));
                    }
                }
            }
        }
        try (PreparedStatement st = c.prepareStatement("""
                SELECT f.table_id, f.constraint_name, f.columns, f.target_schema, f.target_table, f.target_columns
                  FROM catalog_foreign_keys f JOIN catalog_tables t ON t.table_id = f.table_id
                 WHERE t.source_id = ? ORDER BY f.rowid""")) {
            st.setString(1, sourceId);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    rows.get(rs.getLong("table_id")).builder().addForeignKey(new ForeignKey(rs.getString("constraint_name"),
                            strings(rs.getString("columns")),
                            QualifiedName.of(rs.getString("target_schema"), rs.getString("target_table")),
                            strings(rs.getString("target_columns"))));
                }
            }
        }
        try (PreparedStatement st = c.prepareStatement("""
                SELECT u.table_id, u.constraint_name, u.columns
                  FROM catalog_unique_constraints u JOIN catalog_tables t ON t.table_id = u.table_id
                 WHERE t.source_id = ? ORDER BY u.rowid""")) {
            st.setString(1, sourceId);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    rows.get(rs.getLong("table_id")).builder().addUnique(
                            new UniqueConstraint(rs.getString("constraint_name"), strings(rs.getString("columns"))));
                }
            }
        }
        return rows.values().stream().map(TableRow::toStored).toList();
    }

    /** The live (not deprecated) catalog of one source. */
    public static Catalog catalog(Connection c, String sourceId) throws SQLException {
        return new Catalog(load(c, sourceId).stream().filter(t -> !t.deprecated()).map(StoredTable::table).toList());
    }

    /** The change token recorded by the source's last full run, if any. */
    public static Optional<String> catalogToken(Connection c, String sourceId) throws SQLException {
        if (!hasSchema(c)) {
            return Optional.empty();
        }
        try (PreparedStatement st = c.prepareStatement("SELECT catalog_token FROM sources WHERE source_id = ?")) {
            st.setString(1, sourceId);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() ? Optional.ofNullable(rs.getString(1)) : Optional.empty();
            }
        }
    }

    /** The id of the source's last recorded run; 0 before any. */
    public static long lastRun(Connection c, String sourceId) throws SQLException {
        if (!hasSchema(c)) {
            return 0;
        }
        try (PreparedStatement st = c.prepareStatement("SELECT max(run_id) FROM index_runs WHERE source_id = ?")) {
            st.setString(1, sourceId);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        }
    }

    /** Live tables, columns and foreign keys of a source: the figures of an unchanged run. */
    public static int[] liveCounts(Connection c, String sourceId) throws SQLException {
        try (PreparedStatement st = c.prepareStatement("""
                SELECT (SELECT count(*) FROM catalog_tables WHERE source_id = ? AND deprecated_at IS NULL),
                       (SELECT count(*) FROM catalog_columns k JOIN catalog_tables t ON t.table_id = k.table_id
                         WHERE t.source_id = ? AND t.deprecated_at IS NULL AND k.deprecated_at IS NULL),
                       (SELECT count(*) FROM catalog_foreign_keys f JOIN catalog_tables t ON t.table_id = f.table_id
                         WHERE t.source_id = ? AND t.deprecated_at IS NULL)""")) {
            for (int i = 1; i <= 3; i++) {
                st.setString(i, sourceId);
            }
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return new int[]{rs.getInt(1), rs.getInt(2), rs.getInt(3)};
            }
        }
    }

    /** Live table counts per schema, across sources. */
    public static List<SchemaSummary> schemas(Connection c) throws SQLException {
        if (!hasSchema(c)) {
            return List.of();
        }
        List<SchemaSummary> schemas = new ArrayList<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("""
                SELECT t.source_id, t.schema_name, count(DISTINCT t.table_id), count(k.column_id), s.last_indexed_at
                  FROM catalog_tables t
                  JOIN sources s ON s.source_id = t.source_id
                  LEFT JOIN catalog_columns k ON k.table_id = t.table_id AND k.deprecated_at IS NULL
                 WHERE t.deprecated_at IS NULL
                 GROUP BY t.source_id, t.schema_name, s.last_indexed_at ORDER BY t.schema_name, t.source_id""")) {
            while (rs.next()) {
                schemas.add(new SchemaSummary(rs.getString(1), rs.getString(2), rs.getInt(3), rs.getInt(4),
                        instant(rs.getString(5))));
            }
        }
        return schemas;
    }

    // ---------------------------------------------------------------- writes

    /** Applies one run's changes; returns the number of tables purged. Call inside {@link SqliteStore#write}. */
    public static int apply(Connection c, CatalogChanges changes) throws SQLException {
        String now = changes.now().toString();
        try (PreparedStatement st = c.prepareStatement("""
                INSERT INTO sources (source_id, kind, display_url, catalog_token, first_indexed_at, last_indexed_at)
                VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (source_id) DO UPDATE SET kind = excluded.kind, display_url = excluded.display_url,
                    catalog_token = excluded.catalog_token, last_indexed_at = excluded.last_indexed_at""")) {
            st.setString(1, changes.sourceId());
            st.setString(2, changes.sourceKind());
            st.setString(3, changes.displayUrl());
            st.setString(4, changes.catalogToken());
            st.setString(5, now);
            st.setString(6, now);
            st.executeUpdate();
        }
        try (TableWriter writer = new TableWriter(c, changes.sourceId(), now)) {
            for (TableWrite write : changes.writes()) {
                writer.write(write);
            }
            writer.flush();
        }
        try (PreparedStatement st = c.prepareStatement(
                "UPDATE catalog_tables SET row_estimate = ?, data_version = ? WHERE table_id = ?")) {
            for (CatalogChanges.Refresh refresh : changes.refreshes()) {
                setLong(st, 1, refresh.rowEstimate());
                st.setString(2, refresh.dataVersion());
                st.setLong(3, refresh.tableId());
                st.addBatch();
            }
            st.executeBatch();
        }
        markDeprecated(c, "catalog_tables", "table_id", changes.deprecateTables(), now);
        markDeprecated(c, "catalog_columns", "column_id", changes.deprecateColumns(), now);
        int purged;
        String cutoff = changes.purgeBefore().toString();
        try (PreparedStatement st = c.prepareStatement("""
                DELETE FROM catalog_columns WHERE deprecated_at < ?
                   AND table_id IN (SELECT table_id FROM catalog_tables WHERE source_id = ?)""")) {
            st.setString(1, cutoff);
            st.setString(2, changes.sourceId());
            st.executeUpdate();
        }
        try (PreparedStatement st = c.prepareStatement(
                "DELETE FROM catalog_tables WHERE source_id = ? AND deprecated_at < ?")) {
            st.setString(1, changes.sourceId());
            st.setString(2, cutoff);
            purged = st.executeUpdate();
        }
        return purged;
    }

    /** The ids of every source the store holds, in id order. */
    public static List<String> sourceIds(Connection c) throws SQLException {
        List<String> ids = new ArrayList<>();
        if (!hasSchema(c)) {
            return ids;
        }
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT source_id FROM sources ORDER BY source_id")) {
            while (rs.next()) {
                ids.add(rs.getString(1));
            }
        }
        return ids;
    }

    /** The display URL of every source the store holds, by source id. */
    public static Map<String, String> sourceUrls(Connection c) throws SQLException {
        Map<String, String> urls = new LinkedHashMap<>();
        if (!hasSchema(c)) {
            return urls;
        }
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT source_id, display_url FROM sources ORDER BY last_indexed_at DESC")) {
            while (rs.next()) {
                urls.put(rs.getString(1), rs.getString(2));
            }
        }
        return urls;
    }

    /**
     * Moves every row of source {@code oldId} to {@code newId} with a new display URL (the same database,
     * shown without parameters that may hold secrets); when {@code newId} is already taken, only the old
     * row's URL is replaced. Call inside {@link SqliteStore#write}.
     */
    public static void rekeySource(Connection c, String oldId, String newId, String displayUrl) throws SQLException {
        boolean taken;
        try (PreparedStatement st = c.prepareStatement("SELECT 1 FROM sources WHERE source_id = ?")) {
            st.setString(1, newId);
            try (ResultSet rs = st.executeQuery()) {
                taken = rs.next() || oldId.equals(newId);
            }
        }
        if (taken) {
            try (PreparedStatement st = c.prepareStatement("UPDATE sources SET display_url = ? WHERE source_id = ?")) {
                st.setString(1, displayUrl);
                st.setString(2, oldId);
                st.executeUpdate();
            }
            return;
        }
        try (PreparedStatement st = c.prepareStatement("""
                INSERT INTO sources (source_id, kind, display_url, catalog_token, first_indexed_at, last_indexed_at)
                SELECT ?, kind, ?, catalog_token, first_indexed_at, last_indexed_at FROM sources WHERE source_id = ?""")) {
            st.setString(1, newId);
            st.setString(2, displayUrl);
            st.setString(3, oldId);
            st.executeUpdate();
        }
        for (String table : List.of("catalog_tables", "index_runs", "pii_tags")) {
            if (!tableExists(c, table)) {
                continue;
            }
            try (PreparedStatement st = c.prepareStatement("UPDATE " + table + " SET source_id = ? WHERE source_id = ?")) {
                st.setString(1, newId);
                st.setString(2, oldId);
                st.executeUpdate();
            }
        }
        try (PreparedStatement st = c.prepareStatement("DELETE FROM sources WHERE source_id = ?")) {
            st.setString(1, oldId);
            st.executeUpdate();
        }
    }

    private static boolean tableExists(Connection c, String name) throws SQLException {
        return StoreDialect.hasTable(c, name);
    }

    /**
     * Replaces the semantic hashes of one live table and its columns (after their samples were dropped, so
     * no stored hash is computed from a value that is gone); call inside {@link SqliteStore#write}.
     */
    public static void updateSemanticHashes(Connection c, String sourceId, QualifiedName table, String tableHash,
                                            Map<String, String> columnHashes) throws SQLException {
        try (PreparedStatement t = c.prepareStatement("""
                UPDATE catalog_tables SET semantic_hash = ?
                 WHERE source_id = ? AND schema_name = ? AND table_name = ? AND deprecated_at IS NULL""");
             PreparedStatement k = c.prepareStatement("""
                UPDATE catalog_columns SET semantic_hash = ? WHERE column_name = ? AND deprecated_at IS NULL AND table_id =
                       (SELECT table_id FROM catalog_tables WHERE source_id = ? AND schema_name = ? AND table_name = ?
                           AND deprecated_at IS NULL)""")) {
            t.setString(1, tableHash);
            t.setString(2, sourceId);
            t.setString(3, table.schema());
            t.setString(4, table.table());
            t.executeUpdate();
            for (Map.Entry<String, String> e : columnHashes.entrySet()) {
                k.setString(1, e.getValue());
                k.setString(2, e.getKey());
                k.setString(3, sourceId);
                k.setString(4, table.schema());
                k.setString(5, table.table());
                k.addBatch();
            }
            k.executeBatch();
        }
    }

    /** Records a finished run. */
    public static void recordRun(Connection c, CatalogChanges changes, long writeMillis, int purged) throws SQLException {
        CatalogChanges.RunCounts n = changes.counts();
        try (PreparedStatement st = c.prepareStatement("""
                INSERT INTO index_runs (source_id, started_at, finished_at, introspect_ms, write_ms,
                    tables_new, tables_changed, tables_unchanged, tables_deprecated, tables_purged,
                    columns_new, columns_changed, columns_unchanged, columns_deprecated)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""")) {
            st.setString(1, changes.sourceId());
            st.setString(2, changes.startedAt().toString());
            st.setString(3, Instant.now().toString());
            st.setLong(4, changes.introspectMillis());
            st.setLong(5, writeMillis);
            int i = 6;
            for (int value : new int[]{n.tablesNew(), n.tablesChanged(), n.tablesUnchanged(), n.tablesDeprecated(),
                    purged, n.columnsNew(), n.columnsChanged(), n.columnsUnchanged(), n.columnsDeprecated()}) {
                st.setInt(i++, value);
            }
            st.executeUpdate();
        }
    }

    private static void markDeprecated(Connection c, String table, String idColumn, List<Long> ids, String now)
            throws SQLException {
        try (PreparedStatement st = c.prepareStatement("UPDATE " + table + " SET deprecated_at = ? WHERE "
                + idColumn + " = ? AND deprecated_at IS NULL")) {
            for (Long id : ids) {
                st.setString(1, now);
                st.setLong(2, id);
                st.addBatch();
            }
            st.executeBatch();
        }
    }

    /** Inserts and updates tables and their parts with a fixed set of prepared statements. */
    private static final class TableWriter implements AutoCloseable {
        private final String sourceId;
        private final String now;
        private final PreparedStatement insertTable;
        private final PreparedStatement updateTable;
        private final PreparedStatement insertColumn;
        private final PreparedStatement updateColumn;
        private final PreparedStatement deleteForeignKeys;
        private final PreparedStatement insertForeignKey;
        private final PreparedStatement deleteUniques;
        private final PreparedStatement insertUnique;

        TableWriter(Connection c, String sourceId, String now) throws SQLException {
            this.sourceId = sourceId;
            this.now = now;
            insertTable = c.prepareStatement("""
                    INSERT INTO catalog_tables (source_id, schema_name, table_name, kind, row_estimate, comment,
                        is_junction, primary_key, data_version, structural_hash, semantic_hash, first_seen_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""", Statement.RETURN_GENERATED_KEYS);
            updateTable = c.prepareStatement("""
                    UPDATE catalog_tables SET kind = ?, row_estimate = ?, comment = ?, is_junction = ?, primary_key = ?,
                        data_version = ?, structural_hash = ?, semantic_hash = ?,
                        schema_changed_at = CASE WHEN ? THEN ? ELSE schema_changed_at END, deprecated_at = NULL
                    WHERE table_id = ?""");
            insertColumn = c.prepareStatement("""
                    INSERT INTO catalog_columns (table_id, column_name, ordinal, data_type, is_nullable, default_value,
                        is_primary_key, comment, samples, structural_hash, semantic_hash, first_seen_at, value_index, domain)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""");
            updateColumn = c.prepareStatement("""
                    UPDATE catalog_columns SET ordinal = ?, data_type = ?, is_nullable = ?, default_value = ?,
                        is_primary_key = ?, comment = ?, samples = ?, structural_hash = ?, semantic_hash = ?,
                        schema_changed_at = CASE WHEN ? THEN ? ELSE schema_changed_at END, deprecated_at = NULL,
                        value_index = ?, domain = ?
                    WHERE column_id = ?""");
            deleteForeignKeys = c.prepareStatement("DELETE FROM catalog_foreign_keys WHERE table_id = ?");
            insertForeignKey = c.prepareStatement("""
                    INSERT INTO catalog_foreign_keys (table_id, constraint_name, columns, target_schema, target_table,
                        target_columns) VALUES (?, ?, ?, ?, ?, ?)""");
            deleteUniques = c.prepareStatement("DELETE FROM catalog_unique_constraints WHERE table_id = ?");
            insertUnique = c.prepareStatement(
                    "INSERT INTO catalog_unique_constraints (table_id, constraint_name, columns) VALUES (?, ?, ?)");
        }

        void write(TableWrite write) throws SQLException {
            Table t = write.table();
            long id;
            if (write.existingId() == null) {
                insertTable.setString(1, sourceId);
                insertTable.setString(2, t.name().schema());
                insertTable.setString(3, t.name().table());
                insertTable.setString(4, t.kind().wireName());
                setLong(insertTable, 5, t.rowEstimate());
                insertTable.setString(6, t.comment());
                insertTable.setInt(7, t.isJunction() ? 1 : 0);
                insertTable.setString(8, json(t.primaryKey()));
                insertTable.setString(9, t.dataVersion());
                insertTable.setString(10, write.structuralHash());
                insertTable.setString(11, write.semanticHash());
                insertTable.setString(12, now);
                insertTable.executeUpdate();
                try (ResultSet keys = insertTable.getGeneratedKeys()) {
                    keys.next();
                    id = keys.getLong(1);
                }
            } else {
                id = write.existingId();
                updateTable.setString(1, t.kind().wireName());
                setLong(updateTable, 2, t.rowEstimate());
                updateTable.setString(3, t.comment());
                updateTable.setInt(4, t.isJunction() ? 1 : 0);
                updateTable.setString(5, json(t.primaryKey()));
                updateTable.setString(6, t.dataVersion());
                updateTable.setString(7, write.structuralHash());
                updateTable.setString(8, write.semanticHash());
                updateTable.setBoolean(9, write.change() == CatalogChanges.Change.STRUCTURAL);
                updateTable.setString(10, now);
                updateTable.setLong(11, id);
                updateTable.executeUpdate();
                deleteForeignKeys.setLong(1, id);
                deleteForeignKeys.executeUpdate();
                deleteUniques.setLong(1, id);
                deleteUniques.executeUpdate();
            }
            for (ColumnWrite cw : write.columns()) {
                writeColumn(id, t, cw);
            }
            for (ForeignKey fk : t.foreignKeys()) {
                insertForeignKey.setLong(1, id);
                insertForeignKey.setString(2, fk.name());
                insertForeignKey.setString(3, json(fk.columns()));
                insertForeignKey.setString(4, fk.target().schema());
                insertForeignKey.setString(5, fk.target().table());
                insertForeignKey.setString(6, json(fk.targetColumns()));
                insertForeignKey.addBatch();
            }
            for (UniqueConstraint unique : t.uniqueConstraints()) {
                insertUnique.setLong(1, id);
                insertUnique.setString(2, unique.name());
                insertUnique.setString(3, json(unique.columns()));
                insertUnique.addBatch();
            }
        }

        private void writeColumn(long tableId, Table t, ColumnWrite cw) throws SQLException {
            Column col = cw.column();
            switch (cw.change()) {
                case UNCHANGED -> {
                    // Same fingerprints: same facts, same samples. Nothing to write.
                }
                case NEW -> {
                    insertColumn.setLong(1, tableId);
                    insertColumn.setString(2, col.name());
                    insertColumn.setInt(3, col.position());
                    insertColumn.setString(4, col.dataType());
                    insertColumn.setInt(5, col.nullable() ? 1 : 0);
                    insertColumn.setString(6, col.defaultValue());
                    insertColumn.setInt(7, t.isPrimaryKey(col.name()) ? 1 : 0);
                    insertColumn.setString(8, col.comment());
                    insertColumn.setString(9, json(col.samples()));
                    insertColumn.setString(10, cw.structuralHash());
                    insertColumn.setString(11, cw.semanticHash());
                    insertColumn.setString(12, now);
                    insertColumn.setString(13, json(col.values()));
                    insertColumn.setString(14, json(col.domain()));
                    insertColumn.addBatch();
                }
                case STRUCTURAL, SEMANTIC -> {
                    updateColumn.setInt(1, col.position());
                    updateColumn.setString(2, col.dataType());
                    updateColumn.setInt(3, col.nullable() ? 1 : 0);
                    updateColumn.setString(4, col.defaultValue());
                    updateColumn.setInt(5, t.isPrimaryKey(col.name()) ? 1 : 0);
                    updateColumn.setString(6, col.comment());
                    updateColumn.setString(7, json(col.samples()));
                    updateColumn.setString(8, cw.structuralHash());
                    updateColumn.setString(9, cw.semanticHash());
                    updateColumn.setBoolean(10, cw.change() == CatalogChanges.Change.STRUCTURAL);
                    updateColumn.setString(11, now);
                    updateColumn.setString(12, json(col.values()));
                    updateColumn.setString(13, json(col.domain()));
                    updateColumn.setLong(14, cw.existingId());
                    updateColumn.addBatch();
                }
            }
        }

        void flush() throws SQLException {
            insertColumn.executeBatch();
            updateColumn.executeBatch();
            insertForeignKey.executeBatch();
            insertUnique.executeBatch();
        }

        @Override
        public void close() throws SQLException {
            for (PreparedStatement st : List.of(insertTable, updateTable, insertColumn, updateColumn,
                    deleteForeignKeys, insertForeignKey, deleteUniques, insertUnique)) {
                st.close();
            }
        }
    }

    // ---------------------------------------------------------------- helpers

    static boolean hasSchema(Connection c) throws SQLException {
        return StoreDialect.hasTable(c, "catalog_tables");
    }

    private static void setLong(PreparedStatement st, int index, Long value) throws SQLException {
        if (value == null) {
            st.setNull(index, Types.INTEGER);
        } else {
            st.setLong(index, value);
        }
    }

    private static Instant instant(String text) {
        return text == null ? null : Instant.parse(text);
    }

    static String json(List<String> values) {
        try {
            return JSON.writeValueAsString(values);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A domain as stored: {"kind": "enum", "type": "billing.status", "values": [...]}, or null for an open type. */
    static String json(Domain domain) {
        if (domain == null) {
            return null;
        }
        var node = JSON.createObjectNode().put("kind", domain.kind().wireName()).put("type", domain.typeName());
        domain.values().forEach(node.putArray("values")::add);
        return node.toString();
    }

    static Domain domain(String json) {
        if (json == null) {
            return null;
        }
        try {
            var node = JSON.readTree(json);
            var type = node.path("type");
            return new Domain(Domain.Kind.fromWireName(node.path("kind").asText()), type.isTextual() ? type.asText() : null,
                    STRING_LIST.readValue(node.path("values")));
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalStateException("the store holds a malformed column domain: " + e.getMessage(), e);
        }
    }

    static List<String> strings(String json) {
        try {
            return json == null || json.equals("[]") ? List.of() : STRING_LIST.readValue(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the store holds malformed JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** One stored table while the result sets stream by; frozen into a {@link StoredTable}. */
    private record TableRow(long id, TableBuilder builder, String structuralHash, String semanticHash,
                            Instant deprecatedAt, Map<String, StoredTable.StoredColumn> stored) {
        StoredTable toStored() {
            return new StoredTable(id, builder.build(), structuralHash, semanticHash, deprecatedAt, stored);
        }
    }
}
