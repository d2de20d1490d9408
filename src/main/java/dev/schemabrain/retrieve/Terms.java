package dev.schemabrain.retrieve;

import dev.schemabrain.catalog.Identifiers;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Words of a question or an identifier, reduced so that "Invoices", "invoice" and "InvoiceLine"
 * meet: camel and snake case split, lower-cased, a crude plural stem, question filler dropped.
 */
public final class Terms {

    private static final Set<String> STOP = Set.of(
            "a", "an", "the", "of", "for", "with", "by", "in", "on", "and", "or", "to", "per", "each", "all", "any",
            "what", "which", "who", "whom", "how", "many", "much", "show", "list", "get", "find", "me", "is", "are",
            "was", "were", "be", "do", "does", "did", "that", "this", "their", "its", "from", "at", "as", "there",
            "have", "has", "had", "give", "tell", "table", "tables", "data", "about", "where", "when", "than");

    private Terms() {
    }

    /** Distinct terms in order of first appearance. */
    public static List<String> of(String text) {
        Set<String> terms = new LinkedHashSet<>();
        for (String word : Identifiers.toSnakeCase(text).split("_")) {
            if (word.isEmpty() || STOP.contains(word)) {
                continue;
            }
            terms.add(stem(word));
        }
        return new ArrayList<>(terms);
    }

    /** companies → company, boxes → box, orders → order; short words and -ss/-us/-is words kept. */
    static String stem(String word) {
        if (word.length() <= 3 || word.endsWith("ss") || word.endsWith("us") || word.endsWith("is")) {
            return word;
        }
        if (word.endsWith("ies") && word.length() > 4) {
            return word.substring(0, word.length() - 3) + "y";
        }
        if (word.endsWith("xes") || word.endsWith("ches") || word.endsWith("shes") || word.endsWith("sses")) {
            return word.substring(0, word.length() - 2);
        }
        if (word.endsWith("s")) {
            return word.substring(0, word.length() - 1);
        }
        return word;
    }
}
