package dev.schemabrain.embed;

import dev.schemabrain.error.EmbeddingException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The model the build converts to ORT format answers as langchain4j's ONNX file does. */
class ModelConversionTest {

    @Test
    void theBuildPutsTheConvertedModelOnTheClassPathAndTheEmbedderUsesIt() {
        // Without it the embedder falls back to the ONNX file: right answers, 36 MB more memory. Fail instead.
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
    void aConversionWritesAModelThatLoadsAndAFreshOutputIsLeftAlone(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("m.ort");
        ModelConversion.convert(out);
        long size = Files.size(out);
        assertTrue(size > 30_000_000L, "the converted model holds the weights: " + size + " bytes");
        try (var stream = Files.list(dir)) {
            assertEquals(List.of(out), stream.toList(), "no partial file is left behind");
        }
        Path input = Files.writeString(dir.resolve("pom.xml"), "x");
        Files.setLastModifiedTime(out, Files.getLastModifiedTime(input));
        Files.writeString(out, "stale");
        Files.setLastModifiedTime(out, java.nio.file.attribute.FileTime.fromMillis(
                Files.getLastModifiedTime(input).toMillis() + 10_000));
        ModelConversion.main(new String[] {out.toString(), input.toString()});
        assertEquals("stale", Files.readString(out), "newer than its inputs: not converted again");
        Files.setLastModifiedTime(input, java.nio.file.attribute.FileTime.fromMillis(
                Files.getLastModifiedTime(out).toMillis() + 10_000));
        ModelConversion.main(new String[] {out.toString(), input.toString()});
        assertEquals(size, Files.size(out), "an input newer than the output: converted again");
    }
}
