package dev.schemabrain.execute;

import dev.schemabrain.error.ExecutionException;
import dev.schemabrain.semantic.compile.Dialect;
import dev.schemabrain.source.sqlite.SqliteSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** SQLite: the file is opened read-only; a long statement is interrupted by the executor's watchdog. */
final class SqliteEngine implements Engine {

    private final Path path;

    SqliteEngine(Path path) {
        this.path = path;
    }

    @Override
    public Dialect dialect() {
        return Dialect.SQLITE;
    }

    @Override
    public Connection openReadOnly(int timeoutMs) throws SQLException {
        if (!Files.isRegularFile(path)) {
            throw new SQLException("the SQLite file " + path + " does not exist", "08001");
        }
        return SqliteSource.open(path);
    }

    /** The connection itself is read-only; no transaction is needed to keep it so. */
    @Override
    public String begin() {
        return null;
    }

    @Override
    public String explain(String sql) {
        return "EXPLAIN QUERY PLAN " + sql;
    }

    @Override
    public QueryExecutor.Explain readExplain(ResultSet rs) throws SQLException {
        List<String> steps = new ArrayList<>();
        while (rs.next()) {
            steps.add(rs.getString("detail"));
        }
        return new QueryExecutor.Explain(null, null, String.join("\n", steps));
    }

    @Override
    public ExecutionException.Kind classify(SQLException e) {
        String message = String.valueOf(e.getMessage()).toLowerCase(java.util.Locale.ROOT);
        if (message.contains("interrupted")) {
            return ExecutionException.Kind.STATEMENT_TIMEOUT;
        }
        if ("08001".equals(e.getSQLState()) || message.contains("unable to open") || message.contains("not a database")) {
            return ExecutionException.Kind.SOURCE_UNAVAILABLE;
        }
        if (message.contains("database is locked") || message.contains("busy")) {
            return ExecutionException.Kind.SOURCE_BUSY;
        }
        return null;
    }
}
