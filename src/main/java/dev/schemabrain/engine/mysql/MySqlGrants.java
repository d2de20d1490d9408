package dev.schemabrain.engine.mysql;

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
import java.util.regex.Pattern;

/**
 * MySQL and MariaDB column privileges: {@code GRANT SELECT (`a`, `b`) ON `db`.`t` TO 'user'@'host'}. A table-level
 * REVOKE takes the table's column privileges with it, but fails (error 1147) where the account holds none there.
 */
final class MySqlGrants implements ColumnGrants {

    /** Account names are written in single quotes below, so neither part may hold a quote or a backslash. */
    private static final Pattern USER = Pattern.compile("[A-Za-z0-9_$.-]{1,80}");
    private static final Pattern HOST = Pattern.compile("[A-Za-z0-9_.%:-]{1,255}");

    private static final String POWERS = "SELECT CASE PRIVILEGE_TYPE WHEN 'SUPER' THEN 'SUPER (superuser)' ELSE 'FILE (reads the server''s"
            + " files)' END, CONCAT('REVOKE ', PRIVILEGE_TYPE, ' ON *.* FROM ', " + MySqlRoles.ME + ", ';')"
            + " FROM information_schema.USER_PRIVILEGES WHERE GRANTEE = " + MySqlRoles.ME
            + " AND PRIVILEGE_TYPE IN ('SUPER', 'FILE') ORDER BY 1";

    private static final String BROAD_READS = "SELECT 'SELECT on *.*', CONCAT('REVOKE SELECT ON *.* FROM ', " + MySqlRoles.ME
            + ", ';') FROM information_schema.USER_PRIVILEGES WHERE GRANTEE = " + MySqlRoles.ME + " AND PRIVILEGE_TYPE = 'SELECT'"
            + " UNION ALL SELECT CONCAT('SELECT on ', TABLE_SCHEMA, '.*'), CONCAT('REVOKE SELECT ON `',"
            + " REPLACE(TABLE_SCHEMA, '`', '``'), '`.* FROM ', " + MySqlRoles.ME + ", ';')"
            + " FROM information_schema.SCHEMA_PRIVILEGES WHERE GRANTEE = " + MySqlRoles.ME + " AND PRIVILEGE_TYPE = 'SELECT'";

    private final Dialect dialect;

    MySqlGrants(Dialect dialect) {
        this.dialect = dialect;
    }

    /** {@code NAME} is the account {@code 'NAME'@'%'}; {@code NAME@HOST} names the host too. */
    @Override
    public String grantee(String role) {
        int at = role == null ? -1 : role.lastIndexOf('@');
        String user = at < 0 ? role : role.substring(0, at);
        String host = at < 0 ? "%" : role.substring(at + 1);
        if (user == null || !USER.matcher(user).matches() || !HOST.matcher(host).matches()) {
            throw new IllegalArgumentException("the account must be NAME or NAME@HOST, NAME of letters, digits or _ $ . -"
                    + " and HOST of letters, digits or _ . % : -");
        }
        return "'" + user + "'@'" + host + "'";
    }

    @Override
    public List<String> statements(String grantee, List<QualifiedName> revoked, List<TableColumns> granted) {
        List<String> out = new ArrayList<>();
        for (QualifiedName t : revoked) {
            out.add("REVOKE SELECT ON " + dialect.qualified(t) + " FROM " + grantee + ";");
        }
        for (TableColumns g : granted) {
            out.add("GRANT SELECT (" + String.join(", ", g.columns().stream().map(dialect::quote).toList()) + ") ON "
                    + dialect.qualified(g.table()) + " TO " + grantee + ";");
        }
        return out;
    }

    @Override
    public List<String> notes() {
        return List.of("A REVOKE of a grant the account does not hold fails with error 1147 (There is no such grant);"
                        + " skip it (--apply does).",
                "A SELECT on a whole database (db.*) or on *.* still reaches every column: doctor names it.");
    }

    @Override
    public boolean nothingToRevoke(SQLException e) {
        return e.getErrorCode() == 1147 || e.getErrorCode() == 1141;
    }

    @Override
    public Connection admin(SourceUrl url) throws SQLException {
        Properties props = url.credentials();
        props.setProperty("connectTimeout", Integer.toString(Purpose.introspection().connectTimeoutSeconds() * 1000));
        props.setProperty("connectionAttributes", "program_name:" + Purpose.APPLICATION_NAME + "-grants");
        return DriverManager.getConnection(MySqlEngine.jdbcUrl(url), props);
    }

    @Override
    public List<Power> powers(Connection c) throws SQLException {
        return read(c, POWERS);
    }

    @Override
    public List<Power> broadReads(Connection c) throws SQLException {
        return read(c, BROAD_READS);
    }

    private static List<Power> read(Connection c, String sql) throws SQLException {
        List<Power> out = new ArrayList<>();
        try (PreparedStatement st = c.prepareStatement(sql); ResultSet rs = st.executeQuery()) {
            while (rs.next()) {
                out.add(new Power(rs.getString(1), rs.getString(2)));
            }
        }
        return out;
    }

    /** 1142: no privilege on the table; 1143: none on the column; 1044: none on the database. */
    @Override
    public boolean denied(SQLException e) {
        int code = e.getErrorCode();
        return code == 1142 || code == 1143 || code == 1044;
    }
}
