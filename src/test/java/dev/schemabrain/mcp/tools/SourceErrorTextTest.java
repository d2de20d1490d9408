package dev.schemabrain.mcp.tools;

import dev.schemabrain.served.StoreCatalogProvider;
import com.fasterxml.jackson.databind.JsonNode;
import dev.schemabrain.access.Access;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.execute.ExecutorSettings;
import dev.schemabrain.execute.QueryExecutor;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.testing.Indexed;
import dev.schemabrain.testing.TestMariaDb;
import dev.schemabrain.testing.TestPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An attacker's read through error text, on the four real engines: a statement the guard lets through makes the
 * source fail on a value it read (a conversion, a JSON path, a colliding grouping key), and the engine's message
 * quotes that value. The answer carries our own sentence and kind, never the planted value.
 */
class SourceErrorTextTest {

    /** Recognisable, in an untagged column: the guard has no reason to refuse reading it through a conversion. */
    static final String PLANTED = "zq7731planted";

    @TempDir
    static Path dir;
    static String maria;
    static final List<QueryExecutor> OPEN = new ArrayList<>();

    @BeforeAll
    static void databases() throws Exception {
        String table = "CREATE TABLE note (id int PRIMARY KEY, label varchar(40))";
        String rows = "INSERT INTO note VALUES (1, '" + PLANTED + "'), (2, '" + PLANTED + "'), (3, '" + PLANTED + "')";
        TestPostgres.createDatabase("sb_errtext", table, rows);
        maria = TestMariaDb.create("sb_errtext", table, rows);
        for (String kind : List.of("sqlite", "duckdb")) {
            try (Connection c = DriverManager.getConnection("jdbc:" + kind + ":" + dir.resolve("note." + kind));
                 Statement st = c.createStatement()) {
                st.execute(table);
                st.execute(rows);
            }
        }
    }

    @AfterAll
    static void close() throws Exception {
        OPEN.forEach(QueryExecutor::close);
        TestMariaDb.drop(maria);
    }

    static Stream<Arguments> failures() {
        return Stream.of(
                Arguments.of(TestPostgres.url("sb_errtext"), "SELECT CAST(label AS integer) FROM note", "convert"),
                Arguments.of(TestPostgres.url("sb_errtext"), "SELECT id / (id - id) FROM note", "divided by zero"),
                // MariaDB converts with a warning in a SELECT; a key that collides under GROUP BY over RAND() is an error.
                Arguments.of(TestMariaDb.url(maria), "SELECT count(*), concat(label, floor(rand(0) * 2)) AS k FROM note"
                        + " GROUP BY k", "(SQLSTATE 23000)"),
                Arguments.of("sqlite:" + dir.resolve("note.sqlite"), "SELECT json_extract('{}', label) FROM note",
                        "convert"),
                Arguments.of("duckdb:" + dir.resolve("note.duckdb"), "SELECT CAST(label AS INTEGER) FROM note",
                        "convert"));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("failures")
    void theEnginesWordsNeverReachTheAnswer(String url, String sql, String ours) throws Exception {
        ToolRegistry tools = served(url);
        JsonNode answer = tools.call("execute", Map.of("sql", sql), "attacker", Access.UNRESTRICTED).toTree();
        assertEquals("error", answer.path("status").asText(), answer::toString);
        assertEquals("statement_failed", answer.path("error").path("kind").asText(), answer::toString);
        assertFalse(answer.toString().contains(PLANTED), () -> "the planted value came back: " + answer);
        String message = answer.path("error").path("message").asText();
        assertTrue(message.startsWith("The ") && message.endsWith(".") && message.contains(ours), message);
        assertFalse(answer.path("error").path("recovery").path("suggested_tool").isMissingNode(), answer::toString);
    }

    static Stream<String> urls() {
        return Stream.of(TestPostgres.url("sb_errtext"), TestMariaDb.url(maria), "sqlite:" + dir.resolve("note.sqlite"),
                "duckdb:" + dir.resolve("note.duckdb"));
    }

    /** A ';' inside a string literal is data, not a second statement: the query runs (it was internal_error). */
    @ParameterizedTest(name = "{0}")
    @MethodSource("urls")
    void aSemicolonInAStringLiteralIsData(String url) throws Exception {
        ToolRegistry tools = served(url);
        JsonNode answer = tools.call("execute", Map.of("sql", "SELECT count(*) AS n FROM note WHERE label = 'a;b' OR label = '"
                + PLANTED + "'"), "attacker", Access.UNRESTRICTED).toTree();
        assertEquals("success", answer.path("status").asText(), answer::toString);
        assertEquals(3, answer.path("data").path("rows").get(0).get(0).asInt(), answer::toString);
    }

    private static ToolRegistry served(String url) throws Exception {
        SourceUrl source = SourceUrl.parse(url);
        Path store = Indexed.store(source, dir.resolve(source.kind().name().toLowerCase() + "-" + OPEN.size() + ".db"));
        QueryExecutor executor = new QueryExecutor(source, ExecutorSettings.defaults());
        OPEN.add(executor);
        return StandardTools.registry(new StoreCatalogProvider(store), Optional.of(executor));
    }
}
