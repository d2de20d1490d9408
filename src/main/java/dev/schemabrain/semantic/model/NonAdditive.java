package dev.schemabrain.semantic.model;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A semi-additive measure's snapshot axis (MRR, balances): within each time bucket only the rows at the
 * last (or first) value of {@code column} count, so a quarter is its last snapshot, never three months
 * summed. With {@code groupings} (e.g. the account) each of those picks its own last snapshot.
 */
public record NonAdditive(String column, Window window, List<String> groupings) {

    public enum Window {
        LAST, FIRST;

        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static Window fromWire(String text) {
            return valueOf(text.strip().toUpperCase(Locale.ROOT));
        }
    }

    public NonAdditive {
        Objects.requireNonNull(column, "column");
        Objects.requireNonNull(window, "window");
        groupings = List.copyOf(groupings);
    }
}
