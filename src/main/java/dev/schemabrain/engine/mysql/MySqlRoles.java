package dev.schemabrain.engine.mysql;

import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.engine.Engines;
import dev.schemabrain.engine.RoleCheck;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The connected account's privileges that change data or schema (global, per database, per table, from
 * information_schema, which shows an account its own grants), and the GRANTs of a read-only account over
 * the source's databases (MySQL and MariaDB alike).
 */
public final class MySqlRoles {

    static final String ACCOUNT = "'schemabrain_reader'@'%'";
    private static final String WRITE_PRIVILEGES = "('INSERT', 'UPDATE', 'DELETE', 'CREATE', 'DROP', 'ALTER', 'INDEX',"
            + " 'CREATE VIEW', 'TRIGGER', 'CREATE ROUTINE', 'ALTER ROUTINE', 'EVENT', 'SUPER', 'FILE', 'CREATE USER',"
            + " 'GRANT OPTION', 'LOCK TABLES', 'CREATE TEMPORARY TABLES')";
    /** information_schema's GRANTEE for the current account: 'user'@'host'. */
    static final String ME = "CONCAT('''', SUBSTRING_INDEX(CURRENT_USER(), '@', 1), '''@''',"
            + " SUBSTRING_INDEX(CURRENT_USER(), '@', -1), '''')";

    private static final String WRITABLE = "SELECT CONCAT(PRIVILEGE_TYPE, ' on *.*') FROM information_schema.USER_PRIVILEGES"
            + " WHERE GRANTEE = " + ME + " AND PRIVILEGE_TYPE IN " + WRITE_PRIVILEGES
            + " UNION ALL SELECT CONCAT(PRIVILEGE_TYPE, ' on ', TABLE_SCHEMA, '.*') FROM information_schema.SCHEMA_PRIVILEGES"
            + " WHERE GRANTEE = " + ME + " AND PRIVILEGE_TYPE IN " + WRITE_PRIVILEGES
            + " UNION ALL SELECT CONCAT(PRIVILEGE_TYPE, ' on ', TABLE_SCHEMA, '.', TABLE_NAME) FROM information_schema.TABLE_PRIVILEGES"
            + " WHERE GRANTEE = " + ME + " AND PRIVILEGE_TYPE IN " + WRITE_PRIVILEGES;

    private MySqlRoles() {
    }

    /** @param databases the source's databases (the URL's, or every non-system one) */
    public static RoleCheck check(Connection c, List<String> databases) throws SQLException {
        List<String> grants = new ArrayList<>();
        grants.add("CREATE USER " + ACCOUNT + " IDENTIFIED BY 'choose-a-password';");
        for (String database : databases) {
            grants.add("GRANT SELECT, SHOW VIEW ON `" + database.replace("`", "``") + "`.* TO " + ACCOUNT + ";");
        }
        // mine-queries reads the statement digests.
        grants.add("GRANT SELECT ON performance_schema.events_statements_summary_by_digest TO " + ACCOUNT + ";");
        try (PreparedStatement st = c.prepareStatement(WRITABLE); ResultSet rs = st.executeQuery()) {
            return RoleCheck.of(rs, grants);
        }
    }

    /**
     * The sentence for base tables whose keys the account could not see: information_schema showed none and SHOW
     * CREATE TABLE was refused, which happens where it holds SELECT on some columns only. The first table's GRANT
     * is spelled out to run.
     */
    static String unreadKeys(Connection c, List<QualifiedName> tables) throws SQLException {
        String me;
        try (PreparedStatement st = c.prepareStatement("SELECT " + ME); ResultSet rs = st.executeQuery()) {
            me = rs.next() ? rs.getString(1) : "the account";
        }
        int shown = Math.min(3, tables.size());
        String names = String.join(", ", tables.subList(0, shown).stream().map(QualifiedName::toString).toList())
                + (tables.size() > shown ? " and " + (tables.size() - shown) + " more" : "");
        boolean one = tables.size() == 1;
        return "the keys of " + tables.size() + (one ? " table (" : " tables (") + names + ") could not be read, so no"
                + " join is drafted from " + (one ? "it: " : "them: ") + me + " holds SELECT on some of " + (one ? "its" : "their")
                + " columns only, which hides " + (one ? "its" : "their") + " keys from information_schema and refuses SHOW"
                + " CREATE TABLE; as an administrator run GRANT SELECT ON " + Engines.MYSQL.qualified(tables.get(0)) + " TO "
                + me + ";" + (one ? "" : " and likewise for the others,") + " or index with an account that holds it.";
    }

    /** The databases an account sees, system ones left out. */
    public static List<String> userDatabases(Connection c) throws SQLException {
        List<String> out = new ArrayList<>();
        try (PreparedStatement st = c.prepareStatement("SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME"
                + " NOT IN ('mysql', 'information_schema', 'performance_schema', 'sys') ORDER BY 1");
             ResultSet rs = st.executeQuery()) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }
}
