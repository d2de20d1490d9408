package dev.schemabrain.catalog;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The English words inside an identifier: {@code custAddr}, {@code cust_addr} and {@code CUST_ADDR}
 * all read "customer address". Splits snake and camel case and letter/digit boundaries, expands common
 * database abbreviations, and, given a vocabulary, splits run-together words ({@code countrylanguage}
 * → "country language", {@code passwordhash} → "password hash"). One implementation for the describer
 * (what a column is called in its sentence) and the PII classifier (which rules its name fires), so the
 * two never read the same name differently.
 */
public final class IdentifierWords {

    /** Abbreviations common in database naming, from general practice. */
    public static final Map<String, String> ABBREVIATIONS = Map.ofEntries(
            Map.entry("qty", "quantity"), Map.entry("amt", "amount"), Map.entry("dt", "date"), Map.entry("cust", "customer"),
            Map.entry("addr", "address"), Map.entry("num", "number"), Map.entry("no", "number"), Map.entry("nbr", "number"),
            Map.entry("desc", "description"), Map.entry("descr", "description"), Map.entry("cd", "code"), Map.entry("yr", "year"),
            Map.entry("dob", "date of birth"), Map.entry("emp", "employee"), Map.entry("dept", "department"),
            Map.entry("mgr", "manager"), Map.entry("acct", "account"), Map.entry("txn", "transaction"),
            Map.entry("trans", "transaction"), Map.entry("prod", "product"), Map.entry("cnt", "count"),
            Map.entry("avg", "average"), Map.entry("pct", "percent"), Map.entry("tel", "telephone"), Map.entry("ph", "phone"),
            Map.entry("fname", "first name"), Map.entry("lname", "last name"), Map.entry("ref", "reference"),
            Map.entry("org", "organization"), Map.entry("loc", "location"), Map.entry("info", "information"),
            Map.entry("ts", "timestamp"), Map.entry("seq", "sequence"), Map.entry("max", "maximum"), Map.entry("min", "minimum"),
            Map.entry("ctry", "country"), Map.entry("curr", "currency"), Map.entry("pos", "position"),
            Map.entry("prev", "previous"), Map.entry("src", "source"), Map.entry("dest", "destination"),
            Map.entry("dst", "destination"), Map.entry("usr", "user"), Map.entry("pwd", "password"), Map.entry("bal", "balance"),
            Map.entry("pmt", "payment"), Map.entry("attr", "attribute"), Map.entry("msg", "message"), Map.entry("img", "image"),
            Map.entry("doc", "document"), Map.entry("ver", "version"), Map.entry("eff", "effective"), Map.entry("tot", "total"),
            Map.entry("stmt", "statement"), Map.entry("req", "request"), Map.entry("resp", "response"),
            Map.entry("cat", "category"), Map.entry("grp", "group"), Map.entry("mon", "month"), Map.entry("wk", "week"),
            Map.entry("hr", "hour"), Map.entry("sec", "second"), Map.entry("lat", "latitude"), Map.entry("lng", "longitude"),
            Map.entry("lon", "longitude"), Map.entry("dur", "duration"), Map.entry("cnty", "county"), Map.entry("st", "street"),
            Map.entry("sal", "salary"), Map.entry("inv", "invoice"), Map.entry("ord", "order"), Map.entry("stat", "status"),
            Map.entry("pop", "population"), Map.entry("ht", "height"), Map.entry("wt", "weight"),
            Map.entry("temp", "temperature"), Map.entry("fk", "foreign key"), Map.entry("pk", "primary key"),
            Map.entry("co", "company"), Map.entry("corp", "corporation"), Map.entry("govt", "government"),
            Map.entry("intl", "international"), Map.entry("natl", "national"), Map.entry("univ", "university"),
            Map.entry("std", "standard"), Map.entry("mgmt", "management"), Map.entry("svc", "service"),
            Map.entry("bldg", "building"), Map.entry("apt", "apartment"));

    private static final Pattern BOUNDARY = Pattern.compile(
            "(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|(?<=[A-Za-z])(?=[0-9])|(?<=[0-9])(?=[A-Za-z])");
    private static final int MIN_COMPOUND = 7;
    private static final int MIN_PIECE = 3;
    /** Endings that make a new word of a vocabulary word; longest first. */
    private static final List<String> INFLECTIONS = List.of("ings", "ers", "ies", "ing", "ed", "er", "es", "s");

    private final Set<String> vocabulary;

    /** @param vocabulary whole English words for splitting run-together identifiers; empty: no splitting */
    public IdentifierWords(Set<String> vocabulary) {
        this.vocabulary = Set.copyOf(vocabulary);
    }

    /** This splitter with more words it may split into (a classifier's own terms such as "iban" or "ssn"). */
    public IdentifierWords with(Set<String> more) {
        Set<String> all = new HashSet<>(vocabulary);
        all.addAll(more);
        return new IdentifierWords(all);
    }

    /** The splitter over {@link EnglishVocabulary}: what the describer and the classifier use. */
    public static IdentifierWords english() {
        return Holder.ENGLISH;
    }

    private static final class Holder {
        static final IdentifierWords ENGLISH = new IdentifierWords(EnglishVocabulary.words());
    }

    /** Lower-case pieces of an identifier, split at case, digit and punctuation boundaries, nothing expanded. */
    public static List<String> pieces(String identifier) {
        List<String> out = new ArrayList<>();
        for (String part : identifier.split("[^A-Za-z0-9]+")) {
            for (String w : BOUNDARY.split(part)) {
                if (!w.isEmpty()) {
                    out.add(w.toLowerCase(Locale.ROOT));
                }
            }
        }
        return out;
    }

    /** The identifier's words, abbreviations expanded and run-together words split. */
    public List<String> of(String identifier) {
        List<String> out = new ArrayList<>();
        for (String piece : pieces(identifier)) {
            String expanded = ABBREVIATIONS.get(piece);
            if (expanded != null) {
                out.addAll(Arrays.asList(expanded.split(" ")));
            } else {
                out.addAll(split(piece));
            }
        }
        return out;
    }

    /** Each piece of the identifier with the words a run-together piece splits into; nothing expanded. */
    public List<List<String>> splitPieces(String identifier) {
        return pieces(identifier).stream().map(this::split).toList();
    }

    /** The words as a phrase: "customer address". */
    public String phrase(String identifier) {
        return String.join(" ", of(identifier));
    }

    /**
     * Whether the word is a vocabulary word with an inflection or agent ending the vocabulary lacks: {@code shipper}
     * (ship + er, not "ship per"), {@code subscriptions}, {@code categories}, {@code shipped}. Such a word stays whole.
     */
    private boolean inflected(String word) {
        for (String ending : INFLECTIONS) {
            if (word.endsWith(ending) && word.length() - ending.length() >= MIN_PIECE) {
                String stem = word.substring(0, word.length() - ending.length());
                boolean doubled = stem.length() > MIN_PIECE && stem.charAt(stem.length() - 1) == stem.charAt(stem.length() - 2);
                if (vocabulary.contains(stem) || vocabulary.contains(stem + "e") || ending.equals("ies") && vocabulary.contains(stem + "y")
                        || doubled && vocabulary.contains(stem.substring(0, stem.length() - 1))) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The fewest vocabulary words of at least three letters that spell {@code word}, at most three; else the word. */
    public List<String> split(String word) {
        if (vocabulary.isEmpty() || word.length() < MIN_COMPOUND || vocabulary.contains(word) || inflected(word)
                || !word.chars().allMatch(Character::isLetter)) {
            return List.of(word);
        }
        int n = word.length();
        int[] best = new int[n + 1];
        int[] previous = new int[n + 1];
        Arrays.fill(best, Integer.MAX_VALUE);
        best[0] = 0;
        for (int i = 0; i < n; i++) {
            if (best[i] == Integer.MAX_VALUE) {
                continue;
            }
            for (int j = i + MIN_PIECE; j <= n; j++) {
                if (best[i] + 1 < best[j] && vocabulary.contains(word.substring(i, j))) {
                    best[j] = best[i] + 1;
                    previous[j] = i;
                }
            }
        }
        if (best[n] == Integer.MAX_VALUE || best[n] > 3) {
            return List.of(word);
        }
        LinkedList<String> parts = new LinkedList<>();
        for (int j = n; j > 0; j = previous[j]) {
            parts.addFirst(word.substring(previous[j], j));
        }
        return parts;
    }
}
