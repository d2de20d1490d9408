package dev.schemabrain.catalog;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The values a column may hold, as its database declares them: a PostgreSQL ENUM or a
 * domain over one, a MySQL/MariaDB {@code ENUM}/{@code SET}, a {@code tinyint(1)} boolean, or a
 * {@code CHECK (x IN (…))} list. A column with a domain is a categorical (or yes/no) dimension, never a
 * number, and a filter value outside it is the caller's error.
 *
 * @param kind     where the domain comes from
 * @param typeName the engine's own type a bound value must be cast to (PostgreSQL {@code "schema"."type"}
 *                 parts as {@code schema.type}), or null when the engine compares plain text
 * @param values   the allowed values in declared order; empty for {@link Kind#BOOLEAN}
 */
public record Domain(Kind kind, String typeName, List<String> values) {

    public enum Kind {
        ENUM, SET, BOOLEAN, CHECK;

        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static Kind fromWireName(String wire) {
            return valueOf(wire.toUpperCase(Locale.ROOT));
        }
    }

    public Domain {
        Objects.requireNonNull(kind, "kind");
        values = values == null ? List.of() : List.copyOf(values);
    }

    /** A yes/no column that its engine stores as a small integer (MySQL {@code tinyint(1)}). */
    public static final Domain BOOLEAN = new Domain(Kind.BOOLEAN, null, List.of());

    private static final Pattern TINYINT_1 = Pattern.compile("(?i)tinyint\\s*\\(\\s*1\\s*\\)(\\s+unsigned)?(\\s+zerofill)?");

    /** The same kind and type without the labels, for a PII-tagged column (see {@link Column#withoutData()}). */
    public Domain withoutValues() {
        return values.isEmpty() ? this : new Domain(kind, typeName, List.of());
    }

    /** Whether the labels are known: a tagged column's are withheld, and then no value can be checked against them. */
    public boolean listed() {
        return !values.isEmpty();
    }

    public boolean categorical() {
        return kind != Kind.BOOLEAN;
    }

    /**
     * The domain a MySQL/MariaDB {@code COLUMN_TYPE} declares: {@code enum('a','b')} and {@code set(…)}
     * with their labels (a quote inside a label is doubled), {@code tinyint(1)} as a boolean; empty for
     * any other type.
     */
    public static Optional<Domain> ofMySqlColumnType(String columnType) {
        if (columnType == null) {
            return Optional.empty();
        }
        String t = columnType.strip();
        if (TINYINT_1.matcher(t).matches()) {
            return Optional.of(BOOLEAN);
        }
        String lower = t.toLowerCase(Locale.ROOT);
        Kind kind = lower.startsWith("enum") ? Kind.ENUM : lower.startsWith("set") ? Kind.SET : null;
        if (kind == null) {
            return Optional.empty();
        }
        int open = t.indexOf('(');
        if (open < 0 || !t.substring(kind == Kind.ENUM ? 4 : 3, open).isBlank() || !t.endsWith(")")) {
            return Optional.empty();
        }
        return quotedList(t.substring(open + 1, t.length() - 1)).map(v -> new Domain(kind, null, v));
    }

    /** {@code 'a','it''s'} as its labels, or empty when it is not a list of quoted strings. */
    static Optional<List<String>> quotedList(String body) {
        List<String> labels = new ArrayList<>();
        int i = 0;
        int n = body.length();
        while (true) {
            while (i < n && Character.isWhitespace(body.charAt(i))) {
                i++;
            }
            if (i >= n || body.charAt(i) != '\'') {
                return Optional.empty();
            }
            StringBuilder label = new StringBuilder();
            i++;
            while (true) {
                if (i >= n) {
                    return Optional.empty();
                }
                char c = body.charAt(i);
                if (c == '\'' && i + 1 < n && body.charAt(i + 1) == '\'') {
                    label.append('\'');
                    i += 2;
                } else if (c == '\'') {
                    i++;
                    break;
                } else {
                    label.append(c);
                    i++;
                }
            }
            labels.add(label.toString());
            while (i < n && Character.isWhitespace(body.charAt(i))) {
                i++;
            }
            if (i >= n) {
                return labels.isEmpty() ? Optional.empty() : Optional.of(labels);
            }
            if (body.charAt(i) != ',') {
                return Optional.empty();
            }
            i++;
        }
    }

    /** The declared spelling of {@code value} when it is in the domain, matching case-insensitively; empty if not. */
    public Optional<String> spelling(String value) {
        for (String v : values) {
            if (v.equals(value)) {
                return Optional.of(v);
            }
        }
        for (String v : values) {
            if (v.equalsIgnoreCase(value)) {
                return Optional.of(v);
            }
        }
        return Optional.empty();
    }
}
