package dev.schemabrain.source.ddl;

import dev.schemabrain.sql.lex.SqlSyntaxException;

import dev.schemabrain.error.SourceException;
import dev.schemabrain.testing.Bench;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The figures that decided the one CREATE TABLE parser (docs/architecture.md, DDL reading): the
 * clause parser reads every CREATE TABLE of the sample dumps, and what it reads from each Spider
 * database's own DDL is what SQLite's catalog says of the same tables. {@link CreateTableParserFigures}
 * has the full comparison with JSqlParser.
 */
class CreateTableCorpusTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource({"chinook.sql, 11", "northwind.sql, 14", "pagila.sql, 71", "pagila-pg15.sql, 71", "sakila.sql, 21"})
    void everyCreateTableOfASampleDumpParses(String file, int createTables) throws SourceException {
        List<RawStatement> statements = SqlSplitter.split(DdlSource.read(Bench.sampleDb(file)));
        String[] schemas = DdlReader.searchPaths(statements);
        int parsed = 0;
        List<String> unread = new ArrayList<>();   // all of them, not just the first
        for (int i = 0; i < statements.size(); i++) {
            if (DdlReader.CREATE_TABLE.matcher(statements.get(i).text()).matches()) {
                parsed++;
                try {
                    if (CreateTableParser.parse(statements.get(i), schemas[i]).isEmpty()) {
                        unread.add("line " + statements.get(i).line() + ": no table");
                    }
                } catch (SqlSyntaxException e) {
                    unread.add("line " + statements.get(i).line() + ": " + e.getMessage());
                }
            }
        }
        assertEquals(List.of(), unread);
        assertEquals(createTables, parsed);
    }

    static Stream<Path> spiderDatabases() throws IOException {
        try (Stream<Path> dirs = Files.list(Bench.root().resolve("spider").resolve("database"))) {
            return dirs.sorted().map(dir -> dir.resolve(dir.getFileName() + ".sqlite")).toList().stream();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("spiderDatabases")
    void spiderDdlMatchesSqliteCatalog(Path database, @TempDir Path dir) throws Exception {
        Path script = Files.writeString(dir.resolve("schema.sql"), createTables(database));
        CatalogShape.assertDdlMatches("sqlite:" + database, script);
    }

    /** The database's CREATE TABLE statements as SQLite keeps them, the way a user would dump them. */
    static String createTables(Path database) throws SQLException {
        StringBuilder script = new StringBuilder();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + database);
             Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT sql FROM sqlite_master WHERE type = 'table' AND sql IS NOT NULL"
                     + " AND name NOT LIKE 'sqlite!_%' ESCAPE '!' ORDER BY rowid")) {
            while (rs.next()) {
                script.append(rs.getString(1)).append(";\n");
            }
        }
        return script.toString();
    }
}
