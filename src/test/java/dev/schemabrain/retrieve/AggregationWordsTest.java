package dev.schemabrain.retrieve;

import dev.schemabrain.semantic.model.Aggregation;
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
        assertEquals(Optional.empty(), AggregationWords.asked("Fuel spend by depot"));
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
