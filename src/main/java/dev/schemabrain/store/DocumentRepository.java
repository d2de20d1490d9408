package dev.schemabrain.store;

import dev.schemabrain.catalog.QualifiedName;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * Descriptions and embeddings of tables and columns (the description and embedding columns of
 * catalog_tables and catalog_columns). {@code embedded_hash} holds the hash of the exact text a vector
 * was computed from (with the model), so a re-index embeds only documents whose text changed.
 */
public final class DocumentRepository {

    private DocumentRepository() {
    }

    /** What a re-index compares against: description and the hash of the embedded text. */
    public record StoredDocument(String description, String origin, String embeddedHash) {
    }

    /**
     * What serving loads: the description and the vector (little-endian float32), null when not embedded.
     *
     * @param llm for a model's description (origin {@code llm}), the model and confidence llm_cache keeps for
     *            its table; null for any other origin, or a store without that record
     */
    public record ServedDocument(DocumentKey key, String description, String origin, byte[] embedding, LlmAuthor llm) {
    }

    /**
     * Who wrote a table's LLM descriptions.
     *
     * @param model      the model the answer named, else the one asked
     * @param confidence {@code medium} or {@code low}, as the index run derived it
     */
    public record LlmAuthor(String model, String confidence) {
    }

    /** DescriptionOrigin.LLM's wire name; the store does not depend on the describer. */
    private static final String LLM_ORIGIN = "llm";

    /**
     * One document to store. A null {@code embedding} leaves the stored vector as it is (the text to
     * embed did not change).
     */
    public record DocumentWrite(DocumentKey key, String description, String origin, byte[] embedding,
                                String embeddedHash, String model) {
    }

    private static final String TABLES = """
            SELECT t.schema_name, t.table_name, NULL, t.description, t.description_origin, t.embedded_hash, %s
              FROM catalog_tables t WHERE t.source_id = ? AND t.deprecated_at IS NULL""";
    private static final String COLUMNS = """
            SELECT t.schema_name, t.table_name, k.column_name, k.description, k.description_origin, k.embedded_hash, %s
              FROM catalog_columns k JOIN catalog_tables t ON t.table_id = k.table_id
             WHERE t.source_id = ? AND t.deprecated_at IS NULL AND k.deprecated_at IS NULL ORDER BY t.table_id, k.ordinal""";

    public static Map<DocumentKey, StoredDocument> state(Connection c, String sourceId) throws SQLException {
        Map<DocumentKey, StoredDocument> state = new HashMap<>();
        for (String sql : List.of(TABLES.formatted("NULL"), COLUMNS.formatted("NULL"))) {
            query(c, sql, sourceId, rs -> state.put(key(rs), new StoredDocument(rs.getString(4), rs.getString(5), rs.getString(6))));
        }
        return state;
    }

    /**
     * Every live document of the source, with its vector when {@code embeddings}; tables first, then columns in table
     * and column order.
     * LLM authorship comes from llm_cache in one more query per load, not per answer.
     */
    public static List<ServedDocument> served(Connection c, String sourceId, boolean embeddings) throws SQLException {
        Map<QualifiedName, LlmAuthor> authors = llmAuthors(c, sourceId);
        List<ServedDocument> documents = new ArrayList<>();
        for (String sql : embeddings ? List.of(TABLES.formatted("t.embedding"), COLUMNS.formatted("k.embedding"))
                : List.of(TABLES.formatted("NULL"), COLUMNS.formatted("NULL"))) {
            query(c, sql, sourceId, rs -> {
                DocumentKey key = key(rs);
                String origin = rs.getString(5);
                LlmAuthor author = LLM_ORIGIN.equals(origin) ? authors.get(key.table()) : null;
                documents.add(new ServedDocument(key, rs.getString(4), origin, rs.getBytes(7), author));
            });
        }
        return documents;
    }

    /**
     * Every stored vector of the source, one row at a time, in the order of {@link #served}: a server's load turns
     * each into int8 as it comes, instead of holding a million columns' floats at once.
     */
    public static void embeddings(Connection c, String sourceId, BiConsumer<DocumentKey, byte[]> sink) throws SQLException {
        for (String sql : List.of(TABLES.formatted("t.embedding"), COLUMNS.formatted("k.embedding"))) {
            query(c, sql, sourceId, rs -> {
                byte[] embedding = rs.getBytes(7);
                if (embedding != null) {
                    sink.accept(key(rs), embedding);
                }
            });
        }
    }

    /** Per table, the model and confidence of its last LLM description; empty for a store older than V8. */
    private static Map<QualifiedName, LlmAuthor> llmAuthors(Connection c, String sourceId) throws SQLException {
        Map<QualifiedName, LlmAuthor> authors = new HashMap<>();
        if (!StoreDialect.hasTable(c, "llm_cache")) {
            return authors;
        }
        // Served stores are read without migrating: one from before V9 has no answered_model yet.
        String model = StoreDialect.hasColumn(c, "llm_cache", "answered_model") ? "coalesce(answered_model, model)" : "model";
        query(c, "SELECT schema_name, table_name, " + model + ", confidence FROM llm_cache WHERE source_id = ?", sourceId,
                rs -> authors.put(QualifiedName.of(rs.getString(1), rs.getString(2)), new LlmAuthor(rs.getString(3), rs.getString(4))));
        return authors;
    }

    /**
     * The stored vectors of {@code wanted}'s documents whose embedded text still has the given hash (the vector and
     * its hash are written together), so a run can take a text's vector from another document of the source.
     */
    public static Map<DocumentKey, byte[]> vectors(Connection c, String sourceId, Map<DocumentKey, String> wanted)
            throws SQLException {
        Map<DocumentKey, byte[]> found = new HashMap<>();
        if (wanted.isEmpty() || !CatalogRepository.hasSchema(c)) {
            return found;
        }
        try (PreparedStatement table = c.prepareStatement("""
                SELECT embedded_hash, embedding FROM catalog_tables
                 WHERE source_id = ? AND schema_name = ? AND table_name = ? AND deprecated_at IS NULL""");
             PreparedStatement column = c.prepareStatement("""
                SELECT k.embedded_hash, k.embedding FROM catalog_columns k JOIN catalog_tables t ON t.table_id = k.table_id
                 WHERE t.source_id = ? AND t.schema_name = ? AND t.table_name = ? AND t.deprecated_at IS NULL
                   AND k.column_name = ? AND k.deprecated_at IS NULL""")) {
            for (Map.Entry<DocumentKey, String> e : wanted.entrySet()) {
                DocumentKey key = e.getKey();
                PreparedStatement st = key.column() == null ? table : column;
                st.setString(1, sourceId);
                st.setString(2, key.table().schema());
                st.setString(3, key.table().table());
                if (key.column() != null) {
                    st.setString(4, key.column());
                }
                try (ResultSet rs = st.executeQuery()) {
                    if (rs.next() && e.getValue().equals(rs.getString(1)) && rs.getBytes(2) != null) {
                        found.put(key, rs.getBytes(2));
                    }
                }
            }
        }
        return found;
    }

    /** Writes descriptions and vectors; call inside {@link SqliteStore#write}, after the catalog rows are in. */
    public static void write(Connection c, String sourceId, List<DocumentWrite> writes) throws SQLException {
        try (PreparedStatement table = c.prepareStatement("""
                UPDATE catalog_tables SET description = ?, description_origin = ?, described_hash = ?,
                       embedding = coalesce(?, embedding), embedded_hash = ?, embedding_model = ?
                 WHERE source_id = ? AND schema_name = ? AND table_name = ?""");
             PreparedStatement column = c.prepareStatement("""
                UPDATE catalog_columns SET description = ?, description_origin = ?, described_hash = ?,
                       embedding = coalesce(?, embedding), embedded_hash = ?, embedding_model = ?
                 WHERE column_name = ? AND table_id =
                       (SELECT table_id FROM catalog_tables WHERE source_id = ? AND schema_name = ? AND table_name = ?)""")) {
            for (DocumentWrite w : writes) {
                boolean isTable = w.key().column() == null;
                PreparedStatement st = isTable ? table : column;
                st.setString(1, w.description());
                st.setString(2, w.origin());
                st.setString(3, w.embeddedHash());
                st.setBytes(4, w.embedding());
                st.setString(5, w.embeddedHash());
                st.setString(6, w.model());
                int i = 7;
                if (!isTable) {
                    st.setString(i++, w.key().column());
                }
                st.setString(i++, sourceId);
                st.setString(i++, w.key().table().schema());
                st.setString(i, w.key().table().table());
                st.addBatch();
            }
            table.executeBatch();
            column.executeBatch();
        }
    }

    private interface RowHandler {
        void row(ResultSet rs) throws SQLException;
    }

    private static void query(Connection c, String sql, String sourceId, RowHandler handler) throws SQLException {
        if (!CatalogRepository.hasSchema(c)) {
            return;
        }
        try (PreparedStatement st = c.prepareStatement(sql)) {
            st.setString(1, sourceId);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    handler.row(rs);
                }
            }
        }
    }

    private static DocumentKey key(ResultSet rs) throws SQLException {
        return new DocumentKey(QualifiedName.of(rs.getString(1), rs.getString(2)), rs.getString(3));
    }
}
