package dev.schemabrain.engine;

import dev.schemabrain.error.SourceException;
import dev.schemabrain.error.UserError;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** An engine's statement statistics, as mine-queries reads them and doctor checks them. */
public interface QueryLog {

    /**
     * What the engine reported.
     *
     * @param searchPath the path of statements run by no known role or database
     * @param rolePaths  each role's configured search path
     * @param resetToken moves when every counter was reset
     */
    record Read(List<LoggedStatement> statements, List<String> searchPath, Map<String, List<String>> rolePaths,
                Optional<String> resetToken) {
    }

    /** The statements, where {@code schemas} are the schemas the catalog indexed. */
    Read read(Connection c, SourceUrl url, Set<String> schemas) throws SQLException, SourceException;

    /** Each role's configured search path (for statements read from elsewhere, such as a server log). */
    default Map<String, List<String>> rolePaths(Connection c) throws SQLException {
        return Map.of();
    }

    /** Whether statements can also come from the server's own log files (mine-queries --log-file). */
    default boolean readsServerLog() {
        return false;
    }

    /**
     * The server log files {@code patterns} name (paths, or globs in the file name), their lines prefixed as
     * {@code prefix} says where the format needs it; only where {@link #readsServerLog}.
     */
    default LogFiles readLogFiles(List<String> patterns, String prefix) throws UserError {
        throw new UnsupportedOperationException("this engine reads no server log");
    }

    /** Why the statistics cannot be read, if they cannot. */
    Optional<String> problem(Connection c) throws SQLException;

    /** The statistics' name, for doctor ("pg_stat_statements"). */
    String name();

    /** The grant that lets a role read them, for a refused read. */
    String grantHint();

    /** What doctor suggests when they cannot be read: another way in, or nothing. */
    default String instead() {
        return "";
    }
}
