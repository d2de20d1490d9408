package dev.schemabrain.store;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * Versioned schema migrations, {@code <dialect folder>/V<n>__<name>.sql} on the class path, applied in
 * order inside the caller's transaction (the first write's, so a failed write leaves no half-migrated
 * store); SQLite records the version reached in {@code PRAGMA user_version}, PostgreSQL in
 * {@code schema_version}. Both dialects have the same scripts, version for version.
 */
final class Migrations {

    /** Every migration in order; the store's version is the length of this list. */
    static final List<String> SCRIPTS = List.of("V1__catalog.sql", "V2__semantic.sql", "V3__pii.sql",
            "V4__audit_witness.sql", "V5__auth_tokens.sql", "V6__query_log.sql", "V7__audit_chain.sql",
            "V8__llm.sql", "V9__llm_provenance.sql", "V10__value_index.sql", "V11__column_domain.sql",
            "V12__query_log_filters.sql", "V13__token_roles.sql", "V14__semantic_review.sql",
            "V15__rejected_metrics.sql");

    static int latestVersion() {
        return SCRIPTS.size();
    }

    private Migrations() {
    }

    static void migrate(Connection connection, int fromVersion) throws SQLException {
        migrate(connection, StoreDialect.SQLITE, fromVersion);
    }

    static void migrate(Connection connection, StoreDialect dialect, int fromVersion) throws SQLException {
        for (int v = fromVersion; v < SCRIPTS.size(); v++) {
            String script = load(dialect.migrationFolder() + SCRIPTS.get(v));
            try (Statement st = connection.createStatement()) {
                for (String sql : SqlScript.statements(script)) {
                    st.execute(sql);
                }
                dialect.recordVersion(st, v + 1);
            }
        }
    }

    private static String load(String name) {
        try (InputStream in = Migrations.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("migration " + name + " is missing from the build");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("migration " + name + " cannot be read", e);
        }
    }

}
