package dev.schemabrain.source.spider;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.engine.IntrospectionOptions;
import dev.schemabrain.error.SourceException;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.testing.Bench;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Spider dev's tables.json. Totals counted independently with python3's json module:
 * 20 databases, 81 tables, 441 columns (without the "*" entries), 74 primary-key columns, 64 foreign-key pairs of which
 * one (in dog_kennels) is listed twice, so 63 foreign keys.
 */
class SpiderSourceTest {

    static Catalog read(Path file) throws SourceException {
        return new SpiderSource(SourceUrl.parse("spider:" + file)).introspect(IntrospectionOptions.fresh());
    }

    @Test
    void spiderDevTables() throws Exception {
        Catalog c = read(Bench.spiderTables());
        assertEquals(20, c.tables().stream().map(t -> t.name().schema()).distinct().count());
        assertEquals(81, c.tables().size());
        assertEquals(441, c.columnCount());
        assertEquals(74, c.tables().stream().mapToInt(t -> t.primaryKey().size()).sum());
        assertEquals(63, c.foreignKeyCount());

        Table concert = c.table(QualifiedName.of("concert_singer", "concert")).orElseThrow();
        assertEquals(List.of("concert_ID"), concert.primaryKey());
        assertEquals(QualifiedName.of("concert_singer", "stadium"), concert.foreignKeys().get(0).target());
        assertEquals(List.of("Stadium_ID"), concert.foreignKeys().get(0).columns());
        Table link = c.table(QualifiedName.of("concert_singer", "singer_in_concert")).orElseThrow();
        assertEquals(2, link.foreignKeys().size());
        Table stadium = c.table(QualifiedName.of("concert_singer", "stadium")).orElseThrow();
        assertEquals("number", stadium.column("Capacity").orElseThrow().dataType(), "Spider's own type names are kept");
        assertEquals("text", stadium.column("Location").orElseThrow().dataType());
        assertEquals(2, stadium.column("Location").orElseThrow().position());
    }

    @Test
    void badFilesAreOneClearSentence(@TempDir Path dir) throws Exception {
        SourceException missing = assertThrows(SourceException.class, () -> read(dir.resolve("absent.json")));
        assertTrue(missing.getMessage().contains("does not exist"), missing.getMessage());

        Path invalid = dir.resolve("invalid.json");
        Files.writeString(invalid, "[{\"db_id\": ");
        assertTrue(assertThrows(SourceException.class, () -> read(invalid)).getMessage().contains("not valid JSON"));

        Path wrong = dir.resolve("wrong.json");
        Files.writeString(wrong, "{\"tables\": []}");
        assertTrue(assertThrows(SourceException.class, () -> read(wrong)).getMessage().contains("not in Spider's tables.json format"));

        Path noColumns = dir.resolve("nocolumns.json");
        Files.writeString(noColumns, "[{\"db_id\": \"x\", \"table_names_original\": [\"t\"]}]");
        assertTrue(assertThrows(SourceException.class, () -> read(noColumns)).getMessage().contains("column_names_original"));
    }
}
