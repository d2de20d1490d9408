package dev.schemabrain.semantic.model;

import java.util.Objects;
import java.util.function.Function;

/**
 * What a metric is made of: a measure over its entity's rows ({@link Simple}), or other
 * metrics combined — a quotient ({@link Ratio}), arithmetic ({@link Derived}), or a running total or
 * trailing window over the time axis ({@link Cumulative}).
 */
public sealed interface MetricKind {

    Simple SIMPLE = new Simple();

    /** The YAML's {@code type}. */
    String wireName();

    /**
     * What to do with each kind. Code that branches on the kind goes through here, so a new kind does not compile
     * until every such place says what it does with it.
     */
    interface Cases<R> {
        R simple(Simple s);

        R ratio(Ratio r);

        R derived(Derived d);

        R cumulative(Cumulative c);

        /** The cases as one function each, in the order above. */
        static <R> Cases<R> of(Function<Simple, R> simple, Function<Ratio, R> ratio, Function<Derived, R> derived,
                               Function<Cumulative, R> cumulative) {
            return new Cases<>() {
                @Override
                public R simple(Simple s) {
                    return simple.apply(s);
                }

                @Override
                public R ratio(Ratio r) {
                    return ratio.apply(r);
                }

                @Override
                public R derived(Derived d) {
                    return derived.apply(d);
                }

                @Override
                public R cumulative(Cumulative c) {
                    return cumulative.apply(c);
                }
            };
        }
    }

    <R> R accept(Cases<R> cases);

    /** An aggregate of the metric's own measure, not a combination of other metrics. */
    default boolean isSimple() {
        return false;
    }

    /** An aggregate of the metric's own measure. */
    record Simple() implements MetricKind {
        @Override
        public String wireName() {
            return "simple";
        }

        @Override
        public boolean isSimple() {
            return true;
        }

        @Override
        public <R> R accept(Cases<R> cases) {
            return cases.simple(this);
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

        @Override
        public <R> R accept(Cases<R> cases) {
            return cases.ratio(this);
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

        @Override
        public <R> R accept(Cases<R> cases) {
            return cases.derived(this);
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

        @Override
        public <R> R accept(Cases<R> cases) {
            return cases.cumulative(this);
        }
    }

    static String names() {
        return "simple, ratio, derived, cumulative";
    }
}
