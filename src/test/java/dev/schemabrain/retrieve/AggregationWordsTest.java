package dev.schemabrain.retrieve;

import dev.schemabrain.semantic.model.Aggregation;
import dev.schemabrain.semantic.model.Measure;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AggregationWordsTest {

    @Test
    void aQuestionBoundedInTimeIsToldFromOneThatIsNot() {
        assertTrue(AggregationWords.inTime("Freight cost last quarter"));
        assertTrue(AggregationWords.inTime("Deliveries per week by depot"));
        assertTrue(AggregationWords.inTime("Parcels lost in 2024"));
        assertTrue(AggregationWords.inTime("How many drivers quit in May?"));
        assertTrue(AggregationWords.inTime("Monthly fuel spend"));
        assertFalse(AggregationWords.inTime("How many depots do we run?"));
        assertFalse(AggregationWords.inTime("Which routes may be late?"), "'may' the verb is no month");
        assertFalse(AggregationWords.inTime("Average parcel weight by carrier"));
    }

    @Test
    void theAggregationAskedForIsReadInOrder() {
        assertEquals(Optional.of(Aggregation.AVG), AggregationWords.asked("Average number of stops per route"));
        assertEquals(Optional.of(Aggregation.COUNT), AggregationWords.asked("Total number of parcels"));
        assertEquals(Optional.of(Aggregation.SUM), AggregationWords.asked("How much did we spend on fuel?"));
        assertEquals(Optional.of(Aggregation.SUM), AggregationWords.asked("Fuel spend by depot"), "money spent is a total");
        assertEquals(Optional.of(Aggregation.AVG), AggregationWords.asked("Average revenue per depot"));
        assertEquals(Optional.of(Aggregation.COUNT), AggregationWords.asked("Number of sales by depot"));
        assertEquals(Optional.empty(), AggregationWords.asked("Parcels by depot"));
    }

    @Test
    void unitsAreCountedOutWhenSaidOrSold() {
        assertEquals(Optional.of(AggregationWords.Units.SOLD), AggregationWords.units("Top products by units sold"));
        assertEquals(Optional.of(AggregationWords.Units.SOLD), AggregationWords.units("How many tyres did we sell last week?"));
        assertEquals(Optional.of(AggregationWords.Units.ANY), AggregationWords.units("How many units are in stock?"));
        assertEquals(Optional.empty(), AggregationWords.units("How many parcels did we ship?"), "a count of rows");
        assertEquals(Optional.empty(), AggregationWords.units("Average unit price of tyres sold"), "a unit price counts nothing");
        assertTrue(AggregationWords.countsUnits(AggregationWords.Units.SOLD, "quantity"));
        assertTrue(AggregationWords.countsUnits(AggregationWords.Units.ANY, "UnitsInStock"));
        assertFalse(AggregationWords.countsUnits(AggregationWords.Units.SOLD, "units_in_stock"), "a level was never sold");
        assertFalse(AggregationWords.countsUnits(AggregationWords.Units.SOLD, "unit_price"));
    }

    @Test
    void unitsSoldAreASumOfUnitsAndMoneyIsNot() {
        Measure quantity = Measure.of(Aggregation.SUM, "quantity");
        Measure rows = Measure.of(Aggregation.COUNT, "id");
        Measure amount = Measure.of(Aggregation.SUM, "total_amount");
        AggregationWords.Ask sold = AggregationWords.ask("How many tyres did we sell?");
        assertEquals(1.0, sold.fit(quantity));
        assertEquals(0.5, sold.fit(rows), "rows are units sold only where a row is one unit");
        AggregationWords.Ask revenue = AggregationWords.ask("Tyre sales revenue per month");
        assertEquals(1.0, revenue.fit(amount));
        assertEquals(0.0, revenue.fit(quantity), "money is no sum of units");
        assertEquals(1.0, AggregationWords.ask("How many parcels did we ship?").fit(rows));
    }

    @Test
    void aShareOrARunningTotalIsToldApart() {
        assertEquals(Optional.of(AggregationWords.Shape.SHARE), AggregationWords.shape("What percentage of parcels arrive late?"));
        assertEquals(Optional.of(AggregationWords.Shape.SHARE), AggregationWords.shape("On-time delivery rate by carrier"));
        assertEquals(Optional.of(AggregationWords.Shape.RUNNING), AggregationWords.shape("Fuel spend so far this year"));
        assertEquals(Optional.of(AggregationWords.Shape.RUNNING), AggregationWords.shape("Year-to-date freight cost"));
        assertEquals(Optional.empty(), AggregationWords.shape("How many parcels did we ship?"));
    }
}
