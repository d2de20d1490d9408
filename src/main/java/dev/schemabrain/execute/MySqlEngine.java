package dev.schemabrain.execute;

import dev.schemabrain.error.ExecutionException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.schemabrain.semantic.compile.Dialect;
import dev.schemabrain.source.SourceUrl;
import dev.schemabrain.source.mysql.MySqlSource;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.Properties;

/**
 * MySQL and MariaDB: the session is made read-only before anything runs, and the statement time limit
 * is the server's own (MariaDB max_statement_time in seconds, MySQL max_execution_time in ms).
 */
final class MySqlEngine implements Engine {

    private final SourceUrl url;

    MySqlEngine(SourceUrl url) {
        this.url = url;
    }

    @Override
    public Dialect dialect() {
        return Dialect.MYSQL;
    }

    @Override
    public Connection openReadOnly(int timeoutMs) throws SQLException {
        Properties props = MySqlSource.credentials(url);
        props.setProperty("connectTimeout", "5000");
        // The driver's default emulates parameters by escaping values into the SQL text; server-side prepared
        // statements make MariaDB/MySQL bind them, so no value is ever parsed as SQL whatever the sql_mode.
        props.setProperty("useServerPrepStmts", "true");
        Connection c = DriverManager.getConnection(MySqlSource.jdbcUrl(url), props);
        try (Statement st = c.createStatement()) {
            st.execute("SET SESSION TRANSACTION READ ONLY");
            boolean mariadb = c.getMetaData().getDatabaseProductVersion().toLowerCase(Locale.ROOT).contains("mariadb");
            st.execute(mariadb ? "SET SESSION max_statement_time = " + Math.max(0.001, timeoutMs / 1000.0)
                    : "SET SESSION max_execution_time = " + timeoutMs);
        } catch (SQLException e) {
            c.close();
            throw e;
        }
        c.setReadOnly(true);
        c.setAutoCommit(false);
        return c;
    }

    @Override
    public String begin() {
        return "START TRANSACTION READ ONLY";
    }

    @Override
    public String explain(String sql) {
        return "EXPLAIN FORMAT=JSON " + sql;
    }

    /** MySQL reports query_cost; MariaDB 10 reports no cost, only rows per table. */
    @Override
    public QueryExecutor.Explain readExplain(ResultSet rs) throws SQLException {
        return Engine.fromJson(rs, (json, text) -> {
            JsonNode block = json.path("query_block");
            JsonNode cost = block.path("cost_info").path("query_cost");
            Double total = null;
            if (!cost.isMissingNode()) {
                total = cost.asDouble();
            } else if (block.has("cost")) {
                total = block.get("cost").asDouble();
            }
            double rows = block.findValues("rows").stream().mapToDouble(JsonNode::asDouble).max().orElse(Double.NaN);
            return new QueryExecutor.Explain(total, Double.isNaN(rows) ? null : rows, text);
        });
    }

    @Override
    public ExecutionException.Kind classify(SQLException e) {
        int code = e.getErrorCode();
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        if (code == 1969 || code == 3024 || code == 1317) {
            return ExecutionException.Kind.STATEMENT_TIMEOUT;
        }
        if (code == 1040 || code == 1203) {
            return ExecutionException.Kind.SOURCE_BUSY;   // too many connections, or too many for this user
        }
        if (state.startsWith("08") || code == 1045 || code == 1049 || code == 2002 || code == 2003 || code == 2013) {
            return ExecutionException.Kind.SOURCE_UNAVAILABLE;
        }
        return null;
    }
}
