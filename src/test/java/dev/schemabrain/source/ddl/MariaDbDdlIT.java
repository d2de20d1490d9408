package dev.schemabrain.source.ddl;

import dev.schemabrain.testing.TestMariaDb;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * MySQL-dialect DDL against the server that wrote it: MariaDB's own mysql schema, dumped with SHOW
 * CREATE TABLE, read by the DDL source, matches MariaDB's catalog of the same tables. The types are
 * the decisive part: JSqlParser folds {@code CHARACTER SET utf8mb3} into 9 of these 30 types.
 */
class MariaDbDdlIT {

    @Test
    void mysqlSchemaDdlMatchesMariaDbCatalog(@TempDir Path dir) throws Exception {
        Path script = Files.writeString(dir.resolve("mysql.sql"), showCreateTables("mysql"));
        CatalogShape.assertDdlMatches(TestMariaDb.url("mysql"), script);
    }

    /** The base tables of a database as SHOW CREATE TABLE prints them, one script. */
    static String showCreateTables(String database) throws Exception {
        StringBuilder script = new StringBuilder();
        try (Connection c = TestMariaDb.connect(database); Statement st = c.createStatement()) {
            List<String> names = new ArrayList<>();
            try (ResultSet rs = st.executeQuery("SELECT table_name FROM information_schema.tables WHERE table_schema = '"
                    + database + "' AND table_type = 'BASE TABLE' ORDER BY table_name")) {
                while (rs.next()) {
                    names.add(rs.getString(1));
                }
            }
            for (String name : names) {
                try (ResultSet rs = st.executeQuery("SHOW CREATE TABLE `" + database + "`.`" + name + "`")) {
                    rs.next();
                    script.append(rs.getString(2)).append(";\n");
                }
            }
        }
        return script.toString();
    }
}
