package dev.schemabrain.catalog;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FuzzyTest {

    private static final List<Fuzzy.Candidate> CHINOOK = List.of(
            "album", "artist", "customer", "employee", "genre", "invoice", "invoice_line", "media_type",
            "playlist", "playlist_track", "track").stream()
            .map(t -> new Fuzzy.Candidate("public." + t, List.of("public." + t, t)))
            .toList();

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "albums, public.album,",
            "public.albm, public.album,",
            "invoiceline, public.invoice_line,",
            "Customer, public.customer,",
            "cutsomer, public.customer, a transposition",
            "PlaylistTrack, public.playlist_track,",
            "pubic.employees, public.employee,"})
    void findsTheIntendedTable(String query, String expected, String why) {
        assertEquals(expected, Fuzzy.over(CHINOOK).best(query, 3).get(0), why);
    }

    @ParameterizedTest(name = "[{0}]")
    @NullSource
    @ValueSource(strings = {"zzzzqqq", "x", ""})
    void garbageFindsNothing(String query) {
        assertEquals(List.of(), Fuzzy.over(CHINOOK).best(query, 3));
    }

    @Test
    void equalScoresAreOrderedByName() {
        Fuzzy fuzzy = Fuzzy.overNames(List.of("ab_c", "ab_b", "ab_a", "ab_d", "zz"));
        List<Fuzzy.Match> matches = fuzzy.matches("ab_x", 3);
        assertEquals(List.of("ab_a", "ab_b", "ab_c"), matches.stream().map(Fuzzy.Match::name).toList(),
                "equal scores are ordered by name");
    }

    @ParameterizedTest(name = "limit {0}")
    @CsvSource({"1, 1", "0, 0"})
    void returnsAtMostTheLimit(int limit, int size) {
        Fuzzy fuzzy = Fuzzy.overNames(List.of("ab_c", "ab_b", "ab_a", "ab_d", "zz"));
        assertEquals(size, fuzzy.matches("ab_x", limit).size());
    }

    @Test
    void anExactMatchScoresOneAndComesFirstThenScoresFall() {
        List<Fuzzy.Match> ranked = Fuzzy.over(CHINOOK).matches("invoice", 3);
        assertAll(() -> assertEquals("public.invoice", ranked.get(0).name()),
                () -> assertEquals(1.0, ranked.get(0).score()),
                () -> assertAll(IntStream.range(1, ranked.size()).<Executable>mapToObj(i -> () ->
                        assertTrue(ranked.get(i - 1).score() >= ranked.get(i).score(), ranked.toString()))));
    }

    @Test
    void similarityIsCaseInsensitive() {
        assertEquals(1.0, Fuzzy.similarity("Album", "ALBUM"));
    }

    @Test
    void similarityIsSymmetric() {
        assertEquals(Fuzzy.similarity("albums", "album"), Fuzzy.similarity("album", "albums"));
    }

    @Test
    void similarityOfNothingInCommonIsZero() {
        assertEquals(0.0, Fuzzy.similarity("zzzz", "album"));
    }

    @Test
    void theCloserNameIsMoreSimilar() {
        assertTrue(Fuzzy.similarity("invoiceline", "invoice_line") > Fuzzy.similarity("invoiceline", "invoice"));
    }

    @ParameterizedTest(name = "{0} → {1}")
    @CsvSource({"abcd, abdc, 1, adjacent transposition costs one", "kitten, sitting, 3,", "'', album, 5,"})
    void osaDistance(String a, String b, int distance, String why) {
        assertEquals(distance, Fuzzy.osaDistance(a, b), why);
    }

    /**
     * Not a timed test: shows that a 20,000-table catalog still finds the right table, and prints the
     * time per lookup (target well under 50 ms) to the surefire report for a human to read.
     */
    @Test
    void twentyThousandTablesSanityCheck() {
        String[] words = {"account", "order", "invoice", "customer", "product", "line", "event", "user", "audit",
                "payment", "shipment", "stock", "price", "region", "team", "project", "ticket", "session"};
        List<Fuzzy.Candidate> candidates = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            String table = words[i % words.length] + "_" + words[(i / words.length) % words.length] + "_" + i;
            String schema = "s" + (i % 20);
            candidates.add(new Fuzzy.Candidate(schema + "." + table, List.of(schema + "." + table, table)));
        }
        Fuzzy fuzzy = Fuzzy.over(candidates);
        List<String> queries = List.of("invoice_line_92", "s1.custmer_order_21", "payment_stock_2O7", "zzzzqqq",
                "acount", "ORDER_ORDER_19");
        long start = System.nanoTime();
        List<List<String>> results = queries.stream().map(q -> fuzzy.best(q, 3)).toList();
        double perLookupMs = (System.nanoTime() - start) / 1e6 / queries.size();
        System.out.printf(Locale.ROOT, "Fuzzy over 20,000 tables: %.1f ms per lookup%n", perLookupMs);

        assertAll(() -> assertEquals("s12.invoice_line_92", results.get(0).get(0)),
                () -> assertEquals("s1.customer_order_21", results.get(1).get(0)),
                () -> assertEquals("s7.payment_stock_207", results.get(2).get(0), "a typo, O for 0"),
                () -> assertEquals(List.of(), results.get(3)),
                () -> assertAll(results.stream().<Executable>map(r -> () -> assertTrue(r.size() <= 3, r.toString()))));
    }
}
