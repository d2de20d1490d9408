package dev.schemabrain.pii;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The classifier against the v4 blind corpus (src/test/resources/pii/blind-v4.tsv): 307 columns from domains the
 * training corpus does not cover, labelled before version 4 existed. Writes the table to target/pii-blind.txt and a
 * figure line to target/security/classifier.txt.
 */
class PiiBlindCorpusTest {

    @Test
    void blindCorpusFigures() throws IOException {
        List<PiiCorpusTest.Labelled> corpus = PiiCorpusTest.corpus("/pii/blind-v4.tsv");
        assertTrue(corpus.size() >= 150, "the blind corpus holds at least 150 columns: " + corpus.size());
        PiiCorpusTest.Scored scored = PiiCorpusTest.score("blind", corpus);
        int tp = 0;
        int fn = 0;
        for (PiiCategory c : PiiCategory.CATASTROPHIC_FLOOR) {
            tp += scored.counts().get(c)[0];
            fn += scored.counts().get(c)[2];
        }
        double catastrophicRecall = tp + fn == 0 ? 1.0 : (double) tp / (tp + fn);
        String line = String.format(Locale.ROOT, "classifier blind: P %.3f R %.3f catastrophic recall %.3f (%d columns, version %s)%n",
                scored.precision(), scored.recall(), catastrophicRecall, corpus.size(), PiiClassifier.VERSION);
        Files.createDirectories(Path.of("target", "security"));
        Files.writeString(Path.of("target", "security", "classifier.txt"), line);
        System.err.print(line);
    }
}
