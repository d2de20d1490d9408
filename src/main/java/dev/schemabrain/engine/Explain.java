package dev.schemabrain.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.function.BiFunction;

/** The database's estimate; {@code totalCost} is null where the engine gives none (SQLite, MariaDB 10). */
public record Explain(Double totalCost, Double estimatedRows, String plan) {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** For engines whose EXPLAIN answers one JSON document: the estimate read from it, or none if it is not JSON. */
    public static Explain fromJson(ResultSet rs, BiFunction<JsonNode, String, Explain> read) throws SQLException {
        rs.next();
        String text = rs.getString(1);
        try {
            return read.apply(JSON.readTree(text), text);
        } catch (IOException e) {
            return new Explain(null, null, text);
        }
    }
}
