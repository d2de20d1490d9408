package dev.schemabrain.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The semantic layer's rows: each object's definition as JSON text with its kind, name and the two
 * trust axes. The store does not interpret definitions; the semantic layer encodes and decodes them.
 */
public final class SemanticRepository {

    /**
     * One stored entity, join or metric.
     *
     * @param reviewedBy who made it the operator's with apply, or null (drafts, imports)
     * @param reviewedAt when, ISO-8601, or null
     */
    public record StoredObject(String kind, String name, String definition, String inferenceMethod,
                               String validationState, String reviewedBy, String reviewedAt) {

        public StoredObject(String kind, String name, String definition, String inferenceMethod, String validationState) {
            this(kind, name, definition, inferenceMethod, validationState, null, null);
        }
    }

    private SemanticRepository() {
    }

    /** Every stored object, by kind then name; empty for a store written before the semantic layer existed. */
    public static List<StoredObject> load(Connection c) throws SQLException {
        List<StoredObject> objects = new ArrayList<>();
        if (!exists(c)) {
            return objects;
        }
        // A read does not migrate: a store older than V14 has no review columns yet.
        String review = StoreDialect.hasColumn(c, "semantic_objects", "reviewed_by") ? "reviewed_by, reviewed_at" : "NULL, NULL";
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
                "SELECT kind, name, definition, inference_method, validation_state, " + review
                        + " FROM semantic_objects ORDER BY kind, name")) {
            while (rs.next()) {
                objects.add(new StoredObject(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                        rs.getString(5), rs.getString(6), rs.getString(7)));
            }
        }
        return objects;
    }

    /** Whether the store has a semantic layer table (a store that was never migrated past version 1 has none). */
    public static boolean exists(Connection c) throws SQLException {
        return StoreDialect.hasTable(c, "semantic_objects");
    }

    /** Removes the objects of {@code kind} named; call inside {@link SqliteStore#write}. */
    public static void delete(Connection c, Collection<StoredObject> objects) throws SQLException {
        try (PreparedStatement st = c.prepareStatement("DELETE FROM semantic_objects WHERE kind = ? AND name = ?")) {
            for (StoredObject o : objects) {
                st.setString(1, o.kind());
                st.setString(2, o.name());
                st.addBatch();
            }
            st.executeBatch();
        }
    }

    /**
     * Inserts or replaces each object by kind and name; call inside {@link SqliteStore#write}. A row whose definition
     * and origin are unchanged is left alone, its review included.
     */
    public static void put(Connection c, Collection<StoredObject> objects) throws SQLException {
        String now = Instant.now().toString();
        try (PreparedStatement st = c.prepareStatement("""
                INSERT INTO semantic_objects (kind, name, definition, inference_method, validation_state, updated_at,
                                              reviewed_by, reviewed_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (kind, name) DO UPDATE SET definition = excluded.definition,
                       inference_method = excluded.inference_method, validation_state = excluded.validation_state,
                       updated_at = excluded.updated_at, reviewed_by = excluded.reviewed_by,
                       reviewed_at = excluded.reviewed_at
                 WHERE semantic_objects.definition <> excluded.definition
                       OR semantic_objects.inference_method <> excluded.inference_method
                       OR semantic_objects.validation_state <> excluded.validation_state""")) {
            for (StoredObject o : objects) {
                st.setString(1, o.kind());
                st.setString(2, o.name());
                st.setString(3, o.definition());
                st.setString(4, o.inferenceMethod());
                st.setString(5, o.validationState());
                st.setString(6, now);
                st.setString(7, o.reviewedBy());
                st.setString(8, o.reviewedAt());
                st.addBatch();
            }
            st.executeBatch();
        }
    }
}
