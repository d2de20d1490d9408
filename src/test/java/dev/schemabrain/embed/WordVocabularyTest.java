package dev.schemabrain.embed;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WordVocabularyTest {

    @Test
    void wholeWordsOnly() {
        WordVocabulary vocab = WordVocabulary.get();
        assertTrue(vocab.contains("country"));
        assertTrue(vocab.contains("language"));
        assertFalse(vocab.contains("countrylanguage"));
        assertFalse(vocab.contains("##ing"), "WordPiece continuations are not words");
        assertFalse(vocab.contains("an"), "fewer than 3 letters");
        assertFalse(vocab.contains("[CLS]"));
        assertTrue(vocab.size() > 15_000, "size " + vocab.size());
        assertTrue(vocab.words().stream().allMatch(w -> w.matches("[a-z]{3,}")));
        assertSame(vocab, WordVocabulary.get());
    }
}
