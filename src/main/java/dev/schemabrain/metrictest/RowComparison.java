package dev.schemabrain.metrictest;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * equals_sql: the metric's rows against the operator's SELECT, matched by their group keys (every column but the
 * last, in the metric's column order), the last column compared as a number. A time bucket is compared as a date,
 * since each engine's date_trunc or DATE_FORMAT gives another type for the same month.
 */
final class RowComparison {

    /** The differences a failure line names; the rest are counted. */
    private static final int SHOWN = 3;
    private static final Pattern DATE = Pattern.compile("^\\d{4}-\\d{2}-\\d{2}");
    private static final String TIME_BUCKET = "time_bucket";

    private RowComparison() {
    }

    /**
     * @param columns the metric's columns: group keys, then the metric
     * @return why the two answers differ, or empty when they are the same
     */
    static Optional<String> compare(List<String> columns, List<List<Object>> metricRows, int sqlWidth,
                                    List<List<Object>> sqlRows, Optional<BigDecimal> tolerance) {
        if (sqlWidth != columns.size()) {
            return Optional.of("equals_sql returns " + sqlWidth + " column" + (sqlWidth == 1 ? "" : "s") + " where the metric"
                    + " returns " + columns.size() + " (" + String.join(", ", columns) + "); select the group keys in that"
                    + " order, then the value");
        }
        Map<List<Object>, Object> metric = byKey(columns, metricRows);
        Map<List<Object>, Object> sql = byKey(columns, sqlRows);
        if (sql.size() < sqlRows.size()) {
            return Optional.of("equals_sql returns a group more than once; group it by the same keys as the metric ("
                    + String.join(", ", columns.subList(0, columns.size() - 1)) + ")");
        }
        // The metric's order (its groups ascending), then what only equals_sql has: a SELECT without ORDER BY has none.
        Set<List<Object>> keys = new LinkedHashSet<>(metric.keySet());
        keys.addAll(sql.keySet());
        List<String> differences = new ArrayList<>();
        for (List<Object> key : keys) {
            String at = shown(columns, key);
            if (!metric.containsKey(key)) {
                differences.add(at + ": equals_sql has " + text(sql.get(key)) + ", the metric has no such group");
            } else if (!sql.containsKey(key)) {
                differences.add(at + ": the metric has " + text(metric.get(key)) + ", equals_sql has no such group");
            } else {
                difference(sql.get(key), metric.get(key), tolerance).ifPresent(d -> differences.add(at + ": " + d));
            }
        }
        if (differences.isEmpty()) {
            return Optional.empty();
        }
        String first = String.join("; ", differences.subList(0, Math.min(SHOWN, differences.size())));
        return Optional.of(differences.size() + " of " + keys.size() + " group" + (keys.size() == 1 ? "" : "s")
                + " differ from equals_sql: " + first + (differences.size() > SHOWN ? "; …" : ""));
    }

    /** How the metric's value differs from the reference, or empty when it does not. */
    static Optional<String> difference(Object expected, Object actual, Optional<BigDecimal> tolerance) {
        if (expected == null || actual == null) {
            return expected == actual ? Optional.empty() : Optional.of("expected " + text(expected) + ", got " + text(actual));
        }
        Optional<BigDecimal> e = NumberMatch.of(expected);
        Optional<BigDecimal> a = NumberMatch.of(actual);
        if (e.isPresent() && a.isPresent()) {
            return NumberMatch.same(e.get(), a.get(), tolerance) ? Optional.empty()
                    : Optional.of(NumberMatch.mismatch("expected", e.get(), "got", a.get()));
        }
        return expected.toString().equals(actual.toString()) ? Optional.empty()
                : Optional.of("expected " + text(expected) + ", got " + text(actual));
    }

    /** Each row's keys, normalized, to its value; a key seen twice keeps its first value (and shrinks the map). */
    private static Map<List<Object>, Object> byKey(List<String> columns, List<List<Object>> rows) {
        Map<List<Object>, Object> out = new LinkedHashMap<>();
        int last = columns.size() - 1;
        for (List<Object> row : rows) {
            List<Object> key = new ArrayList<>();
            for (int i = 0; i < last; i++) {
                key.add(normalized(row.get(i), columns.get(i).equals(TIME_BUCKET)));
            }
            if (!out.containsKey(key)) {
                out.put(key, row.get(last));
            }
        }
        return out;
    }

    /** A key as compared: a date's day, a number's plain digits (1 and 1.0 alike), anything else its text. */
    private static Object normalized(Object value, boolean timeBucket) {
        if (value == null) {
            return null;
        }
        String text = value.toString();
        if (timeBucket && DATE.matcher(text).find()) {
            return text.substring(0, 10);
        }
        if (value instanceof Number) {
            Optional<BigDecimal> n = NumberMatch.of(value);
            if (n.isPresent()) {
                BigDecimal d = n.get();
                return d.signum() == 0 ? "0" : d.stripTrailingZeros().toPlainString();
            }
        }
        return text;
    }

    private static String shown(List<String> columns, List<Object> key) {
        if (key.isEmpty()) {
            return "the whole answer";
        }
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < key.size(); i++) {
            parts.add(columns.get(i) + "=" + text(key.get(i)));
        }
        return String.join(", ", parts);
    }

    static String text(Object value) {
        if (value == null) {
            return "NULL";
        }
        if (value instanceof BigDecimal d) {
            return d.toPlainString();
        }
        return LocatedYaml.shown(value.toString());
    }
}
