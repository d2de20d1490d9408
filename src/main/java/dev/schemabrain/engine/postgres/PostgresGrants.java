package dev.schemabrain.engine.postgres;

import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.engine.ColumnGrants;
import dev.schemabrain.engine.Dialect;
import dev.schemabrain.engine.Purpose;
import dev.schemabrain.engine.SourceUrl;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * PostgreSQL column privileges: {@code GRANT SELECT (a, b) ON s.t TO role}. A table-level REVOKE takes the column
 * privileges of that table with it, so each run starts from nothing on the tables it names.
 */
final class PostgresGrants implements ColumnGrants {

    /** A role name as people create them; quoted anyway, so this only keeps out what no role is named. */
    private static final Pattern ROLE = Pattern.compile("[A-Za-z0-9_$.@-]{1,63}");

    /**
     * Superuser reads every column; pg_read_server_files and pg_execute_server_program read the data files around any
     * privilege, pg_write_server_files can plant what the others read. A superuser is a member of all of them, so only
     * "superuser" is said for one.
     */
    private static final String POWERS = """
            SELECT 'superuser', 'ALTER ROLE ' || quote_ident(current_user) || ' NOSUPERUSER;'
              FROM pg_roles WHERE rolname = current_user AND rolsuper
            UNION ALL
            SELECT * FROM (SELECT 'member of ' || r.rolname, 'REVOKE ' || r.rolname || ' FROM ' || quote_ident(current_user) || ';'
              FROM pg_roles r
              WHERE r.rolname IN ('pg_read_server_files', 'pg_write_server_files', 'pg_execute_server_program')
                AND pg_has_role(current_user, r.oid, 'MEMBER')
                AND NOT EXISTS (SELECT 1 FROM pg_roles s WHERE s.rolname = current_user AND s.rolsuper)
              ORDER BY 1) m""";

    /** pg_read_all_data (PostgreSQL 14 and later) is SELECT on every table; a superuser's is said as superuser. */
    private static final String BROAD_READS = """
            SELECT 'member of ' || r.rolname, 'REVOKE ' || r.rolname || ' FROM ' || quote_ident(current_user) || ';'
              FROM pg_roles r
              WHERE r.rolname = 'pg_read_all_data' AND pg_has_role(current_user, r.oid, 'MEMBER')
                AND NOT EXISTS (SELECT 1 FROM pg_roles s WHERE s.rolname = current_user AND s.rolsuper)""";

    private final Dialect dialect;

    PostgresGrants(Dialect dialect) {
        this.dialect = dialect;
    }

    @Override
    public String grantee(String role) {
        if (role == null || !ROLE.matcher(role).matches()) {
            throw new IllegalArgumentException("the role name must be 1 to 63 letters, digits or _ $ . @ -");
        }
        return dialect.quote(role);
    }

    @Override
    public List<String> statements(String grantee, List<QualifiedName> revoked, List<TableColumns> granted) {
        List<String> out = new ArrayList<>();
        for (QualifiedName t : revoked) {
            out.add("REVOKE SELECT ON " + dialect.qualified(t) + " FROM " + grantee + ";");
        }
        // Column privileges reach nothing without USAGE on the table's schema.
        TreeSet<String> schemas = new TreeSet<>();
        granted.forEach(g -> schemas.add(g.table().schema()));
        for (String schema : schemas) {
            out.add("GRANT USAGE ON SCHEMA " + dialect.quote(schema) + " TO " + grantee + ";");
        }
        for (TableColumns g : granted) {
            out.add("GRANT SELECT (" + String.join(", ", g.columns().stream().map(dialect::quote).toList()) + ") ON "
                    + dialect.qualified(g.table()) + " TO " + grantee + ";");
        }
        return out;
    }

    @Override
    public List<String> notes() {
        return List.of("A SELECT granted to PUBLIC, or to a role this one is a member of, still reaches every column:"
                + " doctor tries a blocked column to find it.");
    }

    @Override
    public Connection admin(SourceUrl url) throws SQLException {
        Properties props = url.credentials();
        props.setProperty("connectTimeout", Integer.toString(Purpose.introspection().connectTimeoutSeconds()));
        props.setProperty("ApplicationName", Purpose.APPLICATION_NAME + "-grants");
        return DriverManager.getConnection(PostgresEngine.jdbcUrl(url), props);
    }

    @Override
    public List<Power> powers(Connection c) throws SQLException {
        return read(c, POWERS);
    }

    @Override
    public List<Power> broadReads(Connection c) throws SQLException {
        return read(c, BROAD_READS);
    }

    /** The rows of {@code sql}: what, then the statement that takes it away. */
    static List<Power> read(Connection c, String sql) throws SQLException {
        List<Power> out = new ArrayList<>();
        try (PreparedStatement st = c.prepareStatement(sql); ResultSet rs = st.executeQuery()) {
            while (rs.next()) {
                out.add(new Power(rs.getString(1), rs.getString(2)));
            }
        }
        return out;
    }

    @Override
    public boolean denied(SQLException e) {
        return "42501".equals(e.getSQLState());
    }
}
