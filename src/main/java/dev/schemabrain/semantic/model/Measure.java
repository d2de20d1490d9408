package dev.schemabrain.semantic.model;

import java.util.Objects;

/**
 * What a metric aggregates: a column of its entity, or an arithmetic expression over the entity's
 * columns ({@code unit_price * quantity}); a count may have neither (it counts rows).
 */
public record Measure(Aggregation agg, String column, String expression) {

    public Measure {
        Objects.requireNonNull(agg, "agg");
        if (column != null && expression != null) {
            throw new IllegalArgumentException("a measure has a column or an expression, not both");
        }
        if (column == null && expression == null && agg != Aggregation.COUNT) {
            throw new IllegalArgumentException("a " + agg.wireName() + " measure needs a column or an expression");
        }
    }

    public static Measure of(Aggregation agg, String column) {
        return new Measure(agg, column, null);
    }
}
