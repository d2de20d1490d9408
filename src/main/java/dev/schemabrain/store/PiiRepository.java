package dev.schemabrain.store;

import dev.schemabrain.catalog.QualifiedName;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * PII tags as rows: the classifier's per source, the operator's overrides store-wide, and the
 * operator's block list. Categories and reasons are JSON arrays; the pii package gives them meaning.
 */
public final class PiiRepository {

    /** One column's tag as stored. */
    public record StoredTag(QualifiedName table, String column, String sensitivity, String categories, String reasons) {
    }

    private PiiRepository() {
    }

    /** Replaces the classifier's tags of {@code sourceId}; call inside {@link SqliteStore#write}. */
    public static void replaceHeuristic(Connection c, String sourceId, Collection<StoredTag> tags) throws SQLException {
        try (PreparedStatement delete = c.prepareStatement("DELETE FROM pii_tags WHERE source_id = ?")) {
            delete.setString(1, sourceId);
            delete.executeUpdate();
        }
        try (PreparedStatement st = c.prepareStatement("""
                INSERT INTO pii_tags (source_id, schema_name, table_name, column_name, sensitivity, categories, reasons)
                VALUES (?, ?, ?, ?, ?, ?, ?)""")) {
            for (StoredTag t : tags) {
                st.setString(1, sourceId);
                st.setString(2, t.table().schema());
                st.setString(3, t.table().table());
                st.setString(4, t.column());
                st.setString(5, t.sensitivity());
                st.setString(6, t.categories());
                st.setString(7, t.reasons());
                st.addBatch();
            }
            st.executeBatch();
        }
    }

    /** The classifier's tags of every source (a store older than the PII layer has none). */
    public static List<StoredTag> heuristic(Connection c) throws SQLException {
        if (!hasTable(c, "pii_tags")) {
            return List.of();
        }
        return query(c, "SELECT schema_name, table_name, column_name, sensitivity, categories, reasons FROM pii_tags "
                + "ORDER BY schema_name, table_name, column_name");
    }

    public static List<StoredTag> overrides(Connection c) throws SQLException {
        if (!hasTable(c, "pii_overrides")) {
            return List.of();
        }
        return query(c, "SELECT schema_name, table_name, column_name, sensitivity, categories, '[]' FROM pii_overrides "
                + "ORDER BY schema_name, table_name, column_name");
    }

    /** Makes the overrides exactly {@code overrides}; call inside {@link SqliteStore#write}. */
    public static void replaceOverrides(Connection c, Collection<StoredTag> overrides) throws SQLException {
        try (PreparedStatement delete = c.prepareStatement("DELETE FROM pii_overrides")) {
            delete.executeUpdate();
        }
        try (PreparedStatement st = c.prepareStatement("""
                INSERT INTO pii_overrides (schema_name, table_name, column_name, sensitivity, categories) VALUES (?, ?, ?, ?, ?)""")) {
            for (StoredTag t : overrides) {
                st.setString(1, t.table().schema());
                st.setString(2, t.table().table());
                st.setString(3, t.column());
                st.setString(4, t.sensitivity());
                st.setString(5, t.categories());
                st.addBatch();
            }
            st.executeBatch();
        }
    }

    public static Optional<String> setting(Connection c, String key) throws SQLException {
        if (!hasTable(c, "pii_settings")) {
            return Optional.empty();
        }
        try (PreparedStatement st = c.prepareStatement("SELECT value FROM pii_settings WHERE key = ?")) {
            st.setString(1, key);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
            }
        }
    }

    public static void putSetting(Connection c, String key, String value) throws SQLException {
        try (PreparedStatement st = c.prepareStatement(
                "INSERT INTO pii_settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value")) {
            st.setString(1, key);
            st.setString(2, value);
            st.executeUpdate();
        }
    }

    private static List<StoredTag> query(Connection c, String sql) throws SQLException {
        List<StoredTag> out = new ArrayList<>();
        try (PreparedStatement st = c.prepareStatement(sql); ResultSet rs = st.executeQuery()) {
            while (rs.next()) {
                out.add(new StoredTag(QualifiedName.of(rs.getString(1), rs.getString(2)), rs.getString(3), rs.getString(4),
                        rs.getString(5), rs.getString(6)));
            }
        }
        return out;
    }

    private static boolean hasTable(Connection c, String name) throws SQLException {
        try (PreparedStatement st = c.prepareStatement("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?")) {
            st.setString(1, name);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next();
            }
        }
    }
}
