package dev.schemabrain.semantic.model;

import java.util.Locale;
import java.util.Objects;

/**
 * What a metric is made of (SPEC §11.3): a measure over its entity's rows ({@link Simple}), or other
 * metrics combined — a quotient ({@link Ratio}), arithmetic ({@link Derived}), or a running total or
 * trailing window over the time axis ({@link Cumulative}).
 */
public sealed interface MetricKind {

    Simple SIMPLE = new Simple();

    /** The YAML's {@code type}. */
    String wireName();

    /** An aggregate of the metric's own measure. */
    record Simple() implements MetricKind {
        @Override
        public String wireName() {
            return "simple";
        }
    }

    /** numerator / denominator, both metric names; a zero denominator gives no value, never an error. */
    record Ratio(String numerator, String denominator) implements MetricKind {
        public Ratio {
            Objects.requireNonNull(numerator, "numerator");
            Objects.requireNonNull(denominator, "denominator");
        }

        @Override
        public String wireName() {
            return "ratio";
        }
    }

    /** Arithmetic over other metrics by name ({@code paid_payments - succeeded_refunds}), in the measure grammar. */
    record Derived(String expression) implements MetricKind {
        public Derived {
            Objects.requireNonNull(expression, "expression");
        }

        @Override
        public String wireName() {
            return "derived";
        }
    }

    /**
     * A running total of {@code metric} over the time axis: from the beginning ({@code window} and
     * {@code grainToDate} null), over the last {@code window} buckets of {@code windowGrain}, or since the start
     * of each {@code grainToDate} period (year to date).
     */
    record Cumulative(String metric, Integer window, TimeGrain windowGrain, TimeGrain grainToDate) implements MetricKind {
        public Cumulative {
            Objects.requireNonNull(metric, "metric");
            if (window != null && (window < 1 || windowGrain == null)) {
                throw new IllegalArgumentException("a cumulative window needs a count of at least 1 and a grain");
            }
            if (window != null && grainToDate != null) {
                throw new IllegalArgumentException("a cumulative metric has a window or grain_to_date, not both");
            }
        }

        @Override
        public String wireName() {
            return "cumulative";
        }
    }

    static String names() {
        return "simple, ratio, derived, cumulative";
    }

    static String normal(String text) {
        return text.strip().toLowerCase(Locale.ROOT);
    }
}
