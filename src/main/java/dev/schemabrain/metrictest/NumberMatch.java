package dev.schemabrain.metrictest;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Optional;

/**
 * When two numbers of a metric test count as the same: within the operator's absolute tolerance when one is given;
 * otherwise exactly when both are whole (a count, a sum of cents), and within a relative 1e-9 when either has a
 * fraction, so a float sum that the database adds in another order still matches.
 */
final class NumberMatch {

    static final BigDecimal RELATIVE = new BigDecimal("1e-9");

    private NumberMatch() {
    }

    /** The exact value of a number the executor returned (Long, BigDecimal, Double), or of numeric text. */
    static Optional<BigDecimal> of(Object value) {
        if (value instanceof BigDecimal d) {
            return Optional.of(d);
        }
        if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return Optional.of(BigDecimal.valueOf(((Number) value).longValue()));
        }
        if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            return Double.isFinite(d) ? Optional.of(new BigDecimal(value.toString())) : Optional.empty();
        }
        if (value instanceof String s) {
            try {
                return Optional.of(new BigDecimal(s.strip()));
            } catch (NumberFormatException notNumeric) {
                return Optional.empty();
            }
        }
        return Optional.empty();
    }

    static boolean same(BigDecimal expected, BigDecimal actual, Optional<BigDecimal> tolerance) {
        BigDecimal difference = actual.subtract(expected).abs();
        if (tolerance.isPresent()) {
            return difference.compareTo(tolerance.get()) <= 0;
        }
        if (whole(expected) && whole(actual)) {
            return difference.signum() == 0;
        }
        BigDecimal scale = expected.abs().max(actual.abs());
        return difference.compareTo(scale.multiply(RELATIVE, MathContext.DECIMAL64)) <= 0;
    }

    /** {@code expected 12345.67, got 12000.00 (difference 345.67)}, each as written or returned. */
    static String mismatch(String expectedLabel, BigDecimal expected, String actualLabel, BigDecimal actual) {
        return expectedLabel + " " + expected.toPlainString() + ", " + actualLabel + " " + actual.toPlainString()
                + " (difference " + actual.subtract(expected).abs().toPlainString() + ")";
    }

    private static boolean whole(BigDecimal d) {
        return d.signum() == 0 || d.stripTrailingZeros().scale() <= 0;
    }
}
