package dev.schemabrain.engine.postgres;

import dev.schemabrain.engine.RoleCheck;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The connected role's write privileges in the current database (superuser, table INSERT/UPDATE/DELETE/TRUNCATE,
 * CREATE on a schema or the database), and the GRANTs of a read-only role over the same schemas. The session
 * SchemaBrain opens is read-only either way; a role that can write could still turn that off.
 */
public final class PostgresRoles {

    static final String ROLE = "schemabrain_reader";

    private static final String WRITABLE = """
            SELECT 'superuser' FROM pg_roles WHERE rolname = current_user AND rolsuper
            UNION ALL
            SELECT 'CREATE on database ' || quote_ident(current_database()) WHERE has_database_privilege(current_database(), 'CREATE')
            UNION ALL
            SELECT * FROM (SELECT 'CREATE on schema ' || quote_ident(n.nspname) FROM pg_namespace n
              WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%'
                AND has_schema_privilege(n.oid, 'CREATE') ORDER BY 1) s
            UNION ALL
            SELECT * FROM (SELECT string_agg(p.priv, '/' ORDER BY p.priv) || ' on ' || quote_ident(n.nspname) || '.' || quote_ident(c.relname)
              FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
              CROSS JOIN (VALUES ('INSERT'), ('UPDATE'), ('DELETE'), ('TRUNCATE')) p(priv)
              WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f') AND n.nspname NOT IN ('pg_catalog', 'information_schema')
                AND n.nspname NOT LIKE 'pg\\_%' AND has_table_privilege(c.oid, p.priv)
              GROUP BY n.nspname, c.relname ORDER BY 1) t""";

    private static final String SCHEMAS = """
            SELECT DISTINCT n.nspname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f') AND n.nspname NOT IN ('pg_catalog', 'information_schema')
              AND n.nspname NOT LIKE 'pg\\_%' ORDER BY 1""";

    /**
     * What PUBLIC (every role, so the new one too) may change: a read-only role's grants alone leave it able to do
     * this, so the advice revokes it. The has_*_privilege functions take 'public' for the PUBLIC pseudo-role.
     */
    private static final String PUBLIC_WRITES = """
            SELECT 'REVOKE CREATE ON DATABASE ' || quote_ident(current_database()) || ' FROM PUBLIC;'
              WHERE has_database_privilege('public', current_database(), 'CREATE')
            UNION ALL
            SELECT * FROM (SELECT 'REVOKE CREATE ON SCHEMA ' || quote_ident(n.nspname) || ' FROM PUBLIC;' FROM pg_namespace n
              WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%'
                AND has_schema_privilege('public', n.oid, 'CREATE') ORDER BY 1) s
            UNION ALL
            SELECT * FROM (SELECT 'REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON ' || quote_ident(n.nspname) || '.'
                || quote_ident(c.relname) || ' FROM PUBLIC;'
              FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
              WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f') AND n.nspname NOT IN ('pg_catalog', 'information_schema')
                AND n.nspname NOT LIKE 'pg\\_%' AND (has_table_privilege('public', c.oid, 'INSERT')
                  OR has_table_privilege('public', c.oid, 'UPDATE') OR has_table_privilege('public', c.oid, 'DELETE')
                  OR has_table_privilege('public', c.oid, 'TRUNCATE'))
              ORDER BY 1) t""";

    private PostgresRoles() {
    }

    public static RoleCheck check(Connection c) throws SQLException {
        List<String> grants = grants(c);
        try (PreparedStatement st = c.prepareStatement(WRITABLE); ResultSet rs = st.executeQuery()) {
            return RoleCheck.of(rs, grants);
        }
    }

    private static List<String> grants(Connection c) throws SQLException {
        String database;
        List<String> schemas = new ArrayList<>();
        try (PreparedStatement st = c.prepareStatement("SELECT quote_ident(current_database())"); ResultSet rs = st.executeQuery()) {
            rs.next();
            database = rs.getString(1);
        }
        try (PreparedStatement st = c.prepareStatement("SELECT quote_ident(nspname) FROM (" + SCHEMAS + ") s");
             ResultSet rs = st.executeQuery()) {
            while (rs.next()) {
                schemas.add(rs.getString(1));
            }
        }
        List<String> out = new ArrayList<>();
        out.add("CREATE ROLE " + ROLE + " LOGIN PASSWORD 'choose-a-password';");
        out.add("GRANT CONNECT ON DATABASE " + database + " TO " + ROLE + ";");
        for (String schema : schemas) {
            out.add("GRANT USAGE ON SCHEMA " + schema + " TO " + ROLE + ";");
            out.add("GRANT SELECT ON ALL TABLES IN SCHEMA " + schema + " TO " + ROLE + ";");
            out.add("ALTER DEFAULT PRIVILEGES IN SCHEMA " + schema + " GRANT SELECT ON TABLES TO " + ROLE + ";");
        }
        // mine-queries reads every role's statements in pg_stat_statements only with this role.
        out.add("GRANT pg_read_all_stats TO " + ROLE + ";");
        List<String> revokes = new ArrayList<>();
        try (PreparedStatement st = c.prepareStatement(PUBLIC_WRITES); ResultSet rs = st.executeQuery()) {
            while (rs.next()) {
                revokes.add(rs.getString(1));
            }
        }
        if (!revokes.isEmpty()) {
            out.add("-- PUBLIC lets every role write here, the new one too; this takes it from all roles, so grant it back"
                    + " by name to roles that need it:");
            out.addAll(revokes);
        }
        return out;
    }
}
