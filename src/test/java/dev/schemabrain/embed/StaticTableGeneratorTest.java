package dev.schemabrain.embed;

import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The shipped static table is what the generator makes from the real model and the word list. */
class StaticTableGeneratorTest {

    private static StaticTable shipped() throws Exception {
        try (InputStream in = StaticEmbedder.class.getResourceAsStream(StaticEmbedder.RESOURCE)) {
            assertNotNull(in, StaticEmbedder.RESOURCE + " is on the class path");
            return StaticTable.read(in.readAllBytes(), true);
        }
    }

    private static List<String> tableVocabulary() throws Exception {
        List<String> tokens = StaticTableGenerator.vocabulary();
        List<String> vocabulary = new ArrayList<>(tokens);
        vocabulary.addAll(StaticTableGenerator.addedWords(tokens,
                StaticTableGenerator.words(Path.of(StaticTableGenerator.DEFAULT_WORDS))));
        return vocabulary;
    }

    @Test
    void theTableWasMadeFromTheModelsVocabularyAndTheWordList() throws Exception {
        StaticTable table = shipped();
        List<String> tokens = StaticTableGenerator.vocabulary();
        assertEquals(tableVocabulary(), table.vocabulary);
        assertTrue(table.vocabulary.size() > tokens.size() + 50_000, "the word list adds " + (table.vocabulary.size()
                - tokens.size()) + " words");
        assertEquals(StaticTableGenerator.DIMS, table.dims);
        assertEquals(OnnxEmbedder.DIMENSION, table.sourceDims);
    }

    @Test
    void untrainedRowsRegeneratedFromTheModelMatchTheShippedRowsWithinRounding() throws Exception {
        StaticTable table = shipped();
        List<String> tokens = StaticTableGenerator.vocabulary();
        WordPieceTokenizer pieces = new WordPieceTokenizer(tokens);
        List<Integer> ids = new ArrayList<>();
        int words = 0;
        for (int i = 0; ids.size() < 30 && i < 10_000; i++) {
            // every stretch of the vocabulary, the added words included, and at least ten of those
            int id = i % 3 == 0 ? tokens.size() + (i * 7919) % (table.vocabulary.size() - tokens.size())
                    : 997 + (i * 2113) % (tokens.size() - 997);
            if (!table.trained.get(id) && !ids.contains(id) && (id < tokens.size() || words++ < 15)) {
                ids.add(id);
            }
        }
        assertEquals(30, ids.size());
        assertTrue(ids.stream().filter(id -> id >= tokens.size()).count() >= 10, "added words among " + ids);
        try (StaticTableGenerator.TokenModel model = StaticTableGenerator.TokenModel.load()) {
            for (int id : ids) {
                int[] text = id < tokens.size() ? new int[] {id} : pieces.ids(table.vocabulary.get(id));
                float[] expected = table.project(model.vector(text), id);
                float[] row = table.row(id);
                float scale = table.scales[id];
                String token = table.vocabulary.get(id);
                for (int d = 0; d < row.length; d++) {
                    // half a step of rounding, and a little for onnxruntime's arithmetic on another CPU
                    assertEquals(expected[d], row[d], 0.6f * scale + 1e-6f, token + " dimension " + d);
                }
                float cosine = Vectors.dot(Vectors.normalize(expected), Vectors.normalize(row));
                assertTrue(cosine > 0.999f, token + ": cosine " + cosine);
            }
        }
    }

    /** Sentences of no corpus: the trained rows sum closer to the model's own vector of a text than distilled ones. */
    @Test
    void trainedRowsMeetTheModelsVectorsOfUnseenTextsBetterThanDistilledRows() throws Exception {
        StaticTable table = shipped();
        List<String> tokens = StaticTableGenerator.vocabulary();
        WordPieceTokenizer pieces = new WordPieceTokenizer(tokens);
        WordPieceTokenizer words = new WordPieceTokenizer(table.vocabulary);
        List<String> texts = List.of("monthly revenue per store", "customers who cancelled their subscription",
                "the number of nurses on each ward", "average delivery time of parcels", "unpaid invoices older than "
                        + "ninety days", "staff who left the company this year", "tickets sold for each screening",
                "vacant positions in the engineering team", "amount refunded to buyers", "doctors at every clinic");
        double trained = 0;
        double distilled = 0;
        try (StaticTableGenerator.TokenModel model = StaticTableGenerator.TokenModel.load()) {
            for (String text : texts) {
                float[] target = Vectors.normalize(table.projectUnweighted(model.vector(pieces.ids(text))));
                float[] shipped = new float[table.dims];
                float[] original = new float[table.dims];
                for (int id : words.ids(text)) {
                    float[] row = table.row(id);
                    int[] unit = id < tokens.size() ? new int[] {id} : pieces.ids(table.vocabulary.get(id));
                    float[] made = table.project(model.vector(unit), id);
                    for (int d = 0; d < table.dims; d++) {
                        shipped[d] += row[d];
                        original[d] += made[d];
                    }
                }
                trained += Vectors.dot(Vectors.normalize(shipped), target) / texts.size();
                distilled += Vectors.dot(Vectors.normalize(original), target) / texts.size();
            }
        }
        System.out.printf("mean cosine to the model's vector: distilled %.3f, trained %.3f%n", distilled, trained);
        assertTrue(trained > distilled + 0.05, "trained " + trained + " against distilled " + distilled);
        assertTrue(table.trained.cardinality() > 30_000 && table.trained.cardinality() < table.vocabulary.size(),
                table.trained.cardinality() + " rows trained");
    }

    @Test
    void aTokenOrAnAddedWordRunsThroughTheModelAsTheEmbedderRunsAOneWordText() throws Exception {
        List<String> vocabulary = StaticTableGenerator.vocabulary();
        try (StaticTableGenerator.TokenModel model = StaticTableGenerator.TokenModel.load();
             OnnxEmbedder embedder = OnnxEmbedder.load(new OnnxEmbedder.Settings(1, 1))) {
            for (String word : List.of("customer", "payment")) {
                assertTrue(vocabulary.contains(word), word + " is one token");
                float[] passage = embedder.embedPassages(List.of(word)).get(0);
                assertEquals(1f, Vectors.dot(passage, model.vector(vocabulary.indexOf(word))), 1e-4f, word);
            }
            WordPieceTokenizer pieces = new WordPieceTokenizer(vocabulary);
            for (String word : List.of("attrition", "vacancies")) {
                int[] text = pieces.ids(word);
                assertTrue(text.length > 1, word + " is several tokens");
                float[] passage = embedder.embedPassages(List.of(word)).get(0);
                assertEquals(1f, Vectors.dot(passage, model.vector(text)), 1e-4f, word);
            }
        }
    }

    @Test
    void thePrincipalComponentsAreOrthonormal() throws Exception {
        StaticTable table = shipped();
        int n = table.sourceDims;
        for (int a : new int[] {0, 1, 100, 255}) {
            for (int b : new int[] {0, 1, 100, 255}) {
                double dot = 0;
                for (int j = 0; j < n; j++) {
                    dot += table.components[a * n + j] * (double) table.components[b * n + j];
                }
                assertEquals(a == b ? 1 : 0, dot, 1e-4, a + "." + b);
            }
        }
    }
}
