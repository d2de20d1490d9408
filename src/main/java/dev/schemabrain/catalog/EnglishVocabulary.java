package dev.schemabrain.catalog;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.HashSet;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The whole lower-case words (three letters or more, a-z only) of the embedding model's WordPiece vocabulary:
 * about 21,000 common English words, read once from the tokenizer inside the model's jar. It lives here, at the
 * bottom of the package graph, because identifier splitting ({@link IdentifierWords}) needs it in the describer and
 * in the PII classifier alike.
 */
public final class EnglishVocabulary {

    public static final String TOKENIZER_RESOURCE = "/bge-small-en-v1.5-q-tokenizer.json";
    /**
     * The same words, one a line, written by the build ({@code embed.ModelResources}): a server's start reads them in a fraction of
     * the time the tokenizer's JSON takes (about 70 ms of the catalog load before the JIT has compiled anything).
     */
    public static final String WORDS_RESOURCE = "/english-words.txt";
    private static final Pattern WORD = Pattern.compile("[a-z]{3,}");

    private EnglishVocabulary() {
    }

    /** The words, loaded on first use (about 30 ms) and shared; unmodifiable. */
    public static Set<String> words() {
        return Holder.WORDS;
    }

    private static final class Holder {
        static final Set<String> WORDS = load();
    }

    private static Set<String> load() {
        try (InputStream words = EnglishVocabulary.class.getResourceAsStream(WORDS_RESOURCE)) {
            if (words != null) {
                return Collections.unmodifiableSet(readLines(words));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the word list " + WORDS_RESOURCE, e);
        }
        return fromTokenizer();
    }

    /** The words as the tokenizer has them (a class path the build did not prepare, and the build step itself). */
    public static Set<String> fromTokenizer() {
        try (InputStream in = EnglishVocabulary.class.getResourceAsStream(TOKENIZER_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the tokenizer " + TOKENIZER_RESOURCE + " is missing from the class path");
            }
            return Collections.unmodifiableSet(readVocab(in));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the tokenizer " + TOKENIZER_RESOURCE, e);
        }
    }

    private static Set<String> readLines(InputStream in) throws IOException {
        Set<String> out = new HashSet<>(32_768);
        try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                if (!line.isEmpty()) {
                    out.add(line);
                }
            }
        }
        if (out.isEmpty()) {
            throw new IOException("the word list is empty");
        }
        return out;
    }

    /** Streams to model.vocab (a 30,522-entry object of token to id) instead of building a 700 KB tree. */
    private static Set<String> readVocab(InputStream in) throws IOException {
        Set<String> out = new HashSet<>();
        try (JsonParser p = new JsonFactory().createParser(in)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException("the tokenizer file is not a JSON object");
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                p.nextToken();
                if (!field.equals("model")) {
                    p.skipChildren();
                    continue;
                }
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String inner = p.currentName();
                    p.nextToken();
                    if (inner.equals("vocab") && p.currentToken() == JsonToken.START_OBJECT) {
                        while (p.nextToken() == JsonToken.FIELD_NAME) {
                            String token = p.currentName();
                            if (WORD.matcher(token).matches()) {
                                out.add(token);
                            }
                            p.nextToken();
                        }
                    } else {
                        p.skipChildren();
                    }
                }
            }
        }
        if (out.isEmpty()) {
            throw new IOException("the tokenizer file has no model.vocab words");
        }
        return out;
    }
}
