package dev.schemabrain.semantic.compile;

import dev.schemabrain.error.ErrorKind;
import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.Domain;
import dev.schemabrain.catalog.Fuzzy;
import dev.schemabrain.catalog.NameSyntax;
import dev.schemabrain.catalog.TypeClass;
import dev.schemabrain.engine.Dialect;
import dev.schemabrain.engine.Engines;
import dev.schemabrain.semantic.model.Filter;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Turns a filter value from JSON into the bound parameter its column's type wants, so the database
 * compares like with like: numbers for number columns, dates for date columns (as the engine's dialect
 * binds them: ISO text on SQLite), a declared label for a column with a {@link Domain}, text
 * otherwise. A value that does not fit is the caller's error, whoever wrote it: a caller, an operator's
 * YAML or an import.
 */
public final class FilterValues {

    private FilterValues() {
    }

    /** Longer values are no filter anyone means; they are refused before they cost the database anything. */
    static final int MAX_TEXT = 1000;
    /** in / not_in take at most this many values. */
    static final int MAX_LIST_VALUES = 1000;
    /** An error names at most this many of a domain's values. */
    private static final int NAMED_VALUES = 12;
    private static final Set<String> TRUE = Set.of("true", "1", "yes");
    private static final Set<String> FALSE = Set.of("false", "0", "no");

    /**
     * The dialect an apply-time check compiles in, with no source at hand: a real engine's, since the SQL is never
     * sent and what a check decides (names, joins, values that fit their columns) is the same in every engine.
     */
    static final Dialect CHECKING = Engines.POSTGRESQL;

    /**
     * Whether {@code filter} fits {@code column}: the apply-time check of a metric's default filter, the same
     * one the compiler makes, so a value outside an ENUM is refused before it is stored.
     */
    public static void check(Column column, String reference, Filter filter) throws CompileException {
        bindAll(CHECKING, column, reference, filter);
    }

    /** The filter's bound parameters in order: none for is_null/not_null, one per value otherwise. */
    static List<Object> bindAll(Dialect dialect, Column column, String reference, Filter f) throws CompileException {
        switch (f.op()) {
            case IS_NULL, NOT_NULL -> {
                return List.of();
            }
            case IN, NOT_IN -> {
                if (!(f.value() instanceof List<?> values) || values.isEmpty() || values.size() > MAX_LIST_VALUES) {
                    throw new CompileException(ErrorKind.INVALID_ARGUMENT, "The " + f.op().wireName() + " filter on "
                            + reference + " needs a list of 1 to " + MAX_LIST_VALUES + " values.", List.of());
                }
                List<Object> out = new ArrayList<>(values.size());
                for (Object v : values) {
                    out.add(bind(dialect, column, reference, v));
                }
                return out;
            }
            default -> {
                if (f.value() == null || f.value() instanceof List<?>) {
                    throw new CompileException(ErrorKind.INVALID_ARGUMENT, "The " + f.op().wireName() + " filter on "
                            + reference + " needs one value; use is_null or not_null to test for NULL.", List.of());
                }
                return List.of(bind(dialect, column, reference, f.value()));
            }
        }
    }

    static Object bind(Dialect dialect, Column column, String reference, Object value) throws CompileException {
        if (value == null) {
            throw invalid(reference, "null", "use is_null or not_null to test for NULL");
        }
        if (value instanceof String s && (s.length() > MAX_TEXT || s.indexOf('\u0000') >= 0)) {
            throw invalid(reference, s, s.length() > MAX_TEXT ? "a filter value is at most " + MAX_TEXT + " characters"
                    : "a filter value cannot contain a NUL character");
        }
        Domain domain = column.domain();
        if (domain != null && domain.kind() == Domain.Kind.BOOLEAN) {
            // tinyint(1) and a CHECK (x IN (0, 1)) flag hold 1 and 0; binding those compares like with like.
            return bool(reference, value) ? 1 : 0;
        }
        if (domain != null && domain.listed()) {
            return label(domain, reference, value);
        }
        if (domain != null) {
            // A PII-tagged column's labels are withheld: the value goes as text, cast to the type on PostgreSQL.
            return value instanceof String s ? s : String.valueOf(value);
        }
        return switch (TypeClass.of(column)) {
            case NUMBER -> number(reference, value);
            case TEMPORAL -> temporal(dialect, reference, value);
            case BOOLEAN -> bool(reference, value);
            default -> value instanceof String s ? s : String.valueOf(value);
        };
    }

    /** A value of an ENUM or CHECK list as declared (case-insensitive input); a SET's members in declared order. */
    private static String label(Domain domain, String reference, Object value) throws CompileException {
        String text = value instanceof String s ? s : String.valueOf(value);
        if (domain.kind() != Domain.Kind.SET) {
            Optional<String> declared = domain.spelling(text);
            if (declared.isEmpty()) {
                throw outside(domain, reference, text);
            }
            return declared.get();
        }
        Set<String> members = new LinkedHashSet<>();
        for (String part : text.isEmpty() ? new String[0] : text.split(",", -1)) {
            members.add(domain.spelling(part.strip()).orElseThrow(() -> outside(domain, reference, part.strip())));
        }
        return String.join(",", domain.values().stream().filter(members::contains).toList());
    }

    private static CompileException outside(Domain domain, String reference, String text) {
        List<String> values = domain.values();
        String named = values.size() <= NAMED_VALUES ? String.join(", ", values)
                : String.join(", ", values.subList(0, NAMED_VALUES)) + " and " + (values.size() - NAMED_VALUES) + " more";
        return new CompileException(ErrorKind.INVALID_ARGUMENT, "The filter value '" + NameSyntax.excerpt(text) + "' is not one of the "
                + (domain.kind() == Domain.Kind.SET ? "members" : "values") + " " + reference + " allows: " + named + ".",
                Fuzzy.best(text, values, Fuzzy.DEFAULT_LIMIT));
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

    private static boolean bool(String reference, Object value) throws CompileException {
        if (value instanceof Boolean b) {
            return b;
        }
        String text = String.valueOf(value).strip().toLowerCase(Locale.ROOT);
        if (TRUE.contains(text)) {
            return true;
        }
        if (FALSE.contains(text)) {
            return false;
        }
        throw invalid(reference, value, "it is a yes/no column: write true or false");
    }

    private static CompileException invalid(String reference, Object value, String why) {
        return new CompileException(ErrorKind.INVALID_ARGUMENT, "The filter value '" + NameSyntax.excerpt(String.valueOf(value))
                + "' does not fit " + reference + ": " + why + ".", List.of());
    }
}
