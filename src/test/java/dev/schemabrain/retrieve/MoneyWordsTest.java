package dev.schemabrain.retrieve;

import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.TableBuilder;
import dev.schemabrain.catalog.TableKind;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Which tables hold money that flowed, for money words in a question. */
class MoneyWordsTest {

    private static Table table(String name, String... columns) {
        TableBuilder b = new TableBuilder(new QualifiedName("public", name), TableKind.TABLE, 100L, null, null);
        b.addColumn(new Column("id", 1, "integer", false, null, null, List.of()));
        b.addPrimaryKeyColumn("id");
        for (int i = 0; i < columns.length; i += 2) {
            b.addColumn(new Column(columns[i], i / 2 + 2, columns[i + 1], false, null, null, List.of()));
        }
        return b.build();
    }

    @Test
    void anAmountThatAddsUpOrAPriceTimesAQuantityHoldsMoney() {
        assertEquals(1, MoneyWords.moneyColumn(table("payment", "amount", "numeric", "paid_at", "timestamp")));
        assertEquals(1, MoneyWords.moneyColumn(table("order_details", "unit_price", "real", "quantity", "smallint")));
    }

    @Test
    void aPriceAloneOrBesideATextQuantityDoesNot() {
        // Northwind's products: quantity_per_unit is text ("24 - 12 oz bottles"), the price says what a thing costs.
        assertEquals(-1, MoneyWords.moneyColumn(table("products", "unit_price", "real", "quantity_per_unit", "varchar")));
        assertEquals(-1, MoneyWords.moneyColumn(table("room_type", "nightly_rate", "numeric", "max_guests", "smallint")));
        assertEquals(-1, MoneyWords.moneyColumn(table("account_balance", "balance", "numeric", "as_of", "date")));
    }
}
