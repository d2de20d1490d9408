package dev.schemabrain.retrieve;

import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.TypeClass;
import dev.schemabrain.semantic.MeasureMeaning;


/**
 * Questions about money ("revenue by store per month", "who spent the most") and the tables that can answer them:
 * those recording amounts that add up (a payment's amount, an invoice's total) or a price with the quantity it is
 * multiplied by. The words rarely appear in such a table's names, so BM25 and the cosines alone rank the dimension
 * the question names above the table holding the money. Prices and rates alone (a room type's nightly rate) do not
 * count: they say what something costs, not what was earned.
 */
final class MoneyWords {

    /**
     * Words of money that flowed, for the retriever's analyzer to stem; "cost" and "price" are left out, they are
     * usually asked of a price list.
     */
    static final String WORDS = "revenue revenues sales income earn earns earned earning earnings takings turnover"
            + " spend spends spent spending money gross profit profits paid payment payments billed invoiced gmv"
            + " sold sell sells selling";

    private MoneyWords() {
    }

    /** The column holding the table's money (an additive amount, else a price beside a quantity), or -1. */
    static int moneyColumn(Table table) {
        int price = -1;
        boolean quantity = false;
        for (int c = 0; c < table.columns().size(); c++) {
            Column column = table.columns().get(c);
            if (MeasureMeaning.of(table, column) == MeasureMeaning.ADDITIVE && MeasureMeaning.isMoney(column)) {
                return c;
            }
            price = price < 0 && MeasureMeaning.isPrice(column) ? c : price;
            // A number: Northwind's quantity_per_unit ("24 - 12 oz bottles") is text.
            quantity |= MeasureMeaning.isQuantity(column) && TypeClass.of(column) == TypeClass.NUMBER;
        }
        return quantity ? price : -1;
    }
}
