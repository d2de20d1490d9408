package dev.schemabrain.catalog;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/** Looking a table up by name in a catalog given its tables in any order. */
class CatalogTest {

    @Test
    void everyTableIsFoundByNameAndNoOtherName() {
        List<Table> tables = new ArrayList<>();
        for (int s = 0; s < 30; s++) {
            for (int t = 0; t < 40; t++) {
                tables.add(table("s" + s, "t" + t));
            }
        }
        Collections.shuffle(tables, new Random(5));
        Catalog catalog = new Catalog(tables);
        for (Table t : tables) {
            assertSame(t, catalog.table(t.name()).orElseThrow(), t.name().toString());
        }
        assertEquals(Optional.empty(), catalog.table(new QualifiedName("s3", "t40")));
        assertEquals(Optional.empty(), catalog.table(new QualifiedName("s30", "t0")));
        assertEquals(Optional.empty(), catalog.table(new QualifiedName("", "")));
        assertEquals(Optional.empty(), new Catalog(List.of()).table(new QualifiedName("s0", "t0")));
    }

    private static Table table(String schema, String name) {
        TableBuilder b = new TableBuilder(new QualifiedName(schema, name), TableKind.TABLE, null, null, null);
        b.addColumn(new Column("id", 1, "integer", false, null, null, List.of()));
        return b.build();
    }
}
