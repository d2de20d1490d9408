package dev.schemabrain.semantic.model;

import java.util.Locale;

/** The aggregate a metric's measure applies. */
public enum Aggregation {
    SUM, COUNT, COUNT_DISTINCT, AVG, MIN, MAX;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Aggregation fromWire(String text) {
        return valueOf(text.strip().toUpperCase(Locale.ROOT));
    }
}
