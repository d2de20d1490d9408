package dev.schemabrain.retrieve;

import dev.schemabrain.semantic.model.Aggregation;
import dev.schemabrain.semantic.model.Measure;
import dev.schemabrain.semantic.model.Metric;
import dev.schemabrain.semantic.model.MetricKind;
import dev.schemabrain.semantic.model.Origin;
import dev.schemabrain.semantic.model.TimeGrain;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The question's shape, its time bound and its non-content words, on a lexical search (no model) of a carrier's metrics. */
class MetricSearchTest {

    private static final List<TimeGrain> GRAINS = List.of(TimeGrain.DAY, TimeGrain.MONTH);

    private static Metric simple(String name, String description, String entity, Aggregation agg, String column, String time) {
        return new Metric(name, description, entity, Measure.of(agg, column), time, time == null ? List.of() : GRAINS,
                List.of(), Origin.AUTHORED);
    }

    private static final List<Metric> METRICS = List.of(
            simple("parcels_delivered", "Parcels delivered to the recipient.", "parcels", Aggregation.COUNT, null,
                    "parcels.delivered_at"),
            simple("parcels_count", "Parcels handed to us.", "parcels", Aggregation.COUNT, null, "parcels.accepted_at"),
            new Metric("delivery_rate", "Parcels delivered out of parcels handed to us.", "parcels", null, null, List.of(),
                    List.of(), Origin.AUTHORED, new MetricKind.Ratio("parcels_delivered", "parcels_count")),
            new Metric("parcels_delivered_running", "Parcels delivered, added up since the first day.", "parcels", null,
                    null, List.of(), List.of(), Origin.AUTHORED,
                    new MetricKind.Cumulative("parcels_delivered", null, null, null)),
            simple("drivers_count", "Drivers, with their last name and depot.", "drivers", Aggregation.COUNT, null, null),
            simple("drivers_hired", "Drivers who joined.", "drivers", Aggregation.COUNT, null, "drivers.hired_on"),
            simple("fuel_litres_sum", "Fuel bought, in litres.", "fuel_purchases", Aggregation.SUM, "litres",
                    "fuel_purchases.bought_at"));

    private static String top(String question) {
        return search().search(question, 3).get(0).metric().name();
    }

    private static MetricSearch search() {
        return new MetricSearch(METRICS, Map.of(), null, null);
    }

    @Test
    void aShareIsAnsweredByARatioAndARunningTotalByACumulativeMetric() {
        assertEquals("delivery_rate", top("What share of parcels get delivered?"));
        assertEquals("parcels_delivered_running", top("Parcels delivered so far"));
        assertEquals("parcels_delivered", top("How many parcels were delivered?"));
    }

    @Test
    void thePeriodAskedForNeitherMatchesNamesNorAnUndatedMetric() {
        // "last" would meet the drivers' "last name"; the month asks for a metric with a time axis.
        assertEquals("drivers_hired", top("Drivers last month"));
    }

    @Test
    void theWordsAnAnswerIsGroupedByWeighLessThanTheWordsOfWhatItMeasures() {
        List<Metric> metrics = List.of(
                simple("depots_count", "Depots, each with its drivers.", "depots", Aggregation.COUNT, null, null),
                simple("fuel_litres_sum", "Fuel bought, in litres.", "fuel_purchases", Aggregation.SUM, "litres",
                        "fuel_purchases.bought_at"));
        MetricSearch search = new MetricSearch(metrics, Map.of(), null, null);
        // Without the grouping rule "depot" (twice in the depots' document) outweighs "fuel".
        assertEquals("fuel_litres_sum", search.search("Fuel per depot depots", 2).get(0).metric().name());
        assertEquals("depots_count", search.search("Depots", 2).get(0).metric().name(), "alone, the word still finds its metric");
    }

    @Test
    void aPronounMatchesNothing() {
        assertEquals(List.of(), search().search("Who works for us?", 3), "'handed to us' is no answer");
    }

    @Test
    void unitsSoldFindTheSumOfQuantityAndARankingsByNamesTheMeasure() {
        List<Metric> metrics = List.of(
                simple("order_lines_quantity_sum", "Units sold: sum of quantity over order lines rows, the units of products they sell.",
                        "order_lines", Aggregation.SUM, "quantity", "orders.placed_at"),
                simple("order_lines_unit_price_avg", "Average unit price over order lines rows.", "order_lines",
                        Aggregation.AVG, "unit_price", "orders.placed_at"),
                simple("products_count", "Number of products rows.", "products", Aggregation.COUNT, null, null),
                simple("products_units_in_stock_sum", "Current total of units in stock over products rows.", "products",
                        Aggregation.SUM, "units_in_stock", null));
        MetricSearch search = new MetricSearch(metrics, Map.of(), null, null);
        assertEquals("order_lines_quantity_sum", search.search("Top products by units sold", 3).get(0).metric().name());
        assertEquals("order_lines_quantity_sum", search.search("How many products did we sell?", 3).get(0).metric().name());
        assertEquals("order_lines_unit_price_avg", search.search("Average unit price of products sold", 3).get(0).metric().name());
        assertEquals("products_units_in_stock_sum", search.search("How many units are in stock?", 3).get(0).metric().name());
    }
}
