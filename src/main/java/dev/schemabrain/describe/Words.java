package dev.schemabrain.describe;

import dev.schemabrain.catalog.IdentifierWords;

import java.util.List;
import java.util.Set;

/**
 * The describer's view of {@link IdentifierWords} (where the splitting lives, shared with the PII classifier):
 * {@code custAddr}, {@code cust_addr} and {@code CUST_ADDR} all read "customer address".
 */
public final class Words {

    private final IdentifierWords words;
    private final Set<String> vocabulary;

    /** @param vocabulary whole English words for splitting run-together identifiers; empty: no splitting */
    public Words(Set<String> vocabulary) {
        this.words = new IdentifierWords(vocabulary);
        this.vocabulary = vocabulary;
    }

    Set<String> vocabulary() {
        return vocabulary;
    }

    /** Lower-case pieces of an identifier, split at case, digit and punctuation boundaries, nothing expanded. */
    public static List<String> pieces(String identifier) {
        return IdentifierWords.pieces(identifier);
    }

    /** The identifier's words, abbreviations expanded and run-together words split. */
    public List<String> of(String identifier) {
        return words.of(identifier);
    }

    /** The words as a phrase: "customer address". */
    public String phrase(String identifier) {
        return words.phrase(identifier);
    }

    List<String> split(String word) {
        return words.split(word);
    }
}
