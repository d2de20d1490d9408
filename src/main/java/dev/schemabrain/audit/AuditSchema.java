package dev.schemabrain.audit;

import dev.schemabrain.store.SqlScript;
import dev.schemabrain.store.StoreDialect;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The audit file's schema (audit.sql) and its meta rows. An existing log must hold exactly the objects
 * the script creates, with their exact definitions: a dropped or rewritten trigger is tampering to
 * report, never something to re-create quietly.
 */
final class AuditSchema {

    /**
     * The log's key id, how many of its first rows were chained without a key, and its signed mark as
     * stored (null in a log no build with marks has served yet; see {@link KeyedMark}).
     */
    record Meta(String keyId, long legacyRows, String mark) {
        Meta(String keyId, long legacyRows) {
            this(keyId, legacyRows, null);
        }
    }

    private static final String SCRIPT = load();
    /** type:name → normalized SQL of every object the script creates. */
    private static final Map<String, String> EXPECTED = expected(true);
    /** The same for a log written before roles: the script without its ALTERs (see {@link #addRoles}). */
    private static final Map<String, String> BEFORE_ROLES = expected(false);

    private AuditSchema() {
    }

    static boolean hasLog(Connection c) throws SQLException {
        return hasTable(c, "audit_log");
    }

    static boolean hasMeta(Connection c) throws SQLException {
        return hasTable(c, "audit_meta");
    }

    /** Whether the log's key was named yet (a PostgreSQL chain's audit_meta starts empty). */
    static boolean hasKeyId(Connection c) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT 1 FROM audit_meta WHERE name = 'key_id'")) {
            return rs.next();
        }
    }

    static void create(Connection c) throws SQLException {
        create(c, true);
    }

    private static void create(Connection c, boolean roles) throws SQLException {
        try (Statement st = c.createStatement()) {
            for (String sql : SqlScript.statements(SCRIPT)) {
                if (roles || !isAlter(sql)) {
                    st.execute(sql);
                }
            }
        }
    }

    private static boolean isAlter(String sql) {
        return sql.strip().toUpperCase(Locale.ROOT).startsWith("ALTER TABLE");
    }

    /**
     * Gives a log written before roles its role columns, with the script's own ALTERs, so its schema then
     * reads exactly as a new log's. Only a log whose schema is exactly the one before roles: anything else is
     * left for {@link #problem} to report. Answers whether it added them.
     */
    static boolean addRoles(Connection c) throws SQLException {
        if (!hasLog(c) || ChainRows.hasRoleColumns(c) || problem(c, false, BEFORE_ROLES) != null) {
            return false;
        }
        try (Statement st = c.createStatement()) {
            for (String sql : SqlScript.statements(SCRIPT)) {
                if (isAlter(sql)) {
                    st.execute(sql);
                }
            }
        }
        return true;
    }

    static void writeMeta(Connection c, Meta meta) throws SQLException {
        try (PreparedStatement st = c.prepareStatement("INSERT INTO audit_meta (name, value) VALUES (?, ?)")) {
            for (String[] kv : new String[][]{{"format", AuditLog.FORMAT}, {"key_id", meta.keyId()},
                    {"legacy_rows", Long.toString(meta.legacyRows())}}) {
                st.setString(1, kv[0]);
                st.setString(2, kv[1]);
                st.addBatch();
            }
            st.executeBatch();
        }
    }

    static Meta meta(Connection c) throws SQLException {
        Map<String, String> values = new TreeMap<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT name, value FROM audit_meta")) {
            while (rs.next()) {
                values.put(rs.getString(1), rs.getString(2));
            }
        }
        long legacy;
        try {
            legacy = Long.parseLong(values.getOrDefault("legacy_rows", "-1"));
        } catch (NumberFormatException e) {
            legacy = -1;
        }
        return new Meta(values.getOrDefault("key_id", ""), legacy, values.get("mark"));
    }

    /** Adds the mark unless another process just did (audit_meta rows are never changed); then read it back. */
    static void insertMark(Connection c, KeyedMark mark) throws SQLException {
        try (PreparedStatement st = c.prepareStatement(
                "INSERT INTO audit_meta (name, value) VALUES ('mark', ?) ON CONFLICT (name) DO NOTHING")) {
            st.setString(1, mark.text());
            st.executeUpdate();
        }
    }

    /**
     * What is wrong with the file's schema, as a clause ("its trigger audit_log_no_delete is missing"),
     * or null. {@code keyless}: a log of the keyless build, which has no audit_meta yet.
     */
    static String problem(Connection c, boolean keyless) throws SQLException {
        String problem = problem(c, keyless, EXPECTED);
        // A log written before roles and only read since (verify, list) has the schema of then.
        if (problem != null && !ChainRows.hasRoleColumns(c) && problem(c, keyless, BEFORE_ROLES) == null) {
            return null;
        }
        return problem;
    }

    private static String problem(Connection c, boolean keyless, Map<String, String> expected) throws SQLException {
        Map<String, String> actual = objects(c);
        for (Map.Entry<String, String> e : expected.entrySet()) {
            if (keyless && e.getKey().endsWith(":audit_meta") || keyless && e.getKey().contains(":audit_meta_")) {
                continue;
            }
            String[] typeName = e.getKey().split(":", 2);
            String found = actual.get(e.getKey());
            if (found == null) {
                return "its " + typeName[0] + " " + typeName[1] + " is missing";
            }
            if (!found.equals(e.getValue())) {
                return "its " + typeName[0] + " " + typeName[1] + " was changed";
            }
        }
        for (String k : actual.keySet()) {
            if (!expected.containsKey(k)) {
                String[] typeName = k.split(":", 2);
                return "it holds a " + typeName[0] + " " + typeName[1] + " SchemaBrain did not create";
            }
        }
        return null;
    }

    private static Map<String, String> objects(Connection c) throws SQLException {
        Map<String, String> out = new TreeMap<>();
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")) {
            while (rs.next()) {
                out.put(rs.getString(1) + ":" + rs.getString(2), normalize(rs.getString(3)));
            }
        }
        return out;
    }

    private static String normalize(String sql) {
        if (sql == null) {
            return "";
        }
        return sql.replaceAll("\\s+", " ").strip().toLowerCase(Locale.ROOT).replace(" if not exists", "");
    }

    private static boolean hasTable(Connection c, String name) throws SQLException {
        return StoreDialect.hasTable(c, name);   // the SQLite file, or a PostgreSQL store's schema
    }

    private static Map<String, String> expected(boolean roles) {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite::memory:")) {
            create(c, roles);
            return objects(c);
        } catch (SQLException e) {
            throw new IllegalStateException("audit.sql does not run", e);
        }
    }

    private static String load() {
        try (InputStream in = AuditSchema.class.getResourceAsStream("audit.sql")) {
            if (in == null) {
                throw new IllegalStateException("audit.sql is missing from the build");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("audit.sql cannot be read", e);
        }
    }
}
