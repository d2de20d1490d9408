package dev.schemabrain.execute;

import dev.schemabrain.error.ExecutionException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemabrain.semantic.compile.Dialect;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;

/** What the executor does differently per database: opening a read-only session, EXPLAIN, and errors. */
interface Engine {

    ObjectMapper JSON = new ObjectMapper();

    Dialect dialect();

    /** A new connection whose session cannot write and stops statements after {@code timeoutMs}. */
    Connection openReadOnly(int timeoutMs) throws SQLException;

    /** The statement that starts the read-only transaction the query runs in (ended by a rollback), or null. */
    String begin();

    String explain(String sql);

    QueryExecutor.Explain readExplain(ResultSet rs) throws SQLException;

    /** For engines whose EXPLAIN answers one JSON document: the estimate read from it, or none if it is not JSON. */
    static QueryExecutor.Explain fromJson(ResultSet rs, java.util.function.BiFunction<JsonNode, String, QueryExecutor.Explain> read)
            throws SQLException {
        rs.next();
        String text = rs.getString(1);
        try {
            return read.apply(JSON.readTree(text), text);
        } catch (java.io.IOException e) {
            return new QueryExecutor.Explain(null, null, text);
        }
    }

    /** Which failure an engine error is, or null for an ordinary query failure. */
    ExecutionException.Kind classify(SQLException e);
}
