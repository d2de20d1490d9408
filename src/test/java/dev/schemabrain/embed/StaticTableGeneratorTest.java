package dev.schemabrain.embed;

import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The shipped static table is what the generator makes from the real model. */
class StaticTableGeneratorTest {

    private static StaticTable shipped() throws Exception {
        try (InputStream in = StaticEmbedder.class.getResourceAsStream(StaticEmbedder.RESOURCE)) {
            assertNotNull(in, StaticEmbedder.RESOURCE + " is on the class path");
            return StaticTable.read(in.readAllBytes(), true);
        }
    }

    @Test
    void theTableWasMadeFromTheModelsVocabulary() throws Exception {
        StaticTable table = shipped();
        assertEquals(StaticTableGenerator.vocabulary(), table.vocabulary);
        assertEquals(StaticTableGenerator.DIMS, table.dims);
        assertEquals(OnnxEmbedder.DIMENSION, table.sourceDims);
    }

    @Test
    void rowsRegeneratedFromTheModelMatchTheShippedRowsWithinRounding() throws Exception {
        StaticTable table = shipped();
        List<Integer> ids = new ArrayList<>();
        for (String token : List.of("customer", "email", "##ing", "payment", "the", "[UNK]")) {
            ids.add(table.vocabulary.indexOf(token));
        }
        for (int i = 0; ids.size() < 20; i++) {
            ids.add(997 + i * 2113 % (table.vocabulary.size() - 997));
        }
        try (StaticTableGenerator.TokenModel model = StaticTableGenerator.TokenModel.load()) {
            for (int id : ids) {
                float[] expected = table.project(model.vector(id), id);
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

    @Test
    void aTokenRunsThroughTheModelAsTheEmbedderRunsAOneWordText() throws Exception {
        List<String> vocabulary = StaticTableGenerator.vocabulary();
        try (StaticTableGenerator.TokenModel model = StaticTableGenerator.TokenModel.load();
             OnnxEmbedder embedder = OnnxEmbedder.load(new OnnxEmbedder.Settings(1, 1))) {
            for (String word : List.of("customer", "payment")) {
                assertTrue(vocabulary.contains(word), word + " is one token");
                float[] passage = embedder.embedPassages(List.of(word)).get(0);
                assertEquals(1f, Vectors.dot(passage, model.vector(vocabulary.indexOf(word))), 1e-4f, word);
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
