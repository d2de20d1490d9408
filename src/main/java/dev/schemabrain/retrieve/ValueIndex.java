package dev.schemabrain.retrieve;

import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.Table;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The stored column values as phrases (retrieval v2): a question's word n-grams are looked up whole, case- and
 * accent-insensitively ("koln" finds "Köln"), longest first, so "heavy metal" is one match and not also "metal".
 * Guards against common words: a one-word value is not matched when the word is short, a stop or question word, or
 * a word of the schema's own names (the lexical signal already has it), and a phrase held by many tables says
 * nothing about which one is meant. Only values the question spells out are ever returned, and a question naming
 * more values than {@link #MAX_MATCHES} is treated as a list, not a question: it matches none, so the index cannot
 * be used to test a list of guesses.
 */
final class ValueIndex {

    /** Longest value phrase looked up, in words. */
    static final int MAX_WORDS = 6;
    /** A question naming more distinct values than this is a value list: nothing is matched. */
    static final int MAX_MATCHES = 6;
    /** A phrase held by more tables than this is too common to point at one. */
    static final int MAX_TABLES = 3;
    /** Words of a question are read up to here; the rest is ignored (the tool takes 1,000 characters). */
    static final int MAX_QUESTION_WORDS = 200;
    private static final Pattern MARKS = Pattern.compile("\\p{M}+");
    private static final Pattern LIST = Pattern.compile("[,;|/&]");
    private static final Pattern NOT_WORD = Pattern.compile("[^\\p{L}\\p{N}]+");
    private static final Set<String> COMMON = Set.of("a", "an", "and", "are", "as", "at", "be", "but", "by", "for",
            "if", "in", "into", "is", "it", "no", "not", "of", "on", "or", "such", "that", "the", "their", "then",
            "there", "these", "they", "this", "to", "was", "will", "with", "how", "many", "much", "what", "which",
            "who", "whom", "whose", "where", "when", "why", "do", "does", "did", "we", "you", "have", "has", "had",
            "list", "show", "give", "find", "return", "tell", "me", "our", "all", "each", "every", "any", "some",
            "can", "could", "would", "should", "get", "also", "than", "those", "number", "count", "total", "average",
            "most", "least", "more", "less", "top", "per", "name", "names", "yes", "true", "false", "none", "null",
            "other", "unknown", "new", "old", "first", "last", "from", "about", "between", "after", "before");

    /** One stored value: the table and column that hold it. */
    record Holder(int table, int column, String value) {
    }

    /** A question phrase that names a stored value. */
    record Match(Holder holder, int words) {
    }

    private final Map<String, List<Holder>> byPhrase = new HashMap<>();
    private final Set<String> schemaWords = new HashSet<>();

    ValueIndex(List<Table> tables, List<Set<String>> nameWords) {
        nameWords.forEach(schemaWords::addAll);
        for (int t = 0; t < tables.size(); t++) {
            List<Column> columns = tables.get(t).columns();
            for (int c = 0; c < columns.size(); c++) {
                for (String value : columns.get(c).values()) {
                    add(t, c, value);
                    // A list in one value ("Steven Tyler, Joe Perry"): each item of two words or more is a value too,
                    // and only that item is ever shown.
                    String[] items = LIST.split(value);
                    for (int i = 0; items.length > 1 && i < items.length; i++) {
                        if (words(items[i]).size() >= 2) {
                            add(t, c, items[i].strip());
                        }
                    }
                }
            }
        }
    }

    private void add(int table, int column, String value) {
        String phrase = String.join(" ", words(value));
        if (phrase.isEmpty()) {
            return;
        }
        List<Holder> holders = byPhrase.computeIfAbsent(phrase, k -> new ArrayList<>(1));
        if (holders.stream().noneMatch(h -> h.table() == table && h.column() == column)) {
            holders.add(new Holder(table, column, value));
        }
    }

    boolean isEmpty() {
        return byPhrase.isEmpty();
    }

    /** Lower case, accents removed, split on anything that is not a letter or digit. */
    static List<String> words(String text) {
        String folded = MARKS.matcher(Normalizer.normalize(text, Normalizer.Form.NFD)).replaceAll("").toLowerCase(Locale.ROOT);
        List<String> out = new ArrayList<>();
        for (String w : NOT_WORD.split(folded)) {
            if (!w.isEmpty()) {
                out.add(w);
            }
        }
        return out;
    }

    /** The values the question names, longest phrases first; empty when it names none or too many. */
    List<Match> match(String question) {
        if (byPhrase.isEmpty()) {
            return List.of();
        }
        List<String> words = words(question);
        if (words.size() > MAX_QUESTION_WORDS) {
            words = words.subList(0, MAX_QUESTION_WORDS);
        }
        boolean[] used = new boolean[words.size()];
        List<Match> matches = new ArrayList<>();
        Set<String> phrases = new HashSet<>();
        for (int n = Math.min(MAX_WORDS, words.size()); n >= 1; n--) {
            for (int i = 0; i + n <= words.size(); i++) {
                if (anyUsed(used, i, n)) {
                    continue;
                }
                String phrase = String.join(" ", words.subList(i, i + n));
                List<Holder> holders = byPhrase.get(phrase);
                if (holders == null || tables(holders) > MAX_TABLES || (n == 1 && common(phrase))) {
                    continue;
                }
                for (int k = i; k < i + n; k++) {
                    used[k] = true;
                }
                if (phrases.add(phrase) && phrases.size() > MAX_MATCHES) {
                    return List.of();
                }
                for (Holder h : holders) {
                    matches.add(new Match(h, n));
                }
            }
        }
        return matches;
    }

    private boolean common(String word) {
        return word.length() < 3 || COMMON.contains(word) || schemaWords.contains(word)
                || schemaWords.contains(word.endsWith("s") ? word.substring(0, word.length() - 1) : word + "s");
    }

    private static long tables(List<Holder> holders) {
        return holders.stream().mapToInt(Holder::table).distinct().count();
    }

    private static boolean anyUsed(boolean[] used, int from, int n) {
        for (int k = from; k < from + n; k++) {
            if (used[k]) {
                return true;
            }
        }
        return false;
    }
}
