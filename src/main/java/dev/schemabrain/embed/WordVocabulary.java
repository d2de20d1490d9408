package dev.schemabrain.embed;

import dev.schemabrain.catalog.EnglishVocabulary;

import java.util.Set;

/**
 * The whole lower-case words (three letters or more, a-z only) of the embedding model's WordPiece vocabulary:
 * about 21,000 common English words. The describer uses them to split run-together identifiers such as
 * "countrylanguage" into words the model knows. Read once by {@link EnglishVocabulary} (the PII classifier splits
 * names with the same words).
 */
public final class WordVocabulary {

    static final String TOKENIZER_RESOURCE = EnglishVocabulary.TOKENIZER_RESOURCE;

    private final Set<String> words;

    private WordVocabulary(Set<String> words) {
        this.words = Set.copyOf(words);
    }

    /** The vocabulary, loaded on first use (about 30 ms) and shared. */
    public static WordVocabulary get() {
        return Holder.INSTANCE;
    }

    public boolean contains(String word) {
        return words.contains(word);
    }

    public int size() {
        return words.size();
    }

    /** An unmodifiable view. */
    public Set<String> words() {
        return words;
    }

    private static final class Holder {
        static final WordVocabulary INSTANCE = new WordVocabulary(EnglishVocabulary.words());
    }
}
