package dev.schemabrain.mcp.args;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;

/** JSON-value helpers shared by the parser, the validator and {@link Arguments}. */
final class Values {

    /** Longer names are cut in messages: an unknown argument's name comes from the caller and may be huge. */
    static final int MAX_NAME_IN_MESSAGE = 64;

    /**
     * Numbers with more digits than this are never integers, bounds or enum values we could have
     * declared; checking them precisely would only cost time (stripTrailingZeros is quadratic).
     */
    private static final int MAX_PRECISION = 400;

    private Values() {
    }

    /** The exact value of a finite JSON number, or null when {@code v} is not one. */
    static BigDecimal decimal(Object v) {
        if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte) {
            return BigDecimal.valueOf(((Number) v).longValue());
        }
        if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            // Float via its own decimal string so that 0.1f stays 0.1.
            return Double.isFinite(d) ? new BigDecimal(v.toString()) : null;
        }
        if (v instanceof BigInteger b) {
            return new BigDecimal(b);
        }
        if (v instanceof BigDecimal b) {
            return b;
        }
        return null;
    }

    /** A JSON number with no fractional part that fits in a long; 2.0 counts, 2.5 and "2" don't. */
    static boolean isIntegral(Object v) {
        BigDecimal d = decimal(v);
        if (d == null || d.precision() > MAX_PRECISION) {
            return false;
        }
        if (d.signum() == 0) {
            return true;
        }
        BigDecimal stripped = d.stripTrailingZeros();
        return stripped.scale() <= 0 && stripped.precision() - stripped.scale() <= 19
                && stripped.compareTo(BigDecimal.valueOf(Long.MIN_VALUE)) >= 0
                && stripped.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) <= 0;
    }

    static boolean isScalar(Object v) {
        return v instanceof String || v instanceof Boolean || decimal(v) != null;
    }

    /**
     * The form enum values are compared in (seed 001: "compared by string form"), so that 1, 1.0
     * and "1" all match a declared 1. Null for values that can never match.
     */
    static String stringForm(Object v) {
        if (v instanceof String s) {
            return s;
        }
        if (v instanceof Boolean b) {
            return b.toString();
        }
        BigDecimal d = decimal(v);
        if (d == null || d.precision() > MAX_PRECISION) {
            return null;
        }
        return plain(d);
    }

    /** 1 for 1.0, 0.5 for 0.50; scientific notation only for extreme exponents, never a huge string. */
    static String plain(BigDecimal d) {
        BigDecimal s = d.signum() == 0 ? BigDecimal.ZERO : d.stripTrailingZeros();
        return Math.abs((long) s.scale()) > MAX_PRECISION ? s.toString() : s.toPlainString();
    }

    /** The value to put into a JSON document: a Long when integral, a Double otherwise. */
    static Number jsonNumber(BigDecimal d) {
        BigDecimal s = d.signum() == 0 ? BigDecimal.ZERO : d.stripTrailingZeros();
        if (s.scale() <= 0 && s.precision() - s.scale() <= 19) {
            try {
                return s.longValueExact();
            } catch (ArithmeticException outOfLongRange) {
                return s.doubleValue();
            }
        }
        return s.doubleValue();
    }

    /** A validated scalar in the form {@link Arguments} hands out and defaults are stored in. */
    static Object normalize(ArgType type, Object v) {
        return switch (type) {
            case STRING, BOOLEAN -> v;
            case SCALARS -> v instanceof List<?> list ? List.copyOf(list) : v;
            case OBJECT -> throw new IllegalArgumentException("an object is normalized field by field, with its declaration");
            case ENUM -> stringForm(v);
            case INTEGER -> decimal(v).longValueExact();
            case NUMBER -> decimal(v).doubleValue();
        };
    }

    /**
     * An argument name fit for a message: at most 64 code points then "…", control characters
     * replaced, so a caller-supplied name can't bloat or break the message.
     */
    static String displayName(String name) {
        int cut = name.codePointCount(0, name.length()) > MAX_NAME_IN_MESSAGE
                ? name.offsetByCodePoints(0, MAX_NAME_IN_MESSAGE) : name.length();
        StringBuilder out = new StringBuilder(cut + 1);
        name.substring(0, cut).codePoints()
                .forEach(c -> out.appendCodePoint(Character.isISOControl(c) ? '?' : c));
        return cut < name.length() ? out.append('…').toString() : out.toString();
    }
}
