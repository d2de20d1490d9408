package dev.schemabrain.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemabrain.pii.PiiPolicy;
import dev.schemabrain.pii.SubjectPolicy;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The operator's data-subject overrides, one row in {@code pii_settings} holding the policy's
 * {@code subjects}, {@code subject_of} and {@code person_keys} as JSON: replaced by {@code policy apply}, read by the
 * server with the tags. Kept in the settings table so no migration is needed.
 */
public final class SubjectPolicyRepository {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String KEY = "subjects";

    private SubjectPolicyRepository() {
    }

    public static SubjectPolicy read(Connection c) throws SQLException {
        if (!StoreDialect.hasTable(c, "pii_settings")) {
            return SubjectPolicy.NONE;
        }
        try (PreparedStatement st = c.prepareStatement("SELECT value FROM pii_settings WHERE key = ?")) {
            st.setString(1, KEY);
            try (ResultSet rs = st.executeQuery()) {
                if (!rs.next()) {
                    return SubjectPolicy.NONE;
                }
                // The stored JSON is the policy file's own shape, so one parser checks both.
                return PiiPolicy.parseSubjects(rs.getString(1));
            } catch (IllegalArgumentException e) {
                throw new SQLException("the stored data-subject policy is not valid (" + e.getMessage()
                        + "); run 'schemabrain policy apply' again", e);
            }
        }
    }

    /** Makes the stored overrides exactly {@code policy}; call inside a store write. */
    public static void replace(Connection c, SubjectPolicy policy) throws SQLException {
        try (PreparedStatement delete = c.prepareStatement("DELETE FROM pii_settings WHERE key = ?")) {
            delete.setString(1, KEY);
            delete.executeUpdate();
        }
        if (policy.isEmpty()) {
            return;
        }
        try (PreparedStatement st = c.prepareStatement("INSERT INTO pii_settings (key, value) VALUES (?, ?)")) {
            st.setString(1, KEY);
            st.setString(2, JSON.writeValueAsString(PiiPolicy.subjectsJson(policy)));
            st.executeUpdate();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a map of strings always serializes", e);
        }
    }
}
