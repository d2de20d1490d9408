package dev.schemabrain.semantic.model;

import java.util.Locale;

/** How many target rows one source row meets across a join, and the reverse. */
public enum Cardinality {
    ONE_TO_ONE, ONE_TO_MANY, MANY_TO_ONE, MANY_TO_MANY;

    /** The same join walked from its target to its source. */
    public Cardinality reversed() {
        return switch (this) {
            case ONE_TO_MANY -> MANY_TO_ONE;
            case MANY_TO_ONE -> ONE_TO_MANY;
            default -> this;
        };
    }

    /** Whether walking this way can repeat a source row (and so inflate its aggregates). */
    public boolean fansOut() {
        return this == ONE_TO_MANY || this == MANY_TO_MANY;
    }

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Cardinality fromWire(String text) {
        return valueOf(text.strip().toUpperCase(Locale.ROOT));
    }
}
