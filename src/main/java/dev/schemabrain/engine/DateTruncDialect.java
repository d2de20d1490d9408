package dev.schemabrain.engine;

/**
 * The calendar SQL of the engines that speak PostgreSQL's: {@code date_trunc} cast back to a date (it answers a
 * timestamp), EXTRACT for numbers, and a date minus a date as whole days. A dialect family, as jOOQ has them.
 */
public interface DateTruncDialect extends Dialect {

    @Override
    default String dayOf(String x) {
        return dateTrunc("day", x);
    }

    /** date_trunc's week starts on the ISO Monday. */
    @Override
    default String weekOf(String x) {
        return dateTrunc("week", x);
    }

    @Override
    default String monthOf(String x) {
        return dateTrunc("month", x);
    }

    @Override
    default String quarterOf(String x) {
        return dateTrunc("quarter", x);
    }

    @Override
    default String yearOf(String x) {
        return dateTrunc("year", x);
    }

    @Override
    default String yearNumber(String x) {
        return "CAST(EXTRACT(YEAR FROM " + x + ") AS INTEGER)";
    }

    @Override
    default String monthNumber(String x) {
        return "CAST(EXTRACT(MONTH FROM " + x + ") AS INTEGER)";
    }

    @Override
    default String dayNumber(String x) {
        return "(CAST(" + x + " AS date) - DATE '1970-01-01')";
    }

    private static String dateTrunc(String unit, String x) {
        return "CAST(date_trunc('" + unit + "', " + x + ") AS date)";
    }
}
