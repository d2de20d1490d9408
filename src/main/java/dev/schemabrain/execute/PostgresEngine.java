package dev.schemabrain.execute;

import dev.schemabrain.error.ExecutionException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.schemabrain.semantic.compile.Dialect;
import dev.schemabrain.source.SourceUrl;
import dev.schemabrain.source.postgres.PostgresSource;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Properties;

/**
 * PostgreSQL: the session is read-only from its startup options (default_transaction_read_only, so
 * even a statement outside our transaction cannot write) and has its own statement_timeout.
 */
final class PostgresEngine implements Engine {

    private final SourceUrl url;

    PostgresEngine(SourceUrl url) {
        this.url = url;
    }

    @Override
    public Dialect dialect() {
        return Dialect.POSTGRESQL;
    }

    @Override
    public Connection openReadOnly(int timeoutMs) throws SQLException {
        Properties props = PostgresSource.credentials(url);
        props.setProperty("connectTimeout", "5");
        props.setProperty("ApplicationName", "schemabrain-executor");
        props.setProperty("readOnly", "true");
        props.setProperty("options", "-c default_transaction_read_only=on -c statement_timeout=" + timeoutMs);
        Connection c = DriverManager.getConnection(PostgresSource.jdbcUrl(url), props);
        c.setReadOnly(true);
        c.setAutoCommit(false);
        return c;
    }

    @Override
    public String begin() {
        return "SET TRANSACTION READ ONLY";
    }

    @Override
    public String explain(String sql) {
        return "EXPLAIN (FORMAT JSON) " + sql;
    }

    @Override
    public QueryExecutor.Explain readExplain(ResultSet rs) throws SQLException {
        return Engine.fromJson(rs, (json, text) -> {
            JsonNode plan = json.path(0).path("Plan");
            return new QueryExecutor.Explain(plan.path("Total Cost").asDouble(), plan.path("Plan Rows").asDouble(), text);
        });
    }

    @Override
    public ExecutionException.Kind classify(SQLException e) {
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        if (state.equals("57014")) {
            return ExecutionException.Kind.STATEMENT_TIMEOUT;
        }
        if (state.equals("53300") || state.equals("53400")) {
            return ExecutionException.Kind.SOURCE_BUSY;   // too many connections, or a per-role limit
        }
        if (state.startsWith("08") || state.startsWith("28") || state.equals("3D000") || state.equals("57P03")) {
            return ExecutionException.Kind.SOURCE_UNAVAILABLE;
        }
        return null;
    }
}
