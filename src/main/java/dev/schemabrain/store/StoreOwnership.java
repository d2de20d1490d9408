package dev.schemabrain.store;

import dev.schemabrain.error.StoreException;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The PostgreSQL counterpart of a SQLite store's file modes ({@link SqliteStore#checkPrivate}): only the role that
 * owns the store's schema may change what is served. Another role that can write its tables could insert a token,
 * untag a PII column or loosen a policy, and a running server would act on it. Checked: table and function
 * ownership, CREATE on the schema, membership in the owner role, write privileges (INSERT, UPDATE, DELETE,
 * TRUNCATE, TRIGGER, on tables or columns, and the owner's default privileges for future tables) held by anyone but
 * the owner, except the serving role's documented
 * appends to the audit chain. Superusers can write anything and cannot be revoked: they are not reported.
 */
public final class StoreOwnership {

    /** What docs/deployment.md grants a serving role: appends to the chain, its witness row moving forward. */
    private static final Map<String, Set<String>> SERVING_GRANTS = Map.of(
            "audit_log", Set.of("INSERT"),
            "audit_meta", Set.of("INSERT"),
            "audit_witness", Set.of("INSERT", "UPDATE"));

    private StoreOwnership() {
    }

    /** Refuses the store when anyone but its owner can change it, naming the statements that close it. */
    public static void check(Store store) throws StoreException {
        if (!(store.location() instanceof StoreLocation.PostgresSchema schema)) {
            return;
        }
        Optional<String> problem = store.read(c -> problem(c, schema.schema()));
        if (problem.isPresent()) {
            throw new StoreException("Refusing " + store.describe() + ": " + problem.get());
        }
    }

    /** Why the schema is not its owner's alone, with the statements to run as the owner; empty when it is (or does not exist). */
    static Optional<String> problem(Connection c, String schema) throws SQLException {
        String owner = owner(c, schema);
        if (owner == null) {
            return Optional.empty();
        }
        List<String> fixes = new ArrayList<>();
        List<String> who = new ArrayList<>();
        for (String[] r : rows(c, """
                SELECT c.relname, pg_get_userbyid(c.relowner),
                       CASE c.relkind WHEN 'S' THEN 'SEQUENCE' WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW' ELSE 'TABLE' END
                  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                 WHERE n.nspname = ? AND c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f') AND c.relowner <> n.nspowner
                 ORDER BY 1""", schema)) {
            who.add(r[1] + " owns " + r[0]);
            fixes.add("ALTER " + r[2] + " " + q(schema) + "." + q(r[0]) + " OWNER TO " + q(owner));
        }
        for (String[] r : rows(c, """
                SELECT p.oid::regprocedure::text, pg_get_userbyid(p.proowner)
                  FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
                 WHERE n.nspname = ? AND p.proowner <> n.nspowner ORDER BY 1""", schema)) {
            who.add(r[1] + " owns function " + r[0]);
            fixes.add("ALTER FUNCTION " + r[0] + " OWNER TO " + q(owner));
        }
        for (String[] r : rows(c, """
                SELECT grantee_name FROM (
                  SELECT CASE WHEN a.grantee = 0 THEN 'PUBLIC' ELSE pg_get_userbyid(a.grantee) END AS grantee_name, a.grantee
                    FROM pg_namespace n, LATERAL aclexplode(n.nspacl) a
                   WHERE n.nspname = ? AND a.privilege_type = 'CREATE' AND a.grantee <> n.nspowner) g
                 WHERE g.grantee = 0 OR NOT (SELECT rolsuper FROM pg_roles WHERE oid = g.grantee) ORDER BY 1""", schema)) {
            who.add(r[0] + " can create objects in the schema");
            fixes.add("REVOKE CREATE ON SCHEMA " + q(schema) + " FROM " + grantee(r[0]));
        }
        for (String[] r : rows(c, """
                SELECT m.rolname FROM pg_roles m, pg_namespace n
                 WHERE n.nspname = ? AND m.oid <> n.nspowner AND NOT m.rolsuper AND pg_has_role(m.oid, n.nspowner, 'MEMBER')
                 ORDER BY 1""", schema)) {
            who.add(r[0] + " is a member of " + owner);
            fixes.add("REVOKE " + q(owner) + " FROM " + q(r[0]));
        }
        for (String[] r : rows(c, """
                SELECT CASE WHEN a.grantee = 0 THEN 'PUBLIC' ELSE pg_get_userbyid(a.grantee) END,
                       string_agg(DISTINCT a.privilege_type, ', ' ORDER BY a.privilege_type), d.defaclnamespace = 0
                  FROM pg_default_acl d JOIN pg_namespace n ON n.nspname = ? AND d.defaclrole = n.nspowner
                       AND d.defaclnamespace IN (0, n.oid), LATERAL aclexplode(d.defaclacl) a
                 WHERE d.defaclobjtype = 'r' AND a.grantee <> n.nspowner
                   AND a.privilege_type IN ('INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'TRIGGER')
                   AND (a.grantee = 0 OR NOT (SELECT rolsuper FROM pg_roles WHERE oid = a.grantee))
                 GROUP BY 1, 3 ORDER BY 1""", schema)) {
            // Not a write yet, but the next migration's tables would be born writable by this role.
            who.add(r[0] + " is granted " + r[1] + " on the owner's future tables");
            fixes.add("ALTER DEFAULT PRIVILEGES FOR ROLE " + q(owner) + ("t".equals(r[2]) ? "" : " IN SCHEMA " + q(schema))
                    + " REVOKE " + r[1] + " ON TABLES FROM " + grantee(r[0]));
        }
        Set<String> serving = new TreeSet<>();
        Map<String, Map<String, Set<String>>> writes = writes(c, schema, serving);
        writes.forEach((role, tables) -> {
            Set<String> privileges = new TreeSet<>();
            tables.values().forEach(privileges::addAll);
            // ALL TABLES would also take a serving role's audit appends; name the tables for such a role.
            boolean all = tables.size() > 3 && !serving.contains(role);
            who.add(role + " can " + String.join(", ", privileges) + " on "
                    + (all ? tables.size() + " tables" : String.join(", ", tables.keySet())));
            String on = all ? "ALL TABLES IN SCHEMA " + q(schema)
                    : tables.keySet().stream().map(t -> q(schema) + "." + q(t)).reduce((a, b) -> a + ", " + b).orElseThrow();
            fixes.add("REVOKE " + String.join(", ", privileges) + " ON " + on + " FROM " + grantee(role));
        });
        if (who.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("roles other than its owner " + owner + " can change it (" + String.join("; ", who)
                + "), so a token, a PII tag or a policy could be planted; as " + owner + " or a superuser run "
                + String.join("; ", fixes) + ".");
    }

    /**
     * role → table → write privileges beyond the serving grants, from table and column ACLs; {@code serving}
     * receives the roles that hold some of the serving grants.
     */
    private static Map<String, Map<String, Set<String>>> writes(Connection c, String schema, Set<String> serving)
            throws SQLException {
        Map<String, Map<String, Set<String>>> out = new TreeMap<>();
        for (String[] r : rows(c, """
                SELECT g.relname, g.grantee_name, g.privilege_type FROM (
                  SELECT c.relname, a.grantee, a.privilege_type, c.relowner,
                         CASE WHEN a.grantee = 0 THEN 'PUBLIC' ELSE pg_get_userbyid(a.grantee) END AS grantee_name
                    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace, LATERAL aclexplode(c.relacl) a
                   WHERE n.nspname = ? AND c.relkind IN ('r', 'p', 'v', 'f')
                  UNION ALL
                  SELECT c.relname, a.grantee, a.privilege_type, c.relowner,
                         CASE WHEN a.grantee = 0 THEN 'PUBLIC' ELSE pg_get_userbyid(a.grantee) END
                    FROM pg_attribute t JOIN pg_class c ON c.oid = t.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace,
                         LATERAL aclexplode(t.attacl) a
                   WHERE n.nspname = ? AND t.attacl IS NOT NULL) g
                 WHERE g.privilege_type IN ('INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'TRIGGER') AND g.grantee <> g.relowner
                   AND (g.grantee = 0 OR NOT (SELECT rolsuper FROM pg_roles WHERE oid = g.grantee))""", schema, schema)) {
            if (SERVING_GRANTS.getOrDefault(r[0], Set.of()).contains(r[2])) {
                serving.add(r[1]);
                continue;
            }
            out.computeIfAbsent(r[1], k -> new TreeMap<>()).computeIfAbsent(r[0], k -> new TreeSet<>()).add(r[2]);
        }
        return out;
    }

    private static String owner(Connection c, String schema) throws SQLException {
        List<String[]> r = rows(c, "SELECT pg_get_userbyid(nspowner) FROM pg_namespace WHERE nspname = ?", schema);
        return r.isEmpty() ? null : r.get(0)[0];
    }

    private static List<String[]> rows(Connection c, String sql, String... args) throws SQLException {
        List<String[]> out = new ArrayList<>();
        try (PreparedStatement st = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                st.setString(i + 1, args[i]);
            }
            try (ResultSet rs = st.executeQuery()) {
                int n = rs.getMetaData().getColumnCount();
                while (rs.next()) {
                    String[] row = new String[n];
                    for (int i = 0; i < n; i++) {
                        row[i] = rs.getString(i + 1);
                    }
                    out.add(row);
                }
            }
        }
        return out;
    }

    private static String grantee(String role) {
        return role.equals("PUBLIC") ? "PUBLIC" : q(role);
    }

    /** An identifier as the statement needs it: bare when PostgreSQL would fold it to itself, else quoted. */
    private static String q(String name) {
        return name.matches("[a-z_][a-z0-9_$]*") ? name : "\"" + name.replace("\"", "\"\"") + "\"";
    }
}
