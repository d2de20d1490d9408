package dev.schemabrain.semantic.model;

import java.util.Objects;

/**
 * What a metric aggregates: a column of its entity, or an expression over its columns and its many-to-one
 * parents' ({@code unit_price * quantity}, {@code amount_cents * fx_rate.usd_per_unit}, a CASE); a count may
 * have neither (it counts rows). {@code nonAdditive}, when set, makes it a snapshot measure.
 */
public record Measure(Aggregation agg, String column, String expression, NonAdditive nonAdditive) {

    public Measure {
        Objects.requireNonNull(agg, "agg");
        if (column != null && expression != null) {
            throw new IllegalArgumentException("a measure has a column or an expression, not both");
        }
        if (column == null && expression == null && agg != Aggregation.COUNT) {
            throw new IllegalArgumentException("a " + agg.wireName() + " measure needs a column or an expression");
        }
    }

    public Measure(Aggregation agg, String column, String expression) {
        this(agg, column, expression, null);
    }

    public static Measure of(Aggregation agg, String column) {
        return new Measure(agg, column, null, null);
    }
}
