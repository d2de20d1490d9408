package dev.schemabrain.store;

import dev.schemabrain.error.StoreException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;

/**
 * The version of the catalog in a store (V4): a random token that triggers renew whenever a row of a
 * catalog table changes, with the schema version (migrations). Other writes — the audit witness every
 * call writes — leave it alone, so a served catalog is reloaded only when it really changed.
 */
public final class CatalogVersion {

    private CatalogVersion() {
    }

    /** The version of the store file, opened read-only for the question; empty without a store or before V4. */
    public static Optional<String> of(Path store) throws StoreException {
        if (!SqliteStore.exists(store)) {
            return Optional.empty();
        }
        try (Connection c = openReadOnly(store)) {
            return of(c);
        } catch (SQLException e) {
            throw new StoreException("Reading the store " + store + " failed (" + e.getMessage() + ").", e);
        }
    }

    /** The version read through {@code c}, a connection to the store (see {@link #openReadOnly}). */
    public static Optional<String> of(Connection c) throws SQLException {
        if (!AuditWitnessStore.hasTable(c, "catalog_version")) {
            return Optional.empty();
        }
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT hex(token) FROM catalog_version WHERE id = 1")) {
            String token = rs.next() ? rs.getString(1) : "";
            return Optional.of(token + "/" + AuditWitnessStore.pragma(c, "schema_version"));
        }
    }

    /** A read-only connection to an existing store, for a caller that keeps it to ask again. */
    public static Connection openReadOnly(Path store) throws SQLException {
        return AuditWitnessStore.connect(store, 5_000, true);
    }
}
