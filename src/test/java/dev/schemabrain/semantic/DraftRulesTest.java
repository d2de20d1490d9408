package dev.schemabrain.semantic;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.Domain;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.engine.Engines;
import dev.schemabrain.semantic.compile.CompileException;
import dev.schemabrain.semantic.compile.MetricCompiler;
import dev.schemabrain.semantic.compile.MetricRequest;
import dev.schemabrain.error.ErrorKind;
import dev.schemabrain.semantic.model.Aggregation;
import dev.schemabrain.semantic.model.Filter;
import dev.schemabrain.semantic.model.FilterOp;
import dev.schemabrain.semantic.model.Metric;
import dev.schemabrain.semantic.model.SemanticModel;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.schemabrain.testing.TestCatalogs.table;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The drafting rules of issue 19 on hand-built tables: what a number means, and which date a line takes. */
class DraftRulesTest {

    /** Every column NOT NULL: a line that cannot exist without its parent. */
    static Table required(Table t) {
        return t.withColumns(t.columns().stream().map(c -> new Column(c.name(), c.position(), c.dataType(), false,
                c.defaultValue(), c.comment(), c.samples())).toList());
    }

    @Test
    void aNumbersMeaningComesFromItsName() {
        Table t = table("s.facts").columns("id", "customer_id", "unit_price:numeric", "quantity", "discount:real",
                "total_amount:numeric", "discount_amount:numeric", "release_year", "is_active", "zip_code", "status_code",
                "score:numeric", "age", "tax_rate:numeric", "bytes", "reorder_level", "units_in_stock", "monthly_price_cents:numeric",
                "replacement_cost:numeric", "shipping_cost:numeric", "duration_seconds:real", "seats", "name:text",
                "minor_units", "exponent", "sort_order", "display_order", "unit_amount:numeric", "amount_off:numeric",
                "percent_off:numeric", "face_value:numeric", "max_amount:numeric", "balance_amount:numeric", "mrr:numeric",
                "seats_remaining")
                .pk("id").fk("f_c", "customer_id", "s.customer", "id").build();
        Map<String, MeasureMeaning> expected = Map.ofEntries(Map.entry("id", MeasureMeaning.NONE),
                Map.entry("customer_id", MeasureMeaning.NONE), Map.entry("unit_price", MeasureMeaning.AVERAGED),
                Map.entry("quantity", MeasureMeaning.ADDITIVE), Map.entry("discount", MeasureMeaning.AVERAGED),
                Map.entry("total_amount", MeasureMeaning.ADDITIVE), Map.entry("discount_amount", MeasureMeaning.ADDITIVE),
                Map.entry("release_year", MeasureMeaning.NONE), Map.entry("is_active", MeasureMeaning.NONE),
                Map.entry("zip_code", MeasureMeaning.NONE), Map.entry("status_code", MeasureMeaning.NONE),
                Map.entry("score", MeasureMeaning.AVERAGED), Map.entry("age", MeasureMeaning.AVERAGED),
                Map.entry("tax_rate", MeasureMeaning.AVERAGED), Map.entry("bytes", MeasureMeaning.NONE),
                Map.entry("reorder_level", MeasureMeaning.NONE), Map.entry("units_in_stock", MeasureMeaning.SNAPSHOT),   // was ADDITIVE: stock is a level
                Map.entry("monthly_price_cents", MeasureMeaning.AVERAGED), Map.entry("replacement_cost", MeasureMeaning.AVERAGED),
                Map.entry("shipping_cost", MeasureMeaning.ADDITIVE), Map.entry("duration_seconds", MeasureMeaning.AVERAGED),
                Map.entry("seats", MeasureMeaning.ADDITIVE), Map.entry("name", MeasureMeaning.NONE),
                // Never summed (blind drafts): minor units, exponents and sort orders are not measurements; an amount
                // per unit or off a coupon is a price; a bound is not an amount; balances and MRR are levels.
                Map.entry("minor_units", MeasureMeaning.NONE), Map.entry("exponent", MeasureMeaning.NONE),
                Map.entry("sort_order", MeasureMeaning.NONE), Map.entry("display_order", MeasureMeaning.NONE),
                Map.entry("unit_amount", MeasureMeaning.AVERAGED), Map.entry("amount_off", MeasureMeaning.AVERAGED),
                Map.entry("percent_off", MeasureMeaning.AVERAGED), Map.entry("face_value", MeasureMeaning.AVERAGED),
                Map.entry("max_amount", MeasureMeaning.NONE), Map.entry("balance_amount", MeasureMeaning.SNAPSHOT),
                Map.entry("mrr", MeasureMeaning.SNAPSHOT), Map.entry("seats_remaining", MeasureMeaning.SNAPSHOT));
        for (Column c : t.columns()) {
            assertEquals(expected.get(c.name()), MeasureMeaning.of(t, c), c.name());
        }
        Table prices = table("s.prices").columns("id", "amount:numeric", "quantity").pk("id").build();
        assertEquals(MeasureMeaning.AVERAGED, MeasureMeaning.of(prices, prices.column("amount").orElseThrow()),
                "a price list's amount is a price");
        assertEquals(MeasureMeaning.ADDITIVE, MeasureMeaning.of(prices, prices.column("quantity").orElseThrow()), "not money");
        Column flag = new Column("paid", 1, "integer", false, null, null, List.of("0", "1"));
        assertEquals(MeasureMeaning.NONE, MeasureMeaning.of(t.withColumns(List.of(flag)), flag), "0/1 in the sample is a yes/no");
    }

    static Catalog shop(boolean invoiceToo) {
        Table orders = table("s.orders").columns("id", "created_date:date", "order_date:date", "required_date:date",
                "last_update:timestamp").pk("id").build();
        Table invoices = table("s.invoices").columns("id", "invoice_date:date").pk("id").build();
        var lines = table("s.order_lines").columns("id", "order_id", "invoice_id", "unit_price:numeric", "quantity", "discount:real")
                .pk("id").fk("l_o", "order_id", "s.orders", "id");
        if (invoiceToo) {
            lines = lines.fk("l_i", "invoice_id", "s.invoices", "id");
        }
        Table reps = table("s.reps").columns("id", "hired_at:timestamp").pk("id").build();
        Table customers = table("s.customers").columns("id", "rep_id", "country:text").pk("id").fk("c_r", "rep_id", "s.reps", "id").build();
        return new Catalog(List.of(required(orders), invoices, required(lines.build()), reps, customers));
    }

    @Test
    void aQuantityBesideAPriceIsUnitsSoldOfWhatTheLineRefersToAndAQuantityBesideACostIsNot() {
        Table orders = table("s.orders").columns("id", "order_date:date").pk("id").build();
        Table products = table("s.products").columns("id", "name:text").pk("id").build();
        Table lines = required(table("s.order_lines").columns("id", "order_id", "product_id", "unit_price:numeric", "quantity")
                .pk("id").fk("l_o", "order_id", "s.orders", "id").fk("l_p", "product_id", "s.products", "id").build());
        Table receipts = required(table("s.receipt_lines").columns("id", "product_id", "unit_cost:numeric", "quantity")
                .pk("id").fk("r_p", "product_id", "s.products", "id").build());
        SemanticModel model = new SemanticInference(n -> null).infer(new Catalog(List.of(required(orders), products, lines, receipts)));
        String sold = model.metric("order_lines_quantity_sum").orElseThrow().description();
        assertTrue(sold.startsWith("Units sold: sum of quantity over order lines rows, the units of products they sell"), sold);
        assertFalse(sold.contains("units of orders"), "the order is what the line belongs to, not what it sells: " + sold);
        String received = model.metric("receipt_lines_quantity_sum").orElseThrow().description();
        assertTrue(received.startsWith("Sum of quantity over receipt lines rows"), "a cost is paid, not charged: " + received);
        assertTrue(model.metric("order_lines_revenue").orElseThrow().description().startsWith("Sales revenue of order lines rows"));
    }

    @Test
    void aLineTakesItsParentsEventTimeWithTheJoinAndTheOthersListed() {
        Catalog catalog = shop(false);
        SemanticModel model = new SemanticInference(n -> null).infer(catalog);
        var revenue = model.metric("order_lines_revenue").orElseThrow();
        assertEquals("unit_price * quantity * (1 - discount)", revenue.measure().expression());
        assertEquals("orders.order_date", revenue.timeDimension(), "order_date is named for the orders' own event; created_date comes first");
        TimeAxis axis = TimeAxis.of(catalog, model, "order_lines");
        assertEquals(List.of("order_lines_orders"), axis.chosen().orElseThrow().joins());
        assertEquals(List.of("orders.order_date", "orders.created_date", "orders.required_date"),
                axis.candidates().stream().map(TimeAxis.Candidate::reference).toList(), "a bookkeeping stamp is never one");
        assertFalse(model.metric("order_lines_unit_price_avg").isPresent(), "a line's price is in its revenue");
        assertNull(model.metric("customers_count").orElseThrow().timeDimension(),
                "a customer's nullable rep is a reference, not a parent: the rep's hire date does not date customers");
    }

    @Test
    void twoParentsEquallyGoodLeaveTheChoiceToTheCaller() throws Exception {
        Catalog catalog = shop(true);
        SemanticModel model = new SemanticInference(n -> null).infer(catalog);
        TimeAxis axis = TimeAxis.of(catalog, model, "order_lines");
        assertTrue(axis.tied(), axis.toString());
        assertNull(model.metric("order_lines_revenue").orElseThrow().timeDimension(), "no default when the caller must choose");
        MetricCompiler compiler = new MetricCompiler(catalog, model);
        CompileException e = assertThrows(CompileException.class, () -> compiler.compile(new MetricRequest("order_lines_revenue",
                List.of(), List.of(), "month", null, List.of(), List.of(), 10), Engines.POSTGRESQL));
        assertEquals(ErrorKind.AMBIGUOUS_TIME_DIMENSION, e.problem());
        assertEquals(Set.of("orders.order_date", "invoices.invoice_date"), Set.copyOf(e.candidates()));
        // Without a time grain nothing needs choosing, and with one named it compiles.
        compiler.compile(new MetricRequest("order_lines_revenue", List.of(), List.of(), null, null, List.of(), List.of(), 10),
                Engines.POSTGRESQL);
        assertTrue(compiler.compile(new MetricRequest("order_lines_revenue", List.of(), List.of(), "month", "invoices.invoice_date",
                List.of(), List.of(), 10), Engines.POSTGRESQL).sql().contains("\"invoice_date\""));
    }

    /**
     * A billing schema in SQLite's types: invoices whose status values come from the index (no domain), a 0/1 is_test,
     * a soft delete and a currency; lines that are part of their invoice; a subscription with a declared status and MRR.
     */
    static Catalog billing() {
        Table invoices = table("s.invoices").columns("id", "issued_at:timestamp", "status:text", "currency:text", "is_test",
                "deleted_at:timestamp", "total:numeric", "amount_due:numeric").pk("id").build();
        invoices = invoices.withColumns(invoices.columns().stream().map(c -> switch (c.name()) {
            case "status" -> c.withValues(List.of("draft", "open", "paid", "void"));
            case "currency" -> c.withValues(List.of("EUR", "GBP", "USD"));
            default -> c;
        }).toList());
        Table lines = required(table("s.invoice_lines").columns("id", "invoice_id", "unit_amount:numeric", "quantity",
                "amount:numeric").pk("id").fk("l_i", "invoice_id", "s.invoices", "id").build());
        Table subscriptions = table("s.subscriptions").columns("id", "started_at:timestamp", "status:text", "mrr:numeric",
                "livemode:boolean").pk("id").build();
        subscriptions = subscriptions.withColumns(subscriptions.columns().stream().map(c -> c.name().equals("status")
                ? c.withDomain(new Domain(Domain.Kind.ENUM, null,
                List.of("trialing", "active", "past_due", "canceled"))) : c).toList());
        Table currencies = table("s.currencies").columns("id", "code:text", "minor_units").pk("id").build();
        Table products = table("s.products").columns("id", "units_in_stock", "list_price:numeric").pk("id").build();
        return new Catalog(List.of(invoices, lines, subscriptions, currencies, products));
    }

    @Test
    void moneyCountsOnlySettledRowsWithoutTestOrDeletedRowsAndSaysItsCurrency() throws Exception {
        Catalog catalog = billing();
        SemanticModel model = new SemanticInference(n -> null).infer(catalog);
        var total = model.metric("invoices_total_sum").orElseThrow();
        assertEquals(List.of(new Filter("invoices.status", FilterOp.IN, List.of("paid"))), total.filters());
        // Test and deleted rows leave through the entity's default segment, which every metric of it is read through.
        List<Filter> notReal = List.of(new Filter("invoices.is_test", FilterOp.EQ, 0L), new Filter("invoices.deleted_at", FilterOp.IS_NULL, null));
        var live = model.entity("invoices").orElseThrow().defaultSegments();
        assertEquals(1, live.size());
        assertEquals(notReal, live.get(0).filters());
        assertTrue(total.description().contains("(the default segment live)"), total.description());
        assertTrue(total.description().contains("invoices.status is paid (draft, open, void excluded"), total.description());
        assertTrue(total.description().contains("group or filter by invoices.currency; never add amounts in different currencies"),
                total.description());
        var count = model.metric("invoices_count").orElseThrow();
        assertEquals(0, count.filters().size(), "a count spans every status; test and deleted rows leave by the segment");
        assertTrue(count.description().contains("Spans every invoices.status (draft, open, paid, void)"), count.description());
        var due = model.metric("invoices_amount_due_sum").orElseThrow();
        assertFalse(due.filters().stream().anyMatch(f -> f.column().equals("invoices.status")), "what is owed is not paid yet");
        // A line of a void or test invoice is void or test too: the header's filters and currency, through the join.
        var lineAmount = model.metric("invoice_lines_amount_sum").orElseThrow();
        assertEquals(total.filters(), lineAmount.filters());
        assertEquals(notReal, model.entity("invoice_lines").orElseThrow().defaultSegments().get(0).filters());
        assertTrue(lineAmount.description().contains("invoices.currency"), lineAmount.description());
        assertTrue(model.metric("invoice_lines_unit_amount_sum").isEmpty(), "an amount per unit is a price");
        String sql = new MetricCompiler(catalog, model).compile(new MetricRequest("invoice_lines_amount_sum", List.of("invoices.currency"),
                List.of(), null, null, List.of(), List.of(), 10), Engines.POSTGRESQL).sql();
        assertTrue(sql.contains("\"is_test\" = ?") && sql.contains("\"deleted_at\" IS NULL") && sql.contains("\"status\" IN (?)"), sql);
        // invoices.currency is known to hold three currencies: asked without it, the sum is refused, retried per currency.
        CompileException mixed = assertThrows(CompileException.class, () -> new MetricCompiler(catalog, model).compile(
                new MetricRequest("invoice_lines_amount_sum", List.of(), List.of(), null, null, List.of(), List.of(), 10),
                Engines.POSTGRESQL));
        assertEquals(ErrorKind.INVALID_ARGUMENT, mixed.problem());
        assertEquals(Map.of("group_by", List.of("invoices.currency")), mixed.suggestedArgs());
    }

    @Test
    void aCallersFilterOnTheStatusADraftGuessedReplacesItAndOnAReviewedOneMayOnlyNarrowIt() throws Exception {
        Catalog catalog = billing();
        SemanticModel model = new SemanticInference(n -> null).infer(catalog);
        Filter billed = new Filter("invoices.status", FilterOp.IN, List.of("open", "paid"));
        MetricRequest asked = new MetricRequest("invoices_total_sum", List.of("invoices.currency"), List.of(billed), null,
                null, List.of(), List.of(), 10);
        // ANDed with the draft's own "paid", open invoices would add nothing, under success.
        var compiled = new MetricCompiler(catalog, model).compile(asked, Engines.POSTGRESQL);
        assertTrue(compiled.params().containsAll(List.of("open", "paid")), compiled.params().toString());
        assertEquals(1, compiled.sql().split("\"status\"", -1).length - 1, "one status filter: the caller's, " + compiled.sql());
        // Reviewed, the definition is the operator's: narrowing to paid is fine, reaching open is refused.
        List<Metric> reviewed = model.metrics().stream()
                .map(m -> m.name().equals("invoices_total_sum") ? m.withOrigin(m.origin().confirmed()) : m).toList();
        SemanticModel confirmed = new SemanticModel(model.entities(), model.joins(), reviewed, model.reviews());
        CompileException refused = assertThrows(CompileException.class,
                () -> new MetricCompiler(catalog, confirmed).compile(asked, Engines.POSTGRESQL));
        assertEquals(ErrorKind.INVALID_ARGUMENT, refused.problem());
        assertTrue(refused.getMessage().contains("not reach open"), refused.getMessage());
        var narrowed = new MetricCompiler(catalog, confirmed).compile(new MetricRequest("invoices_total_sum",
                List.of("invoices.currency"), List.of(new Filter("invoices.status", FilterOp.EQ, "paid")), null, null,
                List.of(), List.of(), 10), Engines.POSTGRESQL);
        assertEquals(2, narrowed.sql().split("\"status\"", -1).length - 1, "both kept: " + narrowed.sql());
    }

    @Test
    void aSnapshotIsNeverSummedOverTimeAndCountsOnlyActiveRows() {
        SemanticModel model = new SemanticInference(n -> null).infer(billing());
        assertTrue(model.metric("subscriptions_mrr_sum").isEmpty(), "MRR summed over months multiplies it");
        var mrr = model.metric("subscriptions_mrr_avg").orElseThrow();
        assertEquals(List.of(new Filter("subscriptions.status", FilterOp.IN, List.of("active"))), mrr.filters());
        assertEquals(List.of(new Filter("subscriptions.livemode", FilterOp.EQ, true)),
                model.entity("subscriptions").orElseThrow().defaultSegments().get(0).filters());
        assertTrue(model.metric("products_units_in_stock_sum").isPresent(), "undated things: their stock adds up to a current total");
        assertTrue(model.metric("currencies_minor_units_sum").isEmpty() && model.metric("currencies_minor_units_avg").isEmpty());
        assertTrue(model.metric("products_list_price_sum").isEmpty());
    }

    @Test
    void noCountDistinctTwinOfASingleColumnKeyAndAnUnknownStatusIsSaid() {
        Table refunds = table("s.refunds").columns("id", "created_at:timestamp", "status:text", "amount:numeric").pk("id").build();
        SemanticModel model = new SemanticInference(n -> null).infer(new Catalog(List.of(refunds)));
        assertTrue(model.metrics().stream().noneMatch(m -> m.measure().agg() == Aggregation.COUNT_DISTINCT),
                model.metrics().toString());
        var amount = model.metric("refunds_amount_sum").orElseThrow();
        assertTrue(amount.filters().isEmpty());
        assertTrue(amount.description().contains("Spans every refunds.status (its values are unknown)"), amount.description());
    }
}
