package dev.schemabrain.catalog;

import java.util.ArrayList;
import java.util.List;
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

    /** The lower-case words of an identifier: {@code billingEmail} and {@code billing_email} → [billing, email]. */
    public static List<String> words(String name) {
        List<String> out = new ArrayList<>();
        for (String w : toSnakeCase(name).split("_")) {
            if (!w.isEmpty()) {
                out.add(w);
            }
        }
        return out;
    }

    /**
     * A plural English word's singular by spelling alone ({@code customers}, {@code companies}, {@code boxes}); words
     * that are their own plural here ({@code people}, {@code staff}) and short words stay as they are.
     */
    public static String singular(String word) {
        if (word.equals("people") || word.equals("staff")) {
            return word;
        }
        if (word.endsWith("ies") && word.length() > 4) {
            return word.substring(0, word.length() - 3) + "y";
        }
        if (word.endsWith("ses") || word.endsWith("xes") || word.endsWith("ches") || word.endsWith("shes")) {
            return word.substring(0, word.length() - 2);
        }
        return word.endsWith("s") && !word.endsWith("ss") && word.length() > 3 ? word.substring(0, word.length() - 1) : word;
    }
}
