package dev.schemabrain.mcp.tools;

import dev.schemabrain.served.StoreCatalogProvider;
import com.fasterxml.jackson.databind.JsonNode;
import dev.schemabrain.access.Access;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.execute.ExecutorSettings;
import dev.schemabrain.execute.QueryExecutor;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.testing.Indexed;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An answer has a byte budget as well as a row cap, on a real DuckDB file: a few rows of huge values (repeat()) were
 * a 128 MB answer within the row cap; now rows stop at the budget and the answer is partial, saying where it was cut.
 */
class AnswerBytesTest {

    @TempDir
    static Path dir;
    static QueryExecutor executor;
    static ToolRegistry tools;

    @BeforeAll
    static void serve() throws Exception {
        Path file = dir.resolve("notes.duckdb");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE note (id int PRIMARY KEY, label varchar(40))");
            st.execute("INSERT INTO note SELECT i, 'label ' || i FROM range(1, 51) t(i)");
        }
        SourceUrl url = SourceUrl.parse("duckdb:" + file);
        Path store = Indexed.store(url, dir.resolve("notes.db"));
        executor = new QueryExecutor(url, ExecutorSettings.defaults());
        tools = StandardTools.registry(new StoreCatalogProvider(store), Optional.of(executor));
    }

    @AfterAll
    static void close() {
        executor.close();
    }

    @Test
    void aFewHugeRowsStopAtTheByteBudget() {
        // 50 rows of 1.6 MB each: 80 MB within a row cap of 1000.
        JsonNode answer = tools.call("execute", Map.of("sql", "SELECT id, repeat(label, 200000) AS big FROM note ORDER BY id"),
                "attacker", Access.UNRESTRICTED).toTree();
        assertEquals("partial", answer.path("status").asText(), () -> answer.toString().substring(0, 500));
        JsonNode data = answer.path("data");
        assertTrue(data.path("truncated").asBoolean());
        assertEquals(ExecutorSettings.DEFAULT_MAX_BYTES, data.path("cut_at_bytes").asLong());
        assertTrue(data.path("row_count").asInt() >= 1 && data.path("row_count").asInt() <= 3, () -> "rows: " + data.path("row_count"));
        assertTrue(answer.toString().length() < ExecutorSettings.DEFAULT_MAX_BYTES + 100_000, "answer of " + answer.toString().length());
        assertTrue(data.path("truncation").asText().startsWith("The answer was cut at 4194304 bytes"), data.path("truncation").asText());
    }

    @Test
    void aFirstRowLargerThanTheBudgetIsPartialNotEmpty() {
        JsonNode answer = tools.call("execute", Map.of("sql", "SELECT repeat(label, 1000000) AS big FROM note WHERE id = 10"),
                "attacker", Access.UNRESTRICTED).toTree();
        assertEquals("partial", answer.path("status").asText(), () -> answer.toString().substring(0, Math.min(500, answer.toString().length())));
        assertEquals(0, answer.path("data").path("row_count").asInt());
    }

    @Test
    void manySmallRowsAreStillCutByRowsOnly() {
        JsonNode answer = tools.call("execute", Map.of("sql", "SELECT id, label FROM note ORDER BY id", "limit", 10),
                "analyst", Access.UNRESTRICTED).toTree();
        assertEquals("partial", answer.path("status").asText(), answer::toString);
        assertTrue(answer.path("data").path("cut_at_bytes").isMissingNode(), answer::toString);
    }
}
