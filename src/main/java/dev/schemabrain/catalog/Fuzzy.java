package dev.schemabrain.catalog;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * "Did you mean" suggestions: the few names closest to what a caller typed.
 *
 * <p>Similarity is case-insensitive and mixes two measures, because each misses what the other
 * catches: a normalized Damerau–Levenshtein (optimal string alignment) similarity rewards small
 * typos and transpositions ({@code albm}, {@code cutsomer}), character-trigram Dice similarity
 * rewards shared pieces regardless of where they sit ({@code invoiceline} vs {@code invoice_line}).
 * A prefix or trailing piece ({@code emp}, {@code total} for {@code total_cents}) also scores, since
 * edit distance alone punishes abbreviations by their missing length.
 * Each candidate may be known by several keys (a table by {@code schema.table} and by its bare
 * name) and scores its best key, so {@code albums} finds {@code public.album}.
 *
 * <p>A minimum score keeps garbage from producing suggestions. Order is deterministic: score
 * descending, then name. An index is immutable and safe to share between threads.
 */
public final class Fuzzy {

    /** Up to this many suggestions by default. */
    public static final int DEFAULT_LIMIT = 3;
    /** Below this a candidate is not worth suggesting. */
    public static final double MIN_SCORE = 0.5;

    private static final double EDIT_WEIGHT = 0.5;
    private static final double TRIGRAM_WEIGHT = 0.5;
    private static final int AFFIX_MIN_LENGTH = 3;
    private static final double AFFIX_BASE = 0.55;
    private static final double AFFIX_SPAN = 0.4;
    /** Pads the ends so that first and last characters take part in as many trigrams as the middle. */
    private static final char PAD = '\u0001';

    /** One suggestion. */
    public record Match(String name, double score) {
    }

    /** Something to suggest, shown as {@code name}, compared under each of its {@code keys}. */
    public record Candidate(String name, List<String> keys) {
        public Candidate {
            Objects.requireNonNull(name, "name");
            keys = List.copyOf(keys);
            if (keys.isEmpty()) {
                throw new IllegalArgumentException("a candidate needs at least one key");
            }
        }

        public static Candidate of(String name) {
            return new Candidate(name, List.of(name));
        }
    }

    /** A lower-cased key with its sorted, distinct trigram codes, computed once. */
    private record Key(String text, long[] trigrams) {
    }

    private record Entry(String name, Key[] keys) {
    }

    private final Entry[] entries;

    private Fuzzy(Entry[] entries) {
        this.entries = entries;
    }

    public static Fuzzy over(Collection<Candidate> candidates) {
        Entry[] entries = candidates.stream()
                .map(c -> new Entry(c.name(), c.keys().stream()
                        .map(k -> k.toLowerCase(Locale.ROOT)).distinct().map(Fuzzy::key).toArray(Key[]::new)))
                .toArray(Entry[]::new);
        return new Fuzzy(entries);
    }

    /** Candidates known by their own name only. */
    public static Fuzzy overNames(Collection<String> names) {
        return over(names.stream().distinct().map(Candidate::of).toList());
    }

    /** One-off convenience: the best {@code limit} of {@code names} for {@code query}. */
    public static List<String> best(String query, Collection<String> names, int limit) {
        return overNames(names).matches(query, limit).stream().map(Match::name).toList();
    }

    /** The names of the best matches, at most {@code limit}. */
    public List<String> best(String query, int limit) {
        return matches(query, limit).stream().map(Match::name).toList();
    }

    /** The best matches with their scores, at most {@code limit}, score descending then name. */
    public List<Match> matches(String query, int limit) {
        if (query == null || query.isBlank() || limit <= 0) {
            return List.of();
        }
        Key q = key(query.strip());
        // A small sorted list is enough: limit is tiny (3) and it lets us prune against the worst kept.
        List<Match> kept = new ArrayList<>(limit + 1);
        Comparator<Match> order = Comparator.comparingDouble(Match::score).reversed().thenComparing(Match::name);
        for (Entry entry : entries) {
            double floor = kept.size() < limit ? MIN_SCORE : Math.max(MIN_SCORE, kept.get(kept.size() - 1).score());
            double best = -1;
            for (Key k : entry.keys()) {
                double score = score(q, k, floor);
                if (score > best) {
                    best = score;
                }
            }
            if (best < MIN_SCORE) {
                continue;
            }
            Match match = new Match(entry.name(), best);
            if (kept.size() == limit && order.compare(match, kept.get(limit - 1)) >= 0) {
                continue;
            }
            int at = 0;
            while (at < kept.size() && order.compare(kept.get(at), match) < 0) {
                at++;
            }
            kept.add(at, match);
            if (kept.size() > limit) {
                kept.remove(limit);
            }
        }
        return List.copyOf(kept);
    }

    /** Similarity of two strings in [0, 1], case-insensitive. */
    public static double similarity(String a, String b) {
        return score(key(a), key(b), -1);
    }

    /**
     * The combined score, or -1 when it certainly falls below {@code floor}: the trigram part is
     * cheap and the length difference bounds the edit part, so most of a large catalog is skipped
     * without running the quadratic edit distance.
     */
    private static double score(Key a, Key b, double floor) {
        if (a.text().equals(b.text())) {
            return 1.0;
        }
        double trigram = dice(a.trigrams(), b.trigrams());
        double affix = affix(a.text(), b.text());
        int la = a.text().length();
        int lb = b.text().length();
        int longest = Math.max(la, lb);
        double editCeiling = 1.0 - (double) Math.abs(la - lb) / longest;
        double combinedCeiling = EDIT_WEIGHT * editCeiling + TRIGRAM_WEIGHT * trigram;
        if (combinedCeiling < floor && affix < floor) {
            return -1;
        }
        if (combinedCeiling <= affix) {
            return affix;
        }
        double edit = 1.0 - (double) osaDistance(a.text(), b.text()) / longest;
        return Math.max(affix, EDIT_WEIGHT * edit + TRIGRAM_WEIGHT * trigram);
    }

    /**
     * A score for one string being a prefix of the other ({@code emp} / {@code employee}, {@code total} /
     * {@code total_cents}) or a whole trailing piece of it ({@code line_items} / {@code invoice_line_items}).
     * Edit distance punishes such abbreviations by their missing length although they are what callers
     * type most; 0 when neither applies or the shorter has fewer than three characters.
     */
    private static double affix(String a, String b) {
        String shorter = a.length() <= b.length() ? a : b;
        String longer = shorter == a ? b : a;
        int s = shorter.length();
        if (s < AFFIX_MIN_LENGTH || s == longer.length()) {
            return 0;
        }
        boolean prefix = longer.startsWith(shorter);
        boolean suffix = longer.endsWith(shorter) && "_.".indexOf(longer.charAt(longer.length() - s - 1)) >= 0;
        return prefix || suffix ? AFFIX_BASE + AFFIX_SPAN * s / longer.length() : 0;
    }

    private static Key key(String text) {
        String lower = text.toLowerCase(Locale.ROOT);
        String padded = "" + PAD + PAD + lower + PAD;
        long[] codes = new long[padded.length() - 2];
        for (int i = 0; i < codes.length; i++) {
            codes[i] = ((long) padded.charAt(i) << 32) | ((long) padded.charAt(i + 1) << 16) | padded.charAt(i + 2);
        }
        Arrays.sort(codes);
        int distinct = 0;
        for (int i = 0; i < codes.length; i++) {
            if (i == 0 || codes[i] != codes[i - 1]) {
                codes[distinct++] = codes[i];
            }
        }
        return new Key(lower, Arrays.copyOf(codes, distinct));
    }

    /** Dice coefficient of two sorted, distinct arrays. */
    private static double dice(long[] a, long[] b) {
        int i = 0;
        int j = 0;
        int common = 0;
        while (i < a.length && j < b.length) {
            if (a[i] == b[j]) {
                common++;
                i++;
                j++;
            } else if (a[i] < b[j]) {
                i++;
            } else {
                j++;
            }
        }
        return 2.0 * common / (a.length + b.length);
    }

    /** Damerau–Levenshtein distance, optimal-string-alignment variant (adjacent transpositions cost 1); case-sensitive. */
    public static int osaDistance(String a, String b) {
        int n = a.length();
        int m = b.length();
        int[] prevPrev = new int[m + 1];
        int[] prev = new int[m + 1];
        int[] cur = new int[m + 1];
        for (int j = 0; j <= m; j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= n; i++) {
            cur[0] = i;
            char ca = a.charAt(i - 1);
            for (int j = 1; j <= m; j++) {
                char cb = b.charAt(j - 1);
                int cost = ca == cb ? 0 : 1;
                int v = Math.min(Math.min(prev[j] + 1, cur[j - 1] + 1), prev[j - 1] + cost);
                if (i > 1 && j > 1 && ca == b.charAt(j - 2) && a.charAt(i - 2) == cb) {
                    v = Math.min(v, prevPrev[j - 2] + 1);
                }
                cur[j] = v;
            }
            int[] t = prevPrev;
            prevPrev = prev;
            prev = cur;
            cur = t;
        }
        return prev[m];
    }
}
