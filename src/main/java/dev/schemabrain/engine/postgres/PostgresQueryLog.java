package dev.schemabrain.engine.postgres;

import dev.schemabrain.engine.LogFiles;
import dev.schemabrain.engine.QueryLog;
import dev.schemabrain.engine.postgres.log.ServerLog;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.error.SourceException;
import dev.schemabrain.error.UserError;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** pg_stat_statements, or the server's own log files: every statement carries its role. */
final class PostgresQueryLog implements QueryLog {

    /** No path of SchemaBrain's own session stands in for the statements' own roles. */
    @Override
    public Read read(Connection c, SourceUrl url, Set<String> schemas) throws SQLException, SourceException {
        return new Read(PgStatStatements.read(c), List.of(), PgStatStatements.rolePaths(c), resetToken(c));
    }

    @Override
    public Map<String, List<String>> rolePaths(Connection c) throws SQLException {
        return PgStatStatements.rolePaths(c);
    }

    @Override
    public boolean readsServerLog() {
        return true;
    }

    @Override
    public LogFiles readLogFiles(List<String> patterns, String prefix) throws UserError {
        return ServerLog.read(patterns, prefix);
    }

    @Override
    public Optional<String> problem(Connection c) throws SQLException {
        return PgStatStatements.problem(c);
    }

    @Override
    public String name() {
        return "pg_stat_statements";
    }

    @Override
    public String grantHint() {
        return "grant the user read access to the statement statistics (PostgreSQL: pg_read_all_stats)";
    }

    /** The server log is the other way in, and needs no extension. */
    @Override
    public String instead() {
        return " Without it, mine-queries --log-file PATH reads the server's own statement log instead.";
    }

    /** pg_stat_statements_info.stats_reset (PostgreSQL 14+): moves when every counter was reset. */
    private static Optional<String> resetToken(Connection c) {
        try (PreparedStatement st = c.prepareStatement("SELECT stats_reset::text FROM pg_stat_statements_info");
             ResultSet rs = st.executeQuery()) {
            return rs.next() ? Optional.ofNullable(rs.getString(1)) : Optional.empty();
        } catch (SQLException e) {
            return Optional.empty();   // older server: a counter that went down still shows the reset
        }
    }
}
