package dev.schemabrain.pii;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The classifier against a labelled corpus of real and realistic columns (src/test/resources/pii/corpus.tsv):
 * precision and recall per category, printed and written to target/pii-corpus.txt.
 */
class PiiCorpusTest {

    record Labelled(String table, String column, String type, List<String> samples, Set<PiiCategory> expected) {
    }

    static List<Labelled> corpus(String resource) throws IOException {
        List<Labelled> out = new ArrayList<>();
        try (InputStream in = PiiCorpusTest.class.getResourceAsStream(resource)) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] f = line.split("\t", -1);
                EnumSet<PiiCategory> expected = EnumSet.noneOf(PiiCategory.class);
                Arrays.stream(f[4].split(",")).filter(s -> !s.isBlank()).forEach(s -> expected.add(PiiCategory.fromWireName(s.strip())));
                List<String> samples = f[3].isEmpty() ? List.of() : List.of(f[3].split("\\|"));
                out.add(new Labelled(f[0], f[1], f[2], samples, expected));
            }
        }
        return out;
    }

    /** Per category: true positives, false positives, false negatives; and the report. */
    record Scored(Map<PiiCategory, int[]> counts, double precision, double recall, String report) {
    }

    @Test
    void precisionAndRecallPerCategory() throws IOException {
        List<Labelled> corpus = corpus("/pii/corpus.tsv");
        assertTrue(corpus.size() >= 300, "the corpus holds at least 300 columns: " + corpus.size());
        Scored scored = score("corpus", corpus);
        String report = scored.report();
        for (PiiCategory c : PiiCategory.CATASTROPHIC_FLOOR) {
            int[] n = scored.counts().get(c);
            assertEquals(0, n[2], c.wireName() + " must have recall 1.0:\n" + report);
            assertTrue(n[1] * 10 <= n[0] + n[1], c.wireName() + " may over-block a little (precision >= 0.9), never much:\n" + report);
        }
        assertTrue(scored.precision() >= 0.93 && scored.recall() >= 0.95, report);
    }

    static Scored score(String name, List<Labelled> corpus) throws IOException {
        Map<PiiCategory, int[]> counts = new EnumMap<>(PiiCategory.class);   // tp, fp, fn
        for (PiiCategory c : PiiCategory.values()) {
            counts.put(c, new int[3]);
        }
        List<String> mistakes = new ArrayList<>();
        int exact = 0;
        Map<String, PiiClassifier.TableContext> contexts = contexts(corpus);
        for (Labelled l : corpus) {
            Set<PiiCategory> got = PiiClassifier.classify(l.column(), l.type(), l.samples(), l.table(),
                    contexts.get(l.table())).categories();
            for (PiiCategory c : PiiCategory.values()) {
                boolean want = l.expected().contains(c);
                boolean has = got.contains(c);
                if (want && has) {
                    counts.get(c)[0]++;
                } else if (has) {
                    counts.get(c)[1]++;
                } else if (want) {
                    counts.get(c)[2]++;
                }
            }
            if (got.equals(l.expected())) {
                exact++;
            } else {
                mistakes.add(l.table() + "." + l.column() + " expected " + l.expected() + " got " + got);
            }
        }
        StringBuilder report = new StringBuilder(String.format(Locale.ROOT,
                "PII classifier on the %s set: %d labelled columns (%d exactly right)%n%-22s %5s %5s %5s %9s %6s%n",
                name, corpus.size(), exact, "category", "tp", "fp", "fn", "precision", "recall"));
        int tp = 0;
        int fp = 0;
        int fn = 0;
        for (PiiCategory c : PiiCategory.values()) {
            int[] n = counts.get(c);
            tp += n[0];
            fp += n[1];
            fn += n[2];
            report.append(String.format(Locale.ROOT, "%-22s %5d %5d %5d %9.3f %6.3f%n", c.wireName(), n[0], n[1], n[2],
                    ratio(n[0], n[0] + n[1]), ratio(n[0], n[0] + n[2])));
        }
        double precision = ratio(tp, tp + fp);
        double recall = ratio(tp, tp + fn);
        report.append(String.format(Locale.ROOT, "%-22s %5d %5d %5d %9.3f %6.3f%n", "micro", tp, fp, fn, precision, recall));
        report.append("mistakes:\n  ").append(String.join("\n  ", mistakes)).append('\n');
        Files.createDirectories(Path.of("target"));
        Files.writeString(Path.of("target", "pii-" + name + ".txt"), report);
        System.err.print(report);
        return new Scored(counts, precision, recall, report.toString());
    }

    /**
     * Each table's context as an index run would build it: its columns, and the tables linked to it by a key. The
     * corpus has no foreign keys, so a column named after another table and "id" ({@code album.artist_id},
     * {@code film_actor.film_id}) stands for one.
     */
    static Map<String, PiiClassifier.TableContext> contexts(List<Labelled> corpus) {
        Map<String, List<String>> columns = new LinkedHashMap<>();
        for (Labelled l : corpus) {
            columns.computeIfAbsent(l.table(), t -> new ArrayList<>()).add(l.column());
        }
        Map<String, PiiClassifier.TableContext> out = new HashMap<>();
        for (Map.Entry<String, List<String>> t : columns.entrySet()) {
            List<String> linked = new ArrayList<>();
            for (Map.Entry<String, List<String>> u : columns.entrySet()) {
                if (!u.getKey().equals(t.getKey()) && (refers(u.getValue(), t.getKey()) || refers(t.getValue(), u.getKey()))) {
                    linked.add(u.getKey());
                }
            }
            out.put(t.getKey(), PiiClassifier.TableContext.of(t.getKey(), t.getValue(), linked));
        }
        return out;
    }

    private static boolean refers(List<String> columns, String table) {
        String key = table.toLowerCase(Locale.ROOT).replace("_", "");
        String singular = key.endsWith("s") ? key.substring(0, key.length() - 1) : key;
        return columns.stream().map(c -> c.toLowerCase(Locale.ROOT).replace("_", ""))
                .anyMatch(c -> c.equals(key + "id") || c.equals(singular + "id"));
    }

    @Test
    void clearlyHarmlessColumnsAreNeverTagged() {
        for (String[] c : new String[][]{{"product_name", "text"}, {"token_count", "integer"}, {"created_by", "integer"},
                {"company_name", "text"}, {"file_name", "text"}, {"password_policy_id", "integer"}, {"lessons", "text"},
                {"shipping", "text"}, {"sql_fingerprint", "text"}, {"customer_id", "integer"}, {"email_verified_at", "timestamp"},
                {"is_email_verified", "boolean"}, {"login_count", "integer"}, {"card_type", "text"}}) {
            PiiTag tag = PiiClassifier.classify(c[0], c[1], List.of(), "things", null);
            assertTrue(!tag.tagged(), c[0] + " is not PII, got " + tag);
        }
    }

    private static double ratio(int a, int b) {
        return b == 0 ? 1.0 : (double) a / b;
    }
}
