package dev.schemabrain.source.ddl;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The select-list reader used where JSqlParser rejects a view query. */
class LightViewColumnsTest {

    @Test
    void castInsideCaseDoesNotTypeTheItem() {
        // sakila's customer_list.notes: the light reader typed it "text end".
        List<ColumnDraft> columns = LightViewColumns.derive(
                "SELECT CASE WHEN cu.activebool THEN 'active'::text ELSE ''::text END AS notes FROM customer cu",
                new SchemaDraft(), "public");
        assertEquals("notes", columns.get(0).name);
        assertEquals(Names.UNKNOWN_TYPE, columns.get(0).dataType);
    }

    @Test
    void castOfTheWholeCaseTypesTheItem() {
        List<ColumnDraft> columns = LightViewColumns.derive(
                "SELECT CASE WHEN a > 0 THEN a ELSE 0 END::bigint AS level FROM t", new SchemaDraft(), "public");
        assertEquals("bigint", columns.get(0).dataType);
    }
}
