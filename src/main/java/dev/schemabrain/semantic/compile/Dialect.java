package dev.schemabrain.semantic.compile;

import dev.schemabrain.semantic.model.TimeGrain;

/**
 * What differs between the engines the compiler writes for: identifier quoting and time buckets.
 * Every bucket is a calendar date (the first day of its day, ISO week from Monday, month, quarter or
 * year), so rows read the same on every engine.
 */
public enum Dialect {
    POSTGRESQL {
        @Override
        public String quote(String identifier) {
            return '"' + identifier.replace("\"", "\"\"") + '"';
        }

        @Override
        public String timeBucket(String expression, TimeGrain grain) {
            return "CAST(date_trunc('" + grain.wireName() + "', " + expression + ") AS date)";
        }
    },
    MYSQL {
        @Override
        public String quote(String identifier) {
            return '`' + identifier.replace("`", "``") + '`';
        }

        @Override
        public String timeBucket(String x, TimeGrain grain) {
            return switch (grain) {
                case DAY -> "DATE(" + x + ")";
                case WEEK -> "DATE_SUB(DATE(" + x + "), INTERVAL WEEKDAY(" + x + ") DAY)";
                case MONTH -> "CAST(DATE_FORMAT(" + x + ", '%Y-%m-01') AS DATE)";
                case QUARTER -> "MAKEDATE(YEAR(" + x + "), 1) + INTERVAL (QUARTER(" + x + ") - 1) QUARTER";
                case YEAR -> "MAKEDATE(YEAR(" + x + "), 1)";
            };
        }
    },
    SQLITE {
        @Override
        public String quote(String identifier) {
            return '"' + identifier.replace("\"", "\"\"") + '"';
        }

        @Override
        public String timeBucket(String x, TimeGrain grain) {
            return switch (grain) {
                case DAY -> "date(" + x + ")";
                // 'weekday 0' moves to the next Sunday (or stays on one); six days back is that week's Monday.
                case WEEK -> "date(" + x + ", 'weekday 0', '-6 days')";
                case MONTH -> "strftime('%Y-%m-01', " + x + ")";
                case QUARTER -> "printf('%s-%02d-01', strftime('%Y', " + x + "), ((CAST(strftime('%m', " + x
                        + ") AS INTEGER) - 1) / 3) * 3 + 1)";
                case YEAR -> "strftime('%Y-01-01', " + x + ")";
            };
        }
    };

    /** A quoted identifier; callers pass names taken from the catalog only. */
    public abstract String quote(String identifier);

    /** The first day of the bucket {@code expression} (a quoted column) falls in. */
    public abstract String timeBucket(String expression, TimeGrain grain);
}
