package dev.schemabrain.engine;

import dev.schemabrain.catalog.QualifiedName;

import java.time.LocalDate;
import java.time.LocalDateTime;

/**
 * The SQL that differs between engines where the compiler writes it: identifier quoting, calendar
 * buckets and how a date is bound. Every bucket is a calendar date (the first day of its day, ISO week
 * from Monday, month, quarter or year), so rows read the same on every engine.
 */
public interface Dialect {

    /** A quoted identifier (ANSI double quotes unless the engine says otherwise); callers pass names from the catalog only. */
    default String quote(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }

    /** A table's quoted, schema-qualified name. SQLite's schema is the attached database's name ("main"), which it accepts too. */
    default String qualified(QualifiedName name) {
        return quote(name.schema()) + "." + quote(name.table());
    }

    /** The date of {@code x} (a quoted column). */
    String dayOf(String x);

    /** The Monday of the ISO week {@code x} falls in. */
    String weekOf(String x);

    String monthOf(String x);

    String quarterOf(String x);

    String yearOf(String x);

    /** The calendar year of the date {@code x}, as an integer. */
    String yearNumber(String x);

    /** The month (1 to 12) of the date {@code x}, as an integer. */
    String monthNumber(String x);

    /** Days from 1970-01-01 to the date {@code x}, as an integer: consecutive days are consecutive numbers. */
    String dayNumber(String x);

    /** A date filter value as the driver should bind it. */
    default Object bind(LocalDate date) {
        return date;
    }

    /** A timestamp filter value as the driver should bind it. */
    default Object bind(LocalDateTime time) {
        return time;
    }

    /**
     * {@code sql} (a placeholder or a quoted column) as the engine's own type {@code typeName} ({@code schema.type}),
     * where the engine compares a value with such a column only in that type; unchanged elsewhere.
     */
    default String cast(String sql, String typeName) {
        return sql;
    }

    /** The placeholder of a value compared with a column of the engine's own type {@code typeName}. */
    default String castParameter(String typeName) {
        return cast("?", typeName);
    }
}
