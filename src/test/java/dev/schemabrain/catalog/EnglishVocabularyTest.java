package dev.schemabrain.catalog;

import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The word list the build writes is the tokenizer's words, no more and no fewer. */
class EnglishVocabularyTest {

    @Test
    void theBuildsWordListIsOnTheClassPathAndHoldsExactlyTheTokenizersWords() {
        assertNotNull(EnglishVocabulary.class.getResource(EnglishVocabulary.WORDS_RESOURCE),
                "the build's english-words step (process-classes) did not write " + EnglishVocabulary.WORDS_RESOURCE);
        Set<String> served = EnglishVocabulary.words();
        assertEquals(EnglishVocabulary.fromTokenizer(), served);
        assertTrue(served.size() > 20_000, "about 21,000 words: " + served.size());
        assertTrue(served.contains("customer") && served.contains("payment"));
        assertFalse(served.contains("##ing") || served.contains("an") || served.contains("Invoice"),
                "sub-word pieces, words under three letters and capitals are not words here");
    }
}
