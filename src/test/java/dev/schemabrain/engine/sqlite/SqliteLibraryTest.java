package dev.schemabrain.engine.sqlite;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The SQLite library loaded ahead: connections work, and nothing is left in the temporary directory. */
class SqliteLibraryTest {

    @Test
    void thisPlatformsLibraryIsWhereTheDriverKeepsItAndLoadingLeavesNoFileBehind() throws Exception {
        String resource = SqliteLibrary.resource().orElseThrow(() -> new AssertionError(
                "the build machines are glibc Linux on x86_64 or aarch64: " + System.getProperty("os.arch")));
        assertNotNull(SqliteLibrary.class.getResource(resource), resource + " is in sqlite-jdbc's jar");
        SqliteLibrary.load();
        SqliteLibrary.load();   // once per JVM
        try (Connection c = DriverManager.getConnection("jdbc:sqlite::memory:"); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT sqlite_version()")) {
            assertTrue(rs.next());
            assertTrue(rs.getString(1).startsWith("3."), rs.getString(1));
        }
        try (var left = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            assertEquals(0, left.filter(p -> p.getFileName().toString().startsWith("schemabrain-sqlite")).count(),
                    "the copied library and its directory are deleted once loaded");
        }
        assertEquals(null, System.getProperty("org.sqlite.lib.path"), "the override is cleared after the load");
    }
}
