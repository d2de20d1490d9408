package dev.schemabrain.semantic.compile;

import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.NameSyntax;
import dev.schemabrain.catalog.TypeClass;
import dev.schemabrain.engine.Dialect;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;

/**
 * Turns a filter value from JSON into the bound parameter its column's type wants, so the database
 * compares like with like: numbers for number columns, dates for date columns (as the engine's dialect
 * binds them: ISO text on SQLite), text otherwise. A value that does not fit is the caller's error.
 */
final class FilterValues {

    private FilterValues() {
    }

    /** Longer values are no filter anyone means; they are refused before they cost the database anything. */
    static final int MAX_TEXT = 1000;

    static Object bind(Dialect dialect, Column column, String reference, Object value) throws CompileException {
        if (value == null) {
            throw invalid(reference, "null", "use is_null or not_null to test for NULL");
        }
        if (value instanceof String s && (s.length() > MAX_TEXT || s.indexOf('\u0000') >= 0)) {
            throw invalid(reference, s, s.length() > MAX_TEXT ? "a filter value is at most " + MAX_TEXT + " characters"
                    : "a filter value cannot contain a NUL character");
        }
        return switch (TypeClass.of(column)) {
            case NUMBER -> number(reference, value);
            case TEMPORAL -> temporal(dialect, reference, value);
            case BOOLEAN -> bool(reference, value);
            default -> value instanceof String s ? s : String.valueOf(value);
        };
    }

    private static Object number(String reference, Object value) throws CompileException {
        if (value instanceof Long || value instanceof Integer) {
            return ((Number) value).longValue();
        }
        try {
            BigDecimal d = value instanceof Number n ? new BigDecimal(n.toString()) : new BigDecimal(String.valueOf(value).strip());
            return d.scale() <= 0 && d.abs().compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) < 0 ? (Object) d.longValueExact() : d;
        } catch (NumberFormatException | ArithmeticException e) {
            throw invalid(reference, value, "it is a number column");
        }
    }

    private static Object temporal(Dialect dialect, String reference, Object value) throws CompileException {
        String text = String.valueOf(value).strip();
        try {
            if (text.length() == 10) {
                LocalDate date = LocalDate.parse(text);
                return dialect.bind(date);
            }
            LocalDateTime time = LocalDateTime.parse(text.replace(' ', 'T'));
            return dialect.bind(time);
        } catch (DateTimeParseException e) {
            throw invalid(reference, value, "it is a date or time column: write 2024-01-31 or 2024-01-31T09:30:00");
        }
    }

    private static Object bool(String reference, Object value) throws CompileException {
        if (value instanceof Boolean b) {
            return b;
        }
        String text = String.valueOf(value).strip();
        if (text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(text);
        }
        throw invalid(reference, value, "it is a yes/no column: write true or false");
    }

    private static CompileException invalid(String reference, Object value, String why) {
        return new CompileException(Problem.INVALID_ARGUMENT, "The filter value '" + NameSyntax.excerpt(String.valueOf(value))
                + "' does not fit " + reference + ": " + why + ".", List.of());
    }
}
