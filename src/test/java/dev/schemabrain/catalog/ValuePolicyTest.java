package dev.schemabrain.catalog;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the value index may keep: short, clean, non-identifying text values, bounded. */
class ValuePolicyTest {

    @Test
    void onlyTextColumnsWhoseNamesMayBeSampled() {
        assertAll(() -> assertTrue(ValuePolicy.mayIndex("city", "character varying(40)")),
                () -> assertTrue(ValuePolicy.mayIndex("name", "TEXT")),
                () -> assertFalse(ValuePolicy.mayIndex("total", "numeric(10,2)")),
                () -> assertFalse(ValuePolicy.mayIndex("invoice_date", "timestamp")),
                () -> assertFalse(ValuePolicy.mayIndex("tags", "text[]")),
                () -> assertFalse(ValuePolicy.mayIndex("password_hint", "text")),
                () -> assertFalse(ValuePolicy.mayIndex("photo", "blob")));
    }

    @Test
    void hostileAndIdentifyingValuesAreNeverKept() {
        String tenKb = "x".repeat(10_240);
        List<String> kept = ValuePolicy.pick(List.of("Stuttgart", "Stutt\u0000gart", "Bad\u202eName", tenKb,
                "alice@example.com", "+49 711 123456", "2024-01-31", "12.50", "Köln", "Stuttgart", "  ", "Rio de Janeiro"));
        assertEquals(List.of("Stuttgart", "Köln", "Rio de Janeiro"), kept);
    }

    @Test
    void freeTextColumnsKeepNothing() {
        List<String> notes = new ArrayList<>();
        IntStream.range(0, 10).forEach(i -> notes.add("A long note about the customer's visit number " + i + " and more words"));
        notes.add("short");
        assertEquals(List.of(), ValuePolicy.pick(notes));
    }

    @Test
    void boundedPerColumnAndPerStore() {
        List<String> many = IntStream.range(0, 1000).mapToObj(i -> "city " + (char) ('a' + i % 26) + i).toList();
        assertEquals(ValuePolicy.MAX_PER_COLUMN, ValuePolicy.pick(many).size());
        int columns = ValuePolicy.MAX_PER_STORE / ValuePolicy.MAX_PER_COLUMN + 10;
        List<Column> cols = IntStream.range(0, columns).mapToObj(i -> new Column("c" + i, i + 1, "text", true, null, null,
                List.of(), ValuePolicy.pick(many))).toList();
        Catalog big = new Catalog(List.of(new Table(QualifiedName.of("s", "t"), TableKind.TABLE, null, null, cols,
                List.of(), List.of(), List.of(), null)));
        long total = ValuePolicy.bounded(big).tables().get(0).columns().stream().mapToLong(c -> c.values().size()).sum();
        assertTrue(total <= ValuePolicy.MAX_PER_STORE && total > ValuePolicy.MAX_PER_STORE / 2, "total " + total);
    }
}
