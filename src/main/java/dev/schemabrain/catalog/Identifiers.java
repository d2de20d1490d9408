package dev.schemabrain.catalog;

import java.util.Locale;

/** Small helpers over identifier spelling. */
public final class Identifiers {

    private Identifiers() {
    }

    /** {@code InvoiceLine}, {@code invoiceLine} and {@code invoice-line} all become {@code invoice_line}. */
    public static String toSnakeCase(String name) {
        String spaced = name
                .replaceAll("([a-z0-9])([A-Z])", "$1_$2")
                .replaceAll("([A-Z]+)([A-Z][a-z])", "$1_$2");
        return spaced.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_").replaceAll("^_+|_+$", "");
    }
}
