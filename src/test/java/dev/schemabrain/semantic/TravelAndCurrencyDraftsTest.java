package dev.schemabrain.semantic;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.semantic.model.Entity;
import dev.schemabrain.semantic.model.Filter;
import dev.schemabrain.semantic.model.FilterOp;
import dev.schemabrain.semantic.model.Metric;
import dev.schemabrain.semantic.model.SemanticModel;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.schemabrain.testing.TestCatalogs.table;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 46's drafting rules on a small warehouse schema written for this test (a depot ships parcels; a parcel's
 * label cost is stated in USD whatever the parcel's currency): a test flag travels down NOT NULL keys and stops at a
 * nullable one, a retirement stays on its own row, an amount named for its currency is described in it, and a weight
 * on a dated fact is summed as well as averaged.
 */
class TravelAndCurrencyDraftsTest {

    private static SemanticModel model() {
        Table depot = table("w.depot").columns("depot_id", "name:text", "is_test:boolean", "retired_at:timestamp")
                .pk("depot_id").build();
        Table carrier = table("w.carrier").columns("carrier_id", "name:text", "is_test:boolean").pk("carrier_id").build();
        Table parcel = required(table("w.parcel").columns("parcel_id", "depot_id", "carrier_id", "status:text",
                        "currency:text", "price:numeric", "label_cost_usd:numeric", "weight_kg:numeric", "shipped_at:timestamp")
                .pk("parcel_id").fk("f_depot", "depot_id", "w.depot", "depot_id").fk("f_carrier", "carrier_id", "w.carrier", "carrier_id")
                .build(), "depot_id");
        Table scan = required(table("w.parcel_scan").columns("scan_id", "parcel_id", "scanned_at:timestamp").pk("scan_id")
                .fk("f_parcel", "parcel_id", "w.parcel", "parcel_id").build(), "parcel_id");
        return new SemanticInference(n -> null).infer(new Catalog(List.of(depot, carrier, parcel, scan)));
    }

    /** The same table with {@code column} NOT NULL (the others stay nullable: a parcel may not have a carrier yet). */
    private static Table required(Table t, String column) {
        return t.withColumns(t.columns().stream().map(c -> !c.name().equals(column) ? c
                : new Column(c.name(), c.position(), c.dataType(), false, c.defaultValue(), c.comment(), c.samples())).toList());
    }

    private static List<Filter> live(SemanticModel m, String entity) {
        return m.entity(entity).map(Entity::defaultSegments).orElseThrow().stream().flatMap(s -> s.filters().stream()).toList();
    }

    @Test
    void aTestFlagTravelsDownNotNullKeysOnlyAndARetirementStaysOnItsRow() {
        SemanticModel m = model();
        assertTrue(live(m, "parcel_scan").contains(new Filter("depot.is_test", FilterOp.EQ, false)), live(m, "parcel_scan").toString());
        assertTrue(live(m, "parcel").contains(new Filter("depot.is_test", FilterOp.EQ, false)));
        assertFalse(live(m, "parcel").stream().anyMatch(f -> f.column().startsWith("carrier.")),
                "a nullable carrier_id is not followed: " + live(m, "parcel"));
        assertTrue(live(m, "depot").contains(new Filter("depot.retired_at", FilterOp.IS_NULL, null)));
        assertFalse(live(m, "parcel").stream().anyMatch(f -> f.column().equals("depot.retired_at")),
                "a retired depot's parcels still count");
        assertFalse(m.metrics().stream().anyMatch(x -> "depot.retired_at".equals(x.timeDimension())),
                "a retirement is never a time axis");
    }

    @Test
    void anAmountNamedForItsCurrencyIsDescribedInItAndAWeightOnAFactAddsUp() {
        SemanticModel m = model();
        Metric label = m.metric("parcel_label_cost_usd_sum").orElseThrow();
        assertTrue(label.description().contains("(in USD)"), label.description());
        assertFalse(label.description().contains("parcel.currency"), label.description());
        Metric price = m.metric("parcel_price_avg").orElseThrow();
        assertTrue(price.description().contains("parcel.currency"), price.description());
        Metric weight = m.metric("parcel_weight_kg_sum").orElseThrow();
        assertEquals("weight_kg", weight.measure().column());
        assertTrue(m.metric("parcel_weight_kg_avg").isPresent());
    }
}
