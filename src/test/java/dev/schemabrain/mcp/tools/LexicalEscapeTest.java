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
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What runs is what was checked, on the four real engines: statements whose literals or quoted names
 * the parser reads one way and the engine another (an escape string with a backslash before a quote, a backslash in
 * a standard string on MySQL's default sql_mode, a bracketed name on SQLite, dollar quotes, Unicode escapes) never
 * bring back a planted social security number or e-mail, and a generated corpus of literal and name forms either is
 * refused in a sentence or comes back as exactly the value the guard read.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LexicalEscapeTest {

    private static final String[] DDL = {
            "CREATE TABLE person (id INTEGER PRIMARY KEY, full_name VARCHAR(80), ssn VARCHAR(20), email VARCHAR(80),"
                    + " country VARCHAR(20))",
            "CREATE TABLE visit (id INTEGER PRIMARY KEY, person_id INTEGER REFERENCES person(id), amount INTEGER)"};

    @TempDir
    static Path dir;
    private final Map<String, ToolRegistry> tools = new HashMap<>();
    private final List<QueryExecutor> executors = new ArrayList<>();
    private String maria;

    @BeforeAll
    void serve() throws Exception {
        List<String> rows = new ArrayList<>();
        for (int i = 1; i <= 30; i++) {
            rows.add("INSERT INTO person VALUES (" + i + ", 'Person Number" + i + "', '" + ssn(i) + "', '"
                    + email(i) + "', '" + (i % 2 == 0 ? "FR" : "US") + "')");
            rows.add("INSERT INTO visit VALUES (" + i + ", " + i + ", " + (i * 10) + ")");
        }
        List<String> all = new ArrayList<>(List.of(DDL));
        all.addAll(rows);

        Path sqlite = dir.resolve("lex.sqlite");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + sqlite); Statement st = c.createStatement()) {
            for (String s : all) {
                st.execute(s);
            }
        }
        serve("sqlite", SourceUrl.parse("sqlite:" + sqlite));

        Path duck = dir.resolve("lex.duckdb");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + duck); Statement st = c.createStatement()) {
            for (String s : all) {
                st.execute(s);
            }
        }
        serve("duckdb", SourceUrl.parse("duckdb:" + duck));

        TestPostgres.createDatabase("sb_lexical", all.toArray(String[]::new));
        serve("postgresql", SourceUrl.parse(TestPostgres.url("sb_lexical")));

        maria = TestMariaDb.create("sb_lexical", all.toArray(String[]::new));
        serve("mariadb", SourceUrl.parse(TestMariaDb.url(maria)));
    }

    private void serve(String engine, SourceUrl url) throws Exception {
        Path store = Indexed.store(url, dir.resolve(engine + ".db"));
        QueryExecutor executor = new QueryExecutor(url, ExecutorSettings.defaults());
        executors.add(executor);
        tools.put(engine, StandardTools.registry(new StoreCatalogProvider(store), Optional.of(executor)));
    }

    @AfterAll
    void close() throws Exception {
        executors.forEach(QueryExecutor::close);
        if (maria != null) {
            TestMariaDb.drop(maria);
        }
    }

    private static String ssn(int i) {
        return String.format("219-09-%04d", 1000 + i);
    }

    private static String email(int i) {
        return "secret.person" + i + "@example.org";
    }

    private JsonNode call(String engine, String tool, String sql) {
        return tools.get(engine).call(tool, Map.of("sql", sql), "test", Access.UNRESTRICTED).toTree();
    }

    /** The red team's classes, as an attacker writes them: the checked reading is a string, the engine's a subquery. */
    static final List<String> ESCAPES = List.of(
            // E-string: the parser ends the literal at \' (then '' is a doubled quote), PostgreSQL and DuckDB do not.
            "SELECT E'\\'', (SELECT ssn FROM person LIMIT 1) AS x -- ' AS y",
            "SELECT E'\\'', (SELECT string_agg(email, ',') FROM person) AS x -- ' AS y",
            "SELECT E'\\'', (SELECT ssn FROM person LIMIT 1) AS x, ' AS y -- '",
            "SELECT E'\\'', (SELECT string_agg(ssn, ',') FROM person) AS x, ' AS y -- '",
            "SELECT count(*) AS n FROM visit WHERE E'\\'' = '' OR (SELECT ssn FROM person LIMIT 1) IS NOT NULL OR ' ' = ' -- '",
            // A backslash in a standard string: MySQL's default sql_mode reads it as an escape.
            "SELECT '\\'', (SELECT ssn FROM person LIMIT 1) AS x -- ' AS y",
            "SELECT '\\'', (SELECT group_concat(ssn) FROM person) AS x -- ' AS y",
            "SELECT '\\'', (SELECT ssn FROM person LIMIT 1) AS x, ' AS y -- '",
            "SELECT '\\'', (SELECT group_concat(email) FROM person) AS x, ' AS y -- '",
            "SELECT 'a\\' AS a, (SELECT email FROM person LIMIT 1) AS b, '' AS c",
            // Brackets: SQLite reads [anything] as a name.
            "SELECT [x'], (SELECT ssn FROM person LIMIT 1) AS x, ['] AS y",
            "SELECT 1 AS [a'], (SELECT ssn FROM person LIMIT 1) AS b, ' AS [c]",
            // Dollar quotes, Unicode escapes, nested comments, double-quoted strings.
            "SELECT $$x$$ AS a, (SELECT ssn FROM person LIMIT 1) AS b",
            "SELECT $a$ ' $a$ AS a, (SELECT ssn FROM person LIMIT 1) AS b, ' ' AS c",
            "SELECT U&'\\0027', (SELECT ssn FROM person LIMIT 1) AS x",
            "SELECT 1 /* /* */ , (SELECT ssn FROM person LIMIT 1) AS x -- */",
            "SELECT \"ssn\" FROM person",
            "SELECT count(*) FROM visit WHERE 'x' = \"x\"");

    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb", "sqlite", "duckdb"})
    void noLiteralOrNameTheEngineReadsDifferentlyBringsBackAPlantedValue(String engine) {
        for (String sql : ESCAPES) {
            for (String tool : List.of("validate_query", "execute")) {
                JsonNode answer = call(engine, tool, sql);
                String text = answer.toString();
                for (int i = 1; i <= 30; i++) {
                    assertFalse(text.contains(ssn(i)) || text.contains(email(i)), () -> engine + " " + tool
                            + " gave a planted value back for " + sql + ": " + text);
                }
                assertNotEquals("internal_error", answer.path("error").path("kind").asText(), () -> sql + ": " + text);
                if (answer.path("status").asText().equals("success") && tool.equals("validate_query")) {
                    // What would run is ours: no subquery on person the check did not see.
                    assertFalse(answer.path("data").path("sql").asText().toLowerCase().contains("from \"main\".\"person\""),
                            () -> sql + ": " + text);
                }
            }
        }
    }

    /**
     * A generated corpus of literal and name forms (property-based, a fixed seed): each statement is refused in a
     * sentence, or runs and returns one row whose value is exactly the value the guard read, under the name it read.
     */
    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb", "sqlite", "duckdb"})
    void everyGeneratedLiteralAndNameComesBackAsTheValueTheGuardRead(String engine) {
        Random random = new Random(20261128L + engine.hashCode());
        String alphabet = "ab'\"\\$-*/;#[]`\n é%_0";
        boolean backslashEscapesInEStrings = engine.equals("postgresql") || engine.equals("duckdb");
        int ran = 0;
        int refused = 0;
        for (int n = 0; n < 150; n++) {
            StringBuilder v = new StringBuilder();
            int len = random.nextInt(8);
            for (int i = 0; i < len; i++) {
                v.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String value = v.toString();
            int form = random.nextInt(4);
            String literal;
            String expected;
            switch (form) {
                case 0 -> {
                    literal = "'" + value.replace("'", "''") + "'";
                    expected = value;   // the guard reads a backslash as itself in a standard string
                }
                case 1 -> {
                    if (!backslashEscapesInEStrings) {
                        continue;
                    }
                    literal = "E'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'";
                    expected = value;
                }
                case 2 -> {
                    if (value.contains("$") || !backslashEscapesInEStrings) {
                        continue;
                    }
                    literal = "$$" + value + "$$";
                    expected = value;
                }
                default -> {
                    literal = "N'" + value.replace("'", "''") + "'";
                    expected = value;
                }
            }
            String alias = value.replace("\n", "").replace("\"", "").replace("`", "").isBlank() ? "v"
                    : "v" + value.replace("\n", "").replace("\"", "").replace("`", "").replace(" ", "").strip();
            // The name in each quoting form the engine reads: double quotes everywhere (MariaDB's session has
            // ANSI_QUOTES), back quotes on MariaDB and SQLite, brackets on SQLite.
            int quoting = random.nextInt(engine.equals("sqlite") ? 3 : engine.equals("mariadb") ? 2 : 1);
            String quotedAlias = quoting == 0 ? '"' + alias.replace("\"", "\"\"") + '"'
                    : quoting == 1 ? '`' + alias.replace("`", "``") + '`'
                    : alias.contains("]") ? '"' + alias + '"' : '[' + alias + ']';
            String sql = "SELECT " + literal + " AS " + quotedAlias;
            JsonNode answer = call(engine, "execute", sql);
            String status = answer.path("status").asText();
            if (status.equals("success")) {
                ran++;
                JsonNode data = answer.path("data");
                assertEquals(1, data.path("rows").size(), () -> sql + ": " + answer);
                assertEquals(1, data.path("rows").get(0).size(), () -> sql + ": " + answer);
                assertEquals(alias, data.path("columns").get(0).asText(), () -> "the name as read: " + sql + ": " + answer);
                if (!(engine.equals("duckdb") && form == 3)) {
                    assertEquals(expected, data.path("rows").get(0).get(0).asText(), () -> engine + " " + sql + ": " + answer);
                }
            } else {
                refused++;
                assertNotEquals("internal_error", answer.path("error").path("kind").asText(), () -> sql + ": " + answer);
                String message = answer.path("error").path("message").asText();
                assertFalse(message.isBlank(), sql);
            }
        }
        assertTrue(ran >= 40, engine + " ran only " + ran + " of the generated statements (" + refused + " refused)");
    }
}
