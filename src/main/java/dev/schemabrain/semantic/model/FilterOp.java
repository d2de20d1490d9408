package dev.schemabrain.semantic.model;

import java.util.Locale;

/** Filter operators. */
public enum FilterOp {
    EQ, NE, LT, LTE, GT, GTE, IN, NOT_IN, IS_NULL, NOT_NULL;

    /** Whether the operator takes a value; {@code in} and {@code not_in} take a non-empty list. */
    public boolean takesValue() {
        return this != IS_NULL && this != NOT_NULL;
    }

    /** Whether the operator may compare two columns (a list or a null test cannot). */
    public boolean comparesColumns() {
        return takesValue() && !takesList();
    }

    public boolean takesList() {
        return this == IN || this == NOT_IN;
    }

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static FilterOp fromWire(String text) {
        return valueOf(text.strip().toUpperCase(Locale.ROOT));
    }
}
