package dev.schemabrain.engine.postgres;

import dev.schemabrain.engine.LoggedStatement;
import dev.schemabrain.engine.postgres.log.SearchPathSetting;
import dev.schemabrain.error.SourceException;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads {@code pg_stat_statements} for the connected database only: on a shared instance the other
 * databases' (and the platform's monitoring) statements would otherwise dominate. Rows of different roles
 * with the same text are summed; texts the role may not see ({@code <insufficient privilege>}) are skipped.
 */
public final class PgStatStatements {

    private static final String READ = "SELECT s.query, sum(s.calls)::bigint, r.rolname FROM pg_stat_statements s"
            + " LEFT JOIN pg_roles r ON r.oid = s.userid"
            + " WHERE s.dbid = (SELECT oid FROM pg_database WHERE datname = current_database())"
            + " AND s.query IS NOT NULL AND s.query <> '<insufficient privilege>' GROUP BY s.query, r.rolname";

    /**
     * Each role's configured search_path in this database, as a session of it starts: the role-and-database
     * setting, else the role's, else the database's. Roles with none are left out: the server's default is no
     * evidence of where a workload's names live (a connection string may set another).
     */
    private static final String ROLE_PATHS = "SELECT r.rolname, coalesce("
            + " (SELECT c FROM pg_db_role_setting d, unnest(d.setconfig) c WHERE d.setrole = r.oid AND d.setdatabase = db.oid AND c LIKE 'search\\_path=%'),"
            + " (SELECT c FROM pg_db_role_setting d, unnest(d.setconfig) c WHERE d.setrole = r.oid AND d.setdatabase = 0 AND c LIKE 'search\\_path=%'),"
            + " (SELECT c FROM pg_db_role_setting d, unnest(d.setconfig) c WHERE d.setrole = 0 AND d.setdatabase = db.oid AND c LIKE 'search\\_path=%'))"
            + " FROM pg_roles r, pg_database db WHERE db.datname = current_database()";

    private PgStatStatements() {
    }

    /** Every statement of the connected database, with its call count since the last reset. */
    public static List<LoggedStatement> read(Connection c) throws SQLException, SourceException {
        String database = c.getCatalog();
        if (!installed(c)) {
            throw new SourceException(notInstalled(database));
        }
        List<LoggedStatement> out = new ArrayList<>();
        try (PreparedStatement st = c.prepareStatement(READ); ResultSet rs = st.executeQuery()) {
            while (rs.next()) {
                out.add(new LoggedStatement(rs.getString(1), rs.getLong(2), rs.getString(3), null));
            }
        } catch (SQLException e) {
            if ("55000".equals(e.getSQLState())) {
                throw new SourceException(notLoaded(database), e);
            }
            throw e;
        }
        return out;
    }

    /** Why mine-queries could not read the connected database's statements (doctor asks), or empty when it can. */
    public static Optional<String> problem(Connection c) throws SQLException {
        String database = c.getCatalog();
        if (!installed(c)) {
            return Optional.of(notInstalled(database));
        }
        try (PreparedStatement st = c.prepareStatement("SELECT 1 FROM pg_stat_statements LIMIT 1"); ResultSet rs = st.executeQuery()) {
            return Optional.empty();
        } catch (SQLException e) {
            if ("55000".equals(e.getSQLState())) {
                return Optional.of(notLoaded(database));
            }
            throw e;
        }
    }

    private static String notInstalled(String database) {
        return "pg_stat_statements is not installed in database " + database
                + "; add pg_stat_statements to shared_preload_libraries in postgresql.conf, restart the server,"
                + " and run CREATE EXTENSION pg_stat_statements in that database.";
    }

    private static String notLoaded(String database) {
        return "pg_stat_statements is installed in database " + database
                + " but not loaded; add pg_stat_statements to shared_preload_libraries in postgresql.conf"
                + " and restart the server.";
    }

    /** The schemas an unqualified table name is looked up in, in order (the database's and role's defaults). */
    public static List<String> searchPath(Connection c) throws SQLException {
        List<String> out = new ArrayList<>();
        try (PreparedStatement st = c.prepareStatement("SELECT unnest(current_schemas(false))");
             ResultSet rs = st.executeQuery()) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    /** Each role's configured search_path in the connected database (schema names, {@code $user} left as written). */
    public static Map<String, List<String>> rolePaths(Connection c) throws SQLException {
        Map<String, List<String>> out = new HashMap<>();
        try (PreparedStatement st = c.prepareStatement(ROLE_PATHS); ResultSet rs = st.executeQuery()) {
            while (rs.next()) {
                String setting = rs.getString(2);
                if (setting == null) {
                    continue;
                }
                out.put(rs.getString(1), SearchPathSetting.parse(setting.substring(setting.indexOf('=') + 1)));
            }
        }
        return out;
    }

    private static boolean installed(Connection c) throws SQLException {
        try (PreparedStatement st = c.prepareStatement("SELECT 1 FROM pg_extension WHERE extname = 'pg_stat_statements'");
             ResultSet rs = st.executeQuery()) {
            return rs.next();
        }
    }
}
