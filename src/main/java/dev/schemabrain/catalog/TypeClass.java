package dev.schemabrain.catalog;

import java.util.Locale;

/** The broad class of a column's declared type, across engines' spellings. */
public enum TypeClass {
    TEMPORAL, BOOLEAN, NUMBER, TEXT, OTHER;

    public static TypeClass of(String dataType) {
        String t = dataType == null ? "" : dataType.toLowerCase(Locale.ROOT);
        if (t.matches(".*(date|time).*")) {
            return TEMPORAL;
        }
        if (t.matches(".*(bool|bit).*")) {
            return BOOLEAN;
        }
        if (t.matches(".*(int|num|dec|real|float|double|money|serial).*") || t.equals("number")) {
            return NUMBER;
        }
        if (t.matches(".*(char|text|string|clob|uuid|json|enum).*")) {
            return TEXT;
        }
        return OTHER;
    }
}
