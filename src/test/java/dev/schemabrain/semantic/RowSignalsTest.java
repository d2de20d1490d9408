package dev.schemabrain.semantic;

import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.Table;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.schemabrain.testing.TestCatalogs.table;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/** A table's row signals are read once per table object, and a reloaded table (a new object) is read again. */
class RowSignalsTest {

    private static Table payments(List<String> statuses) {
        Table t = table("s.payments").columns("id", "amount:numeric", "status:text").pk("id").build();
        List<Column> columns = t.columns().stream()
                .map(c -> c.name().equals("status") ? c.withValues(statuses) : c).toList();
        return t.withColumns(columns);
    }

    @Test
    void aTableIsReadOnceAndAReloadedTableAgain() {
        Table before = payments(List.of("paid", "failed"));
        RowSignals first = RowSignals.of("payments", before);
        assertSame(first, RowSignals.of("payments", before), "the same table object: read once");
        assertEquals(List.of("paid"), first.status().orElseThrow().settled());

        Table reloaded = payments(List.of("paid", "succeeded", "failed"));
        assertEquals(List.of("paid", "succeeded"), RowSignals.of("payments", reloaded).status().orElseThrow().settled(),
                "a re-index brings a new table object, whose values are read, not the old one's");
        assertEquals("orders.status", RowSignals.of("orders", before).status().orElseThrow().reference(),
                "another entity over the same table has its own references");
    }
}
