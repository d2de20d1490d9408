package dev.schemabrain.pii;

import dev.schemabrain.catalog.SamplePolicy;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Free text (issue 29 item 9) against src/test/resources/pii/blind-v6-text.tsv: an SSN without dashes after its
 * name, "name (at) domain", dates of birth and passport numbers after their words, and look-alikes (order numbers,
 * shipment dates, "at reception dot 10"). As sampled, as an index run sees them. Version 5 found 4 of 16; the floor
 * is version 6's after-fix figure. Writes target/pii-blind-v6-text-sampled.txt.
 */
class PiiBlindV6TextTest {

    @Test
    void freeTextFigures() throws IOException {
        List<PiiCorpusTest.Labelled> asSampled = new ArrayList<>();
        for (PiiCorpusTest.Labelled l : PiiCorpusTest.corpus("/pii/blind-v6-text.tsv")) {
            asSampled.add(new PiiCorpusTest.Labelled(l.table(), l.column(), l.type(), SamplePolicy.pick(l.samples()),
                    l.expected()));
        }
        PiiCorpusTest.Scored s = PiiCorpusTest.score("blind-v6-text-sampled", asSampled);
        assertTrue(s.precision() >= 0.95 && s.recall() >= 0.95, s.report());
    }
}
