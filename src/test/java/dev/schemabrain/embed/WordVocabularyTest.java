package dev.schemabrain.embed;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WordVocabularyTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "country, true,",
            "language, true,",
            "countrylanguage, false,",
            "##ing, false, WordPiece continuations are not words",
            "an, false, fewer than 3 letters",
            "[CLS], false,"})
    void wholeWordsOnly(String word, boolean contained, String why) {
        assertEquals(contained, WordVocabulary.get().contains(word), why);
    }

    @Test
    void manyWords() {
        WordVocabulary vocab = WordVocabulary.get();
        assertTrue(vocab.size() > 15_000, "size " + vocab.size());
    }

    @Test
    void everyWordIsThreeOrMoreLowerCaseLetters() {
        assertTrue(WordVocabulary.get().words().stream().allMatch(w -> w.matches("[a-z]{3,}")));
    }

    @Test
    void loadedOnce() {
        assertSame(WordVocabulary.get(), WordVocabulary.get());
    }
}
