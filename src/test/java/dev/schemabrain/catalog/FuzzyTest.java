package dev.schemabrain.catalog;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FuzzyTest {

    private static final List<Fuzzy.Candidate> CHINOOK = List.of(
            "album", "artist", "customer", "employee", "genre", "invoice", "invoice_line", "media_type",
            "playlist", "playlist_track", "track").stream()
            .map(t -> new Fuzzy.Candidate("public." + t, List.of("public." + t, t)))
            .toList();

    @Test
    void findsTheIntendedTable() {
        Fuzzy fuzzy = Fuzzy.over(CHINOOK);
        assertEquals("public.album", fuzzy.best("albums", 3).get(0));
        assertEquals("public.album", fuzzy.best("public.albm", 3).get(0));
        assertEquals("public.invoice_line", fuzzy.best("invoiceline", 3).get(0));
        assertEquals("public.customer", fuzzy.best("Customer", 3).get(0));
        assertEquals("public.customer", fuzzy.best("cutsomer", 3).get(0), "a transposition");
        assertEquals("public.playlist_track", fuzzy.best("PlaylistTrack", 3).get(0));
        assertEquals("public.employee", fuzzy.best("pubic.employees", 3).get(0));
    }

    @Test
    void garbageFindsNothing() {
        Fuzzy fuzzy = Fuzzy.over(CHINOOK);
        assertEquals(List.of(), fuzzy.best("zzzzqqq", 3));
        assertEquals(List.of(), fuzzy.best("x", 3));
        assertEquals(List.of(), fuzzy.best("", 3));
        assertEquals(List.of(), fuzzy.best(null, 3));
    }

    @Test
    void returnsAtMostTheLimitBestFirstThenByName() {
        Fuzzy fuzzy = Fuzzy.overNames(List.of("ab_c", "ab_b", "ab_a", "ab_d", "zz"));
        List<Fuzzy.Match> matches = fuzzy.matches("ab_x", 3);
        assertEquals(List.of("ab_a", "ab_b", "ab_c"), matches.stream().map(Fuzzy.Match::name).toList(),
                "equal scores are ordered by name");
        assertEquals(1, fuzzy.matches("ab_x", 1).size());
        assertEquals(List.of(), fuzzy.matches("ab_x", 0));

        List<Fuzzy.Match> ranked = Fuzzy.over(CHINOOK).matches("invoice", 3);
        assertEquals("public.invoice", ranked.get(0).name());
        assertEquals(1.0, ranked.get(0).score());
        for (int i = 1; i < ranked.size(); i++) {
            assertTrue(ranked.get(i - 1).score() >= ranked.get(i).score(), ranked.toString());
        }
    }

    @Test
    void similarityIsSymmetricCaseInsensitiveAndBounded() {
        assertEquals(1.0, Fuzzy.similarity("Album", "ALBUM"));
        assertEquals(Fuzzy.similarity("albums", "album"), Fuzzy.similarity("album", "albums"));
        assertEquals(0.0, Fuzzy.similarity("zzzz", "album"));
        assertTrue(Fuzzy.similarity("invoiceline", "invoice_line") > Fuzzy.similarity("invoiceline", "invoice"));
        assertEquals(1, Fuzzy.osaDistance("abcd", "abdc"), "adjacent transposition costs one");
        assertEquals(3, Fuzzy.osaDistance("kitten", "sitting"));
        assertEquals(5, Fuzzy.osaDistance("", "album"));
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

        assertEquals("s12.invoice_line_92", results.get(0).get(0));
        assertEquals("s1.customer_order_21", results.get(1).get(0));
        assertEquals("s7.payment_stock_207", results.get(2).get(0), "a typo, O for 0");
        assertEquals(List.of(), results.get(3));
        results.forEach(r -> assertTrue(r.size() <= 3));
    }
}
