package dev.schemabrain.semantic.model;

import java.util.Locale;

/** The calendar buckets a metric can be grouped by. */
public enum TimeGrain {
    DAY, WEEK, MONTH, QUARTER, YEAR;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static TimeGrain fromWire(String text) {
        return valueOf(text.strip().toUpperCase(Locale.ROOT));
    }
}
