package dev.schemabrain.embed;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.InputStream;
import java.util.HashSet;
import java.util.Set;

/**
 * Whole English words of the embedding model's WordPiece vocabulary (lower case, three letters or
 * more): the describer splits run-together identifiers ("countrylanguage") with them.
 */
public final class WordVocabulary {

    private static final String TOKENIZER = "/bge-small-en-v1.5-q-tokenizer.json";
    private static volatile Set<String> words;

    private WordVocabulary() {
    }

    public static Set<String> get() {
        Set<String> w = words;
        if (w == null) {
            synchronized (WordVocabulary.class) {
                w = words;
                if (w == null) {
                    w = load();
                    words = w;
                }
            }
        }
        return w;
    }

    private static Set<String> load() {
        try (InputStream in = WordVocabulary.class.getResourceAsStream(TOKENIZER)) {
            if (in == null) {
                return Set.of();
            }
            JsonNode vocabulary = new ObjectMapper().readTree(in).path("model").path("vocab");
            Set<String> out = new HashSet<>();
            vocabulary.fieldNames().forEachRemaining(word -> {
                if (word.length() >= 3 && word.chars().allMatch(ch -> ch >= 'a' && ch <= 'z')) {
                    out.add(word);
                }
            });
            return Set.copyOf(out);
        } catch (IOException e) {
            return Set.of();
        }
    }
}
