package dev.schemabrain.embed;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import dev.schemabrain.error.EmbeddingException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The static table as an embedder: the pure-Java tokenizer, vector shape and the similarities it ranks. */
class StaticEmbedderTest {

    static StaticEmbedder embedder;

    @BeforeAll
    static void load() throws EmbeddingException {
        long start = System.nanoTime();
        embedder = StaticEmbedder.load();
        System.out.printf("static table loaded in %.1f ms%n", (System.nanoTime() - start) / 1e6);
    }

    @AfterAll
    static void close() {
        embedder.close();
    }

    private static float similarity(String a, String b) {
        return Vectors.dot(embedder.embedQuery(a), embedder.embedPassages(List.of(b)).get(0));
    }

    @Test
    void identityAndUnitLength() {
        float[] v = embedder.embedQuery("customer payments");
        assertEquals(StaticEmbedder.MODEL_ID, embedder.modelId());
        assertEquals(256, embedder.dimension());
        assertEquals(256, v.length);
        assertEquals(1f, Vectors.norm(v), 1e-5f);
        assertArrayEquals(v, embedder.embedPassages(List.of("customer payments")).get(0));
        assertEquals(1f, Vectors.norm(embedder.embedQuery("\u0000")), 1e-5f, "a text of dropped characters still has a vector");
    }

    @Test
    void blankTextsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> embedder.embedQuery(" "));
        assertThrows(IllegalArgumentException.class, () -> embedder.embedPassages(List.of("a", "")));
    }

    @Test
    void relatedTextsAreCloserThanUnrelatedOnes() {
        String[][] triples = {
                {"customer email", "client e-mail address", "invoice total"},
                {"invoice total", "bill amount", "customer email"},
                {"employee hire date", "staff start date", "album title"},
                {"album title", "record name of the artist", "shipment tracking number"},
                {"city population", "number of inhabitants of the town", "product unit price"},
                {"employee attrition", "staff turnover", "invoice total"},
                {"open vacancies", "unfilled positions", "album title"},
        };
        for (String[] t : triples) {
            float near = similarity(t[0], t[1]);
            float far = similarity(t[0], t[2]);
            assertTrue(near > far, "'" + t[0] + "' is closer to '" + t[1] + "' (" + near + ") than to '" + t[2]
                    + "' (" + far + ")");
        }
    }

    @Test
    void aWordTheModelsVocabularySplitsHasItsOwnRow() throws Exception {
        List<String> tokens = StaticTableGenerator.vocabulary();
        int attrition = embedder.tokenIds("attrition")[0];
        assertEquals(1, embedder.tokenIds("Attrition").length);
        assertTrue(attrition >= tokens.size(), "an added row, after the model's " + tokens.size() + " tokens");
        assertArrayEquals(new int[] {attrition, tokens.indexOf("##s")}, embedder.tokenIds("attritions"),
                "longest match first takes the whole word, then its inflection");
        assertArrayEquals(new int[] {tokens.indexOf("customer"), tokens.indexOf("_"), tokens.indexOf("email")},
                embedder.tokenIds("customer_email"), "the model's own tokens keep their ids");
    }

    @Test
    void everyTokenOfTheTableIsFoundUnderItsFirstId() throws Exception {
        StaticTable table;
        try (InputStream in = StaticEmbedder.class.getResourceAsStream(StaticEmbedder.RESOURCE)) {
            table = StaticTable.read(in.readAllBytes(), true);
        }
        WordPieceTokenizer tokenizer = new WordPieceTokenizer(table.joinedVocabulary);
        Map<String, Integer> first = new HashMap<>();
        for (int i = 0; i < table.vocabulary.size(); i++) {
            first.putIfAbsent(table.vocabulary.get(i), i);
        }
        for (int i = 0; i < table.vocabulary.size(); i++) {
            assertEquals(first.get(table.vocabulary.get(i)), tokenizer.tokenId(table.vocabulary.get(i)), "token " + i);
        }
        for (String absent : List.of("", "##", "attritionx", "##attrition", "customer ", "[unk]")) {
            assertEquals(-1, tokenizer.tokenId(absent), absent);
        }
        WordPieceTokenizer repeated = new WordPieceTokenizer(List.of("[UNK]", "a", "##b", "a"));
        assertEquals(1, repeated.tokenId("a"), "a repeated token keeps its first id");
        assertEquals(2, repeated.tokenId("##b"));
        assertArrayEquals(new int[] {1, 2}, repeated.ids("ab"));
    }

    @Test
    void theTokenizerSplitsTextsAsTheModelsTokenizerDoes() throws Exception {
        WordPieceTokenizer tokenizer = new WordPieceTokenizer(StaticTableGenerator.vocabulary());
        List<String> texts = List.of("customer_email", "CountryLanguage.percentage", "Café crème brûlée",
                "naïve résumé", "order-id #42 (USD $3.50)", "北京 city", "supercalifragilisticexpialidocious",
                "tab\tand\nnewline", "emoji 🙂 text", "x".repeat(120) + " tail", "don't stop", "ÅNGSTRÖM");
        try (InputStream json = StaticEmbedder.class.getResourceAsStream(WordVocabulary.TOKENIZER_RESOURCE);
             HuggingFaceTokenizer reference = HuggingFaceTokenizer.newInstance(json, Map.of("padding", "false"))) {
            for (String text : texts) {
                long[] expected = reference.encode(text, false, false).getIds();
                int[] actual = tokenizer.ids(text);
                assertEquals(Arrays.toString(expected), Arrays.toString(Arrays.stream(actual).asLongStream().toArray()), text);
            }
        }
    }

    @Test
    void embedsATextInMicroseconds() {
        List<String> texts = OnnxEmbedderTest.TEXTS;
        for (int i = 0; i < 2_000; i++) {
            embedder.embedPassages(texts);
        }
        int rounds = 2_000;
        long start = System.nanoTime();
        for (int i = 0; i < rounds; i++) {
            embedder.embedPassages(texts);
        }
        double micros = (System.nanoTime() - start) / 1e3 / rounds / texts.size();
        System.out.printf("static embed: %.2f us per text%n", micros);
        assertTrue(micros < 1_000, micros + " us per text");
    }

    @Test
    void theSharedEmbedderIsChosenByName() throws EmbeddingException {
        try (Embedder e = Embedders.load(Embedders.STATIC)) {
            assertEquals(StaticEmbedder.MODEL_ID, e.modelId());
        }
        EmbeddingException unknown = assertThrows(EmbeddingException.class, () -> Embedders.load("word2vec"));
        assertTrue(unknown.getMessage().contains("'word2vec'"), unknown.getMessage());
        if (System.getProperty(Embedders.CHOICE_PROPERTY) == null && System.getenv(Embedders.CHOICE_ENV) == null) {
            assertEquals(Embedders.BGE_SMALL, Embedders.choice(), "bge-small stays the default");
            assertEquals(OnnxEmbedder.MODEL_ID, Embedders.MODEL_ID);
        }
    }
}
