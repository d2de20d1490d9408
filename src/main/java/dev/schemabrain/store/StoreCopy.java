package dev.schemabrain.store;

import dev.schemabrain.error.StoreException;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Copies one store into another (SQLite and PostgreSQL either way) in one target transaction, and proves
 * it with a digest: SHA-256 over a canonical dump of every copied table, equal on both sides or the copy
 * is rolled back. The catalog version is not copied (the target's triggers renew it), nor the audit
 * witness, which belongs to the audit log beside the store it was written for.
 */
public final class StoreCopy {

    /** A copied table: its columns, the key first, and the identity column a PostgreSQL target continues from. */
    /** @param added columns of a later migration, by name, with the value a store written before holds (SQL) */
    private record Table(String name, List<String> columns, String identity, Map<String, String> added) {
        Table(String name, List<String> columns, String identity) {
            this(name, columns, identity, Map.of());
        }

        /** Every column; a store older than an added column answers its default for it. */
        String select(Connection c) throws SQLException {
            List<String> present = new ArrayList<>();
            if (!added.isEmpty()) {
                try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT * FROM " + name + " WHERE 1 = 0")) {
                    for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                        present.add(rs.getMetaData().getColumnName(i).toLowerCase(Locale.ROOT));
                    }
                }
            }
            List<String> shown = columns.stream()
                    .map(col -> added.containsKey(col) && !present.contains(col) ? added.get(col) + " AS " + col : col).toList();
            return "SELECT " + String.join(", ", shown) + " FROM " + name
                    + (name.startsWith("catalog_foreign") || name.startsWith("catalog_unique") ? " ORDER BY rowid" : "");
        }
    }

    /** Parents before children, so foreign keys hold at every insert. */
    private static final List<Table> TABLES = List.of(
            new Table("sources", List.of("source_id", "kind", "display_url", "catalog_token", "first_indexed_at",
                    "last_indexed_at"), null),
            new Table("index_runs", List.of("run_id", "source_id", "started_at", "finished_at", "introspect_ms", "write_ms",
                    "tables_new", "tables_changed", "tables_unchanged", "tables_deprecated", "tables_purged", "columns_new",
                    "columns_changed", "columns_unchanged", "columns_deprecated"), "run_id"),
            new Table("catalog_tables", List.of("table_id", "source_id", "schema_name", "table_name", "kind", "row_estimate",
                    "comment", "is_junction", "primary_key", "data_version", "structural_hash", "semantic_hash", "description",
                    "description_origin", "description_model", "described_hash", "embedding", "embedding_model",
                    "embedded_hash", "first_seen_at", "schema_changed_at", "deprecated_at"), "table_id"),
            new Table("catalog_columns", List.of("column_id", "table_id", "column_name", "ordinal", "data_type", "is_nullable",
                    "default_value", "is_primary_key", "comment", "samples", "structural_hash", "semantic_hash", "description",
                    "description_origin", "description_model", "described_hash", "embedding", "embedding_model",
                    "embedded_hash", "first_seen_at", "schema_changed_at", "deprecated_at", "value_index", "domain"), "column_id"),
            new Table("catalog_foreign_keys", List.of("table_id", "constraint_name", "columns", "target_schema",
                    "target_table", "target_columns"), "rowid"),
            new Table("catalog_unique_constraints", List.of("table_id", "constraint_name", "columns"), "rowid"),
            // Who reviewed an object travels with it (V14).
            new Table("semantic_objects", List.of("kind", "name", "definition", "inference_method", "validation_state",
                    "updated_at", "reviewed_by", "reviewed_at"), null, Map.of("reviewed_by", "NULL", "reviewed_at", "NULL")),
            new Table("pii_tags", List.of("source_id", "schema_name", "table_name", "column_name", "sensitivity",
                    "categories", "reasons"), null),
            new Table("pii_overrides", List.of("schema_name", "table_name", "column_name", "sensitivity", "categories"), null),
            new Table("pii_settings", List.of("key", "value"), null),
            // A token's role and claims decide what its bearer reaches: they travel with it (V13).
            new Table("auth_tokens", List.of("name", "token_hash", "created_at", "role", "claims"), null,
                    Map.of("role", "NULL", "claims", "'{}'")),
            new Table("query_log", List.of("source_id", "fingerprint", "kind", "normalized_sql", "observations",
                    "last_raw_calls", "first_seen_at", "last_seen_at", "tables", "joins", "columns", "aggregates",
                    "pii_categories"), null),
            new Table("query_log_refs", List.of("source_id", "fingerprint", "schema_name", "table_name", "column_name"), null),
            new Table("query_log_sources", List.of("source_id", "reset_token", "last_mined_at"), null));

    /** What a copy did: rows written, and the digest both sides share. */
    public record Result(long rows, String digest) {
    }

    private StoreCopy() {
    }

    /**
     * Copies {@code from} into {@code to}. A target holding anything is refused unless {@code replace},
     * which empties it first, in the same transaction.
     */
    public static Result copy(Store from, Store to, boolean replace) throws StoreException {
        List<List<Object[]>> rows = from.read(c -> {
            List<List<Object[]>> all = new ArrayList<>();
            for (Table t : TABLES) {
                all.add(StoreDialect.hasTable(c, t.name()) ? rows(c, t) : List.of());
            }
            return all;
        });
        String sourceDigest = digest(rows);
        String[] refusal = new String[1];
        Result result = to.write(c -> {
            if (!replace && !empty(c)) {
                refusal[0] = to.describe() + " holds a store already; pass --replace to overwrite it, or copy to an empty"
                        + " store.";
                return null;
            }
            for (int i = TABLES.size() - 1; i >= 0; i--) {
                try (Statement st = c.createStatement()) {
                    st.executeUpdate("DELETE FROM " + TABLES.get(i).name());
                }
            }
            long n = 0;
            for (int i = 0; i < TABLES.size(); i++) {
                n += insert(c, TABLES.get(i), rows.get(i));
            }
            for (Table t : TABLES) {
                if (t.identity() != null) {
                    to.dialect().resetIdentity(c, t.name(), t.identity());
                }
            }
            String written = digest(c);
            if (!written.equals(sourceDigest)) {
                throw new SQLException("the copy's digest " + written + " differs from the source's " + sourceDigest);
            }
            return new Result(n, written);
        });
        if (refusal[0] != null) {
            throw new StoreException(refusal[0]);
        }
        return result;
    }

    /** The digest of a store as it is: what {@code store copy} prints for each side. */
    public static String digest(Store store) throws StoreException {
        return store.read(StoreCopy::digest);
    }

    static String digest(Connection c) throws SQLException {
        List<List<Object[]>> all = new ArrayList<>();
        for (Table t : TABLES) {
            all.add(StoreDialect.hasTable(c, t.name()) ? rows(c, t) : List.of());
        }
        return digest(all);
    }

    private static boolean empty(Connection c) throws SQLException {
        for (Table t : TABLES) {
            if (StoreDialect.hasTable(c, t.name())) {
                try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT 1 FROM " + t.name() + " LIMIT 1")) {
                    if (rs.next()) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    private static List<Object[]> rows(Connection c, Table t) throws SQLException {
        List<Object[]> out = new ArrayList<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(t.select(c))) {
            while (rs.next()) {
                Object[] row = new Object[t.columns().size()];
                for (int i = 0; i < row.length; i++) {
                    row[i] = rs.getObject(i + 1);
                }
                out.add(row);
            }
        }
        return out;
    }

    private static long insert(Connection c, Table t, List<Object[]> rows) throws SQLException {
        String marks = String.join(", ", Collections.nCopies(t.columns().size(), "?"));
        try (PreparedStatement st = c.prepareStatement("INSERT INTO " + t.name() + " (" + String.join(", ", t.columns())
                + ") VALUES (" + marks + ")")) {
            int batch = 0;
            for (Object[] row : rows) {
                for (int i = 0; i < row.length; i++) {
                    st.setObject(i + 1, row[i] instanceof Integer n ? Long.valueOf(n) : row[i]);
                }
                st.addBatch();
                if (++batch % 500 == 0) {
                    st.executeBatch();
                }
            }
            st.executeBatch();
        }
        return rows.size();
    }

    /**
     * SHA-256 over every table in order, each as its rows' canonical lines sorted (the engines order text
     * differently); a value is typed and length-prefixed, so no two dumps share a line by accident.
     */
    private static String digest(List<List<Object[]>> tables) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (int i = 0; i < TABLES.size(); i++) {
                List<String> lines = new ArrayList<>();
                for (Object[] row : tables.get(i)) {
                    StringBuilder line = new StringBuilder();
                    for (Object v : row) {
                        line.append(canonical(v)).append('|');
                    }
                    lines.add(line.toString());
                }
                Collections.sort(lines);
                sha.update((TABLES.get(i).name() + "\n").getBytes(StandardCharsets.UTF_8));
                for (String line : lines) {
                    sha.update((line + "\n").getBytes(StandardCharsets.UTF_8));
                }
            }
            return HexFormat.of().formatHex(sha.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String canonical(Object v) {
        if (v == null) {
            return "n";
        }
        if (v instanceof Number n) {
            return "i" + n.longValue();
        }
        if (v instanceof byte[] b) {
            return "b" + HexFormat.of().formatHex(b);
        }
        String s = v.toString();
        return "s" + s.length() + ":" + s;
    }
}
