package dev.schemabrain.pii;

import dev.schemabrain.catalog.SamplePolicy;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The classifier against the v6 blind corpus (src/test/resources/pii/blind-v6.tsv): column names in German, Spanish,
 * French, Portuguese and Italian, with decoys (names of products and companies, company numbers, staff numbers), from
 * domains no other corpus covers; labelled before version 6 existed (docs/pii-blind-v6.md). Version 5 scored micro
 * P 0.947 / R 0.113 on it; the floors below are version 6's after-fix figures (1.000 / 0.981), so they guard against
 * regressions, they do not estimate accuracy on unseen data. Writes target/pii-blind-v6.txt,
 * target/pii-blind-v6-sampled.txt and target/security/classifier-v6.txt.
 */
class PiiBlindV6Test {

    @Test
    void blindV6Figures() throws IOException {
        List<PiiCorpusTest.Labelled> corpus = PiiCorpusTest.corpus("/pii/blind-v6.tsv");
        assertTrue(corpus.size() >= 150, "the blind corpus holds at least 150 columns: " + corpus.size());
        PiiCorpusTest.Scored raw = PiiCorpusTest.score("blind-v6", corpus);
        List<PiiCorpusTest.Labelled> asSampled = new ArrayList<>();
        for (PiiCorpusTest.Labelled l : corpus) {
            List<String> samples = SamplePolicy.mayCollect(l.column(), l.type()) ? SamplePolicy.pick(l.samples()) : List.of();
            asSampled.add(new PiiCorpusTest.Labelled(l.table(), l.column(), l.type(), samples, l.expected()));
        }
        PiiCorpusTest.Scored sampled = PiiCorpusTest.score("blind-v6-sampled", asSampled);
        String figures = String.format(Locale.ROOT,
                "classifier blind-v6: P %.3f R %.3f (%d columns, version %s)%n"
                        + "classifier blind-v6, as sampled: P %.3f R %.3f (%d columns, version %s)%n",
                raw.precision(), raw.recall(), corpus.size(), PiiClassifier.VERSION,
                sampled.precision(), sampled.recall(), corpus.size(), PiiClassifier.VERSION);
        Files.createDirectories(Path.of("target", "security"));
        Files.writeString(Path.of("target", "security", "classifier-v6.txt"), figures);
        System.err.print(figures);
        for (PiiCorpusTest.Scored s : List.of(raw, sampled)) {
            assertTrue(s.precision() >= 0.97 && s.recall() >= 0.95, "micro P >= 0.97 and R >= 0.95 (measured 1.000 / 0.981)\n"
                    + s.report());
        }
    }
}
