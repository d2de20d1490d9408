package dev.schemabrain.catalog;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The broad class of a column's declared type, across engines' spellings. Names are matched as whole
 * words of the type ({@code billing_interval} is a user type, not an integer; {@code enum('a','b')} is
 * categorical, not a number), and a declared {@link Domain} decides before the name does.
 */
public enum TypeClass {
    TEMPORAL, BOOLEAN, NUMBER, TEXT, CATEGORICAL, OTHER;

    private static final Pattern WORDS = Pattern.compile("[\\s(),]+");
    private static final Pattern TINYINT_ONE = Pattern.compile("tinyint\\s*\\(\\s*1\\s*\\).*");
    private static final Pattern SIZED_NUMBER = Pattern.compile("(u?int|float|decimal|numeric)\\d+");
    private static final Pattern ANY_INT = Pattern.compile("[a-z ]*int[a-z ]*");
    private static final Pattern BIT_ONE = Pattern.compile("bit(\\s*\\(\\s*1\\s*\\))?");
    private static final Set<String> BOOLEANS = Set.of("bool", "boolean");
    private static final Set<String> TEXTS = Set.of("char", "character", "varchar", "nchar", "nvarchar", "varchar2",
            "nvarchar2", "text", "tinytext", "mediumtext", "longtext", "ntext", "string", "clob", "nclob", "uuid", "json",
            "jsonb", "citext", "name", "bpchar", "xml", "uniqueidentifier");
    private static final Set<String> NUMBERS = Set.of("int", "integer", "int2", "int4", "int8", "smallint", "bigint",
            "tinyint", "mediumint", "serial", "serial2", "serial4", "serial8", "smallserial", "bigserial", "numeric",
            "decimal", "dec", "real", "float", "float4", "float8", "double", "money", "smallmoney", "number", "fixed",
            "hugeint", "ubigint", "uinteger", "usmallint", "utinyint", "uhugeint");

    /** The class of a column: its domain's, else its type name's. */
    public static TypeClass of(Column column) {
        if (column.domain() != null) {
            return column.domain().categorical() ? CATEGORICAL : BOOLEAN;
        }
        return of(column.dataType());
    }

    public static TypeClass of(String dataType) {
        String t = dataType == null ? "" : dataType.strip().toLowerCase(Locale.ROOT);
        // An array (PostgreSQL integer[], text[]) is none of the scalar classes a filter or a measure needs.
        if (t.endsWith("]")) {
            return OTHER;
        }
        if (t.startsWith("enum(") || t.startsWith("enum (") || t.startsWith("set(") || t.equals("enum")) {
            return CATEGORICAL;
        }
        if (TINYINT_ONE.matcher(t).matches() || BIT_ONE.matcher(t).matches()) {
            return BOOLEAN;
        }
        String[] words = WORDS.split(t);
        for (String w : words) {
            if (w.equals("date") || w.equals("time") || w.equals("timetz") || w.startsWith("timestamp")
                    || w.startsWith("datetime") || w.equals("smalldatetime")) {
                return TEMPORAL;
            }
        }
        for (String w : words) {
            if (BOOLEANS.contains(w)) {
                return BOOLEAN;
            }
        }
        for (String w : words) {
            if (NUMBERS.contains(w) || SIZED_NUMBER.matcher(w).matches()) {
                return NUMBER;
            }
        }
        for (String w : words) {
            if (TEXTS.contains(w) || w.startsWith("varchar") || w.startsWith("char")) {
                return TEXT;
            }
        }
        // SQLite's affinity rules: a declared type containing INT is an integer, CHAR/CLOB/TEXT text, REAL/FLOA/DOUB real.
        if (ANY_INT.matcher(t).matches() && !t.contains("interval") && !t.contains("point")) {
            return NUMBER;
        }
        return OTHER;
    }
}
