package dev.schemabrain.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.pii.BlockList;
import dev.schemabrain.pii.PiiCategory;
import dev.schemabrain.pii.PiiTag;
import dev.schemabrain.pii.PiiTags;
import dev.schemabrain.pii.Sensitivity;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;

/**
 * PII tags as rows: the classifier's per source (replaced by every index run), the operator's
 * overrides store-wide (replaced only by {@code policy apply|tag}) and the operator's block list.
 */
public final class PiiRepository {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<List<String>> STRINGS = new TypeReference<>() {
    };
    private static final String BLOCK_LIST = "block_list";

    private PiiRepository() {
    }

    /** The tags the tools serve: overrides over the classifier's (a store older than the PII layer has none). */
    public static PiiTags tags(Connection c) throws SQLException {
        return new PiiTags(heuristic(c, Optional.empty()), overrides(c));
    }

    /** Replaces the classifier's tags of {@code sourceId}; call inside {@link SqliteStore#write}. */
    public static void replaceHeuristic(Connection c, String sourceId, Collection<PiiTags.Entry> tags) throws SQLException {
        try (PreparedStatement delete = c.prepareStatement("DELETE FROM pii_tags WHERE source_id = ?")) {
            delete.setString(1, sourceId);
            delete.executeUpdate();
        }
        try (PreparedStatement st = c.prepareStatement("""
                INSERT INTO pii_tags (source_id, schema_name, table_name, column_name, sensitivity, categories, reasons)
                VALUES (?, ?, ?, ?, ?, ?, ?)""")) {
            for (PiiTags.Entry e : tags) {
                st.setString(1, sourceId);
                bindColumn(st, 2, e);
                st.setString(7, json(e.tag().reasons()));
                st.addBatch();
            }
            st.executeBatch();
        }
    }

    /** The classifier's tags of one source, or of every source. */
    public static List<PiiTags.Entry> heuristic(Connection c, Optional<String> sourceId) throws SQLException {
        if (!hasTable(c, "pii_tags")) {
            return List.of();
        }
        String sql = "SELECT schema_name, table_name, column_name, sensitivity, categories, reasons FROM pii_tags"
                + (sourceId.isPresent() ? " WHERE source_id = ?" : "") + " ORDER BY schema_name, table_name, column_name";
        return query(c, sql, sourceId, PiiTags.Origin.HEURISTIC);
    }

    public static List<PiiTags.Entry> overrides(Connection c) throws SQLException {
        if (!hasTable(c, "pii_overrides")) {
            return List.of();
        }
        return query(c, "SELECT schema_name, table_name, column_name, sensitivity, categories, '[\"operator\"]' "
                + "FROM pii_overrides ORDER BY schema_name, table_name, column_name", Optional.empty(), PiiTags.Origin.OPERATOR);
    }

    /**
     * Makes the overrides exactly {@code overrides} and drops the stored samples of every column they tag,
     * with the describer's sentence that quoted them (a database comment or an applied description is
     * kept: it was not written from the values); call inside {@link SqliteStore#write}. Prefer
     * {@code index.TagPurge#replaceOverrides}, which also re-derives every document and fingerprint.
     */
    public static void replaceOverrides(Connection c, Collection<PiiTags.Entry> overrides) throws SQLException {
        try (PreparedStatement delete = c.prepareStatement("DELETE FROM pii_overrides")) {
            delete.executeUpdate();
        }
        try (PreparedStatement st = c.prepareStatement("""
                INSERT INTO pii_overrides (schema_name, table_name, column_name, sensitivity, categories) VALUES (?, ?, ?, ?, ?)""");
             PreparedStatement strip = c.prepareStatement("""
                UPDATE catalog_columns SET samples = '[]', value_index = '[]',
                       description = CASE WHEN description_origin = 'heuristic' THEN NULL ELSE description END,
                       described_hash = CASE WHEN description_origin = 'heuristic' THEN NULL ELSE described_hash END
                 WHERE column_name = ? AND table_id IN
                  (SELECT table_id FROM catalog_tables WHERE schema_name = ? AND table_name = ?)""")) {
            for (PiiTags.Entry e : overrides) {
                bindColumn(st, 1, e);
                st.addBatch();
                if (e.tag().tagged()) {
                    strip.setString(1, e.column());
                    strip.setString(2, e.table().schema());
                    strip.setString(3, e.table().table());
                    strip.addBatch();
                }
            }
            st.executeBatch();
            strip.executeBatch();
        }
    }

    /** The operator's block list, when one was applied. */
    public static Optional<BlockList> blockList(Connection c) throws SQLException {
        if (!hasTable(c, "pii_settings")) {
            return Optional.empty();
        }
        try (PreparedStatement st = c.prepareStatement("SELECT value FROM pii_settings WHERE key = ?")) {
            st.setString(1, BLOCK_LIST);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() ? Optional.of(new BlockList(categories(rs.getString(1)))) : Optional.empty();
            }
        }
    }

    /** Records the block list, or removes it (the floor applies again); call inside {@link SqliteStore#write}. */
    public static void putBlockList(Connection c, Optional<BlockList> block) throws SQLException {
        try (PreparedStatement delete = c.prepareStatement("DELETE FROM pii_settings WHERE key = ?")) {
            delete.setString(1, BLOCK_LIST);
            delete.executeUpdate();
        }
        if (block.isPresent()) {
            try (PreparedStatement st = c.prepareStatement("INSERT INTO pii_settings (key, value) VALUES (?, ?)")) {
                st.setString(1, BLOCK_LIST);
                st.setString(2, json(block.get().names()));
                st.executeUpdate();
            }
        }
    }

    /** Binds schema, table, column, sensitivity and categories from {@code at}. */
    private static void bindColumn(PreparedStatement st, int at, PiiTags.Entry e) throws SQLException {
        st.setString(at, e.table().schema());
        st.setString(at + 1, e.table().table());
        st.setString(at + 2, e.column());
        st.setString(at + 3, e.tag().sensitivity().wireName());
        st.setString(at + 4, json(e.tag().categoryNames()));
    }

    private static List<PiiTags.Entry> query(Connection c, String sql, Optional<String> sourceId, PiiTags.Origin origin)
            throws SQLException {
        List<PiiTags.Entry> out = new ArrayList<>();
        try (PreparedStatement st = c.prepareStatement(sql)) {
            if (sourceId.isPresent()) {
                st.setString(1, sourceId.get());
            }
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    PiiTag tag = new PiiTag(Sensitivity.fromWireName(rs.getString(4)), categories(rs.getString(5)),
                            strings(rs.getString(6)));
                    out.add(new PiiTags.Entry(QualifiedName.of(rs.getString(1), rs.getString(2)), rs.getString(3), tag, origin));
                }
            }
        }
        return out;
    }

    private static EnumSet<PiiCategory> categories(String json) {
        EnumSet<PiiCategory> out = EnumSet.noneOf(PiiCategory.class);
        strings(json).forEach(name -> out.add(PiiCategory.fromWireName(name)));
        return out;
    }

    private static List<String> strings(String json) {
        try {
            return JSON.readValue(json, STRINGS);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored PII column holds invalid JSON: " + json, e);
        }
    }

    private static String json(List<String> values) {
        try {
            return JSON.writeValueAsString(values);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a list of strings always serializes", e);
        }
    }

    private static boolean hasTable(Connection c, String name) throws SQLException {
        return StoreDialect.hasTable(c, name);
    }
}
