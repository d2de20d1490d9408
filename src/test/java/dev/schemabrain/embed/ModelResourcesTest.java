package dev.schemabrain.embed;

import dev.schemabrain.catalog.EnglishVocabulary;
import dev.schemabrain.error.EmbeddingException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The model the build converts to ORT format answers as langchain4j's ONNX file does. */
class ModelResourcesTest {

    @Test
    void theBuildPutsTheConvertedModelOnTheClassPathAndTheEmbedderUsesIt() {
        // Without it the embedder falls back to the ONNX file: right answers, a slower load and a copy of the weights per session. Fail instead.
        assertNotNull(OnnxEmbedder.class.getResource(OnnxEmbedder.ORT_RESOURCE),
                "the build's ort-model step (process-classes) did not write " + OnnxEmbedder.ORT_RESOURCE);
    }

    @Test
    void vectorsFromTheConvertedModelEqualTheOnnxModelsQueriesAndPassagesAlike() throws EmbeddingException {
        OnnxEmbedder.Settings one = new OnnxEmbedder.Settings(1, 1);
        OnnxEmbedder ort = OnnxEmbedder.load(one, ModelBytes.Format.ORT);
        OnnxEmbedder onnx = OnnxEmbedder.load(one, ModelBytes.Format.ONNX);
        try {
            List<String> texts = OnnxEmbedderTest.TEXTS;
            List<float[]> fromOrt = ort.embedPassages(texts);
            List<float[]> fromOnnx = onnx.embedPassages(texts);
            for (int i = 0; i < texts.size(); i++) {
                assertEquals(1f, Vectors.dot(fromOrt.get(i), fromOnnx.get(i)), 1e-5f, texts.get(i));
                float[] q = ort.embedQuery(texts.get(i));
                assertEquals(1f, Vectors.dot(q, onnx.embedQuery(texts.get(i))), 1e-5f, "query " + texts.get(i));
                // and the query differs from the passage: the comparison is not of a constant
                assertTrue(Vectors.dot(q, fromOrt.get(i)) < 0.999f, texts.get(i));
            }
        } finally {
            ort.close();
            onnx.close();
        }
    }

    @Test
    void theBuildStepWritesTheModelAndTheWordsLeavesFreshOnesAloneAndRewritesStaleOnes(@TempDir Path dir)
            throws Exception {
        Path model = dir.resolve(OnnxEmbedder.ORT_RESOURCE.substring(1));
        Path words = dir.resolve(EnglishVocabulary.WORDS_RESOURCE.substring(1));
        Path input = Files.writeString(dir.resolve("pom.xml"), "x");
        Files.setLastModifiedTime(input, FileTime.fromMillis(0));
        ModelResources.main(new String[] {dir.toString(), input.toString()});
        long size = Files.size(model);
        assertTrue(size > 30_000_000L, "the converted model holds the weights: " + size + " bytes");
        assertEquals(EnglishVocabulary.fromTokenizer().size(), Files.readAllLines(words).size());
        try (var stream = Files.list(dir)) {
            assertEquals(List.of(), stream.filter(p -> p.toString().endsWith(".partial")).toList(),
                    "no partial file is left behind");
        }
        Files.writeString(model, "stale");
        Files.writeString(words, "stale");
        ModelResources.main(new String[] {dir.toString(), input.toString()});
        assertEquals("stale", Files.readString(model), "newer than its inputs: not converted again");
        assertEquals("stale", Files.readString(words), "newer than its inputs: not written again");
        Files.setLastModifiedTime(input, FileTime.fromMillis(
                Files.getLastModifiedTime(model).toMillis() + 10_000));
        ModelResources.main(new String[] {dir.toString(), input.toString()});
        // onnxruntime's writer is not byte-for-byte repeatable (two conversions differed by 8 bytes): whole again, not "stale".
        assertTrue(Files.size(model) > 30_000_000L, "an input newer than the output: converted again");
        assertTrue(Files.readAllLines(words).size() > 20_000, "an input newer than the output: written again");
    }
}
