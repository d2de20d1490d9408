package dev.schemabrain.catalog;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/** Small helpers over identifier spelling. */
public final class Identifiers {

    // Compiled once: a metric's compile spells every column of its entity's table this way, per call.
    private static final Pattern LOWER_THEN_UPPER = Pattern.compile("([a-z0-9])([A-Z])");
    private static final Pattern UPPER_RUN_THEN_WORD = Pattern.compile("([A-Z]+)([A-Z][a-z])");
    private static final Pattern NOT_ALNUM = Pattern.compile("[^a-z0-9]+");
    private static final Pattern EDGE_UNDERSCORES = Pattern.compile("^_+|_+$");

    private Identifiers() {
    }

    /** {@code InvoiceLine}, {@code invoiceLine} and {@code invoice-line} all become {@code invoice_line}. */
    public static String toSnakeCase(String name) {
        String spaced = UPPER_RUN_THEN_WORD.matcher(LOWER_THEN_UPPER.matcher(name).replaceAll("$1_$2")).replaceAll("$1_$2");
        return snake(spaced.toLowerCase(Locale.ROOT));
    }

    /** Runs of anything but a-z and 0-9 as one underscore, none at either end: {@code lower} is lower-case already. */
    private static String snake(String lower) {
        return EDGE_UNDERSCORES.matcher(NOT_ALNUM.matcher(lower).replaceAll("_")).replaceAll("");
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
