package dev.schemabrain.cli;

import dev.schemabrain.embed.Embedders;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** doctor's advice when the embedder does not load names what can be wrong with that embedder only. */
class DoctorEmbeddingsAdviceTest {

    @Test
    void anUnknownEmbedderNameIsNotBlamedOnOnnxruntime() {
        String message = "The embedder 'word2vec' named by schemabrain.embedder or SCHEMABRAIN_EMBEDDER is unknown;"
                + " name bge-small or static.";
        String line = DoctorCommand.embeddingsFailure("word2vec", message);
        assertAll(() -> assertTrue(line.startsWith("embeddings: The embedder 'word2vec'"), line),
                () -> assertTrue(line.contains("name bge-small or static"), line),
                () -> assertFalse(line.contains("onnxruntime"), line));
    }

    @Test
    void onlyBgeSmallPointsAtOnnxruntime() {
        String onnx = DoctorCommand.embeddingsFailure(Embedders.BGE_SMALL, "no native library");
        String table = DoctorCommand.embeddingsFailure(Embedders.STATIC, "the table ended early");
        assertAll(() -> assertTrue(onnx.contains("onnxruntime") && onnx.contains("SCHEMABRAIN_EMBEDDER=static"), onnx),
                () -> assertFalse(table.contains("onnxruntime"), table),
                () -> assertTrue(table.contains("(the table ended early)"), table));
    }
}
