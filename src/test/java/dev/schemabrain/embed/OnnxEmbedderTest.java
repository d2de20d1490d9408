package dev.schemabrain.embed;

import dev.schemabrain.error.EmbeddingException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The real model, loaded once for the class. */
class OnnxEmbedderTest {

    static final List<String> TEXTS = List.of(
            "customer address city", "invoice total amount", "track genre", "album title of the artist",
            "employee hire date", "payment amount", "film rental rate", "country language percentage",
            "the singer id of the singer in concert; refers to the singer (singer id)", "store manager staff",
            "order status", "product unit price", "shipment tracking number", "user email address",
            "session created at", "supplier postal code", "account credit limit", "city population");

    static OnnxEmbedder embedder;

    @BeforeAll
    static void load() throws EmbeddingException {
        embedder = OnnxEmbedder.load();
    }

    @AfterAll
    static void close() {
        embedder.close();
    }

    @Test
    void identity() {
        assertAll(() -> assertEquals("bge-small-en-v1.5-q", embedder.modelId()),
                () -> assertEquals(384, embedder.dimension()),
                () -> assertEquals(384, embedder.embedQuery("customer payments").length));
    }

    @Test
    void aQueryVectorHasUnitLength() {
        assertEquals(1f, Vectors.norm(embedder.embedQuery("which customers paid the most?")), 1e-5f);
    }

    @Test
    void passageVectorsHaveUnitLength() {
        List<float[]> vectors = embedder.embedPassages(TEXTS);
        assertAll(IntStream.range(0, TEXTS.size()).<Executable>mapToObj(i -> () -> assertAll(TEXTS.get(i),
                () -> assertEquals(384, vectors.get(i).length),
                () -> assertEquals(1f, Vectors.norm(vectors.get(i)), 1e-5f))));
    }

    @Test
    void sameQuerySameVector() {
        assertArrayEquals(embedder.embedQuery("album sales by country"), embedder.embedQuery("album sales by country"));
    }

    @Test
    void samePassageSameVector() {
        assertArrayEquals(embedder.embedPassages(List.of("customer address city")).get(0),
                embedder.embedPassages(List.of("customer address city")).get(0));
    }

    @Test
    void passagesDoNotDependOnBatchingOrThreads() throws Exception {
        List<float[]> all = embedder.embedPassages(TEXTS);
        assertEquals(TEXTS.size(), all.size());
        // Two overlapping calls at once, on other threads, with other splits of the list.
        var first = CompletableFuture.supplyAsync(() -> embedder.embedPassages(TEXTS.subList(0, 7)));
        var second = CompletableFuture.supplyAsync(() -> embedder.embedPassages(TEXTS.subList(7, TEXTS.size())));
        List<float[]> split = new ArrayList<>(first.get());
        split.addAll(second.get());
        assertAll(IntStream.range(0, TEXTS.size()).<Executable>mapToObj(i -> () -> {
            float[] single = embedder.embedPassages(List.of(TEXTS.get(i))).get(0);
            assertAll(() -> assertArrayEquals(single, all.get(i), 1e-5f, TEXTS.get(i)),
                    () -> assertArrayEquals(single, split.get(i), 1e-5f, TEXTS.get(i)));
        }));
    }

    @Test
    void queryThreadsDoNotChangeTheVector() throws EmbeddingException {
        try (OnnxEmbedder singleThreaded = OnnxEmbedder.load(new OnnxEmbedder.Settings(1, 1))) {
            assertAll(() -> assertArrayEquals(embedder.embedQuery("customer payments"), singleThreaded.embedQuery("customer payments"), 1e-5f),
                    () -> assertArrayEquals(embedder.embedPassages(TEXTS).get(3), singleThreaded.embedPassages(TEXTS).get(3), 1e-5f));
        }
    }

    @Test
    void queryFindsTheRelatedPassage() {
        float[] q = embedder.embedQuery("customer payments");
        List<float[]> p = embedder.embedPassages(List.of("payments made by customers", "the genre of a music track"));
        float related = Vectors.dot(q, p.get(0));
        float unrelated = Vectors.dot(q, p.get(1));
        assertTrue(related > unrelated + 0.1f, related + " vs " + unrelated);
    }

    @Test
    void queriesCarryTheInstructionPrefix() {
        // The same words as a query and as a passage give different vectors: only the query has the prefix.
        assertNotEquals(Vectors.dot(embedder.embedQuery("payment amount"), embedder.embedQuery("payment amount")),
                Vectors.dot(embedder.embedQuery("payment amount"), embedder.embedPassages(List.of("payment amount")).get(0)), 1e-3f);
    }

    @Test
    void noPassagesNoVectors() {
        assertEquals(List.of(), embedder.embedPassages(List.of()));
    }

    @Test
    void aBlankQueryIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> embedder.embedQuery(" "));
    }

    @Test
    void anEmptyPassageIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> embedder.embedPassages(List.of("ok", "")));
    }

    @Test
    void aPassageLongerThanTheModelsWindowIsStillAUnitVector() {
        // Longer than the model's 512 tokens: split and averaged by the library, still a unit vector.
        String longText = "customer address city ".repeat(300);
        assertEquals(1f, Vectors.norm(embedder.embedPassages(List.of(longText)).get(0)), 1e-5f);
    }

    @Test
    void loadingLeavesOnlyTheNoNetworkSettings() {
        // DJL's telemetry and downloads are off (unless the user said otherwise in the environment) ...
        assertAll(() -> assertEquals("true", System.getProperty("OPT_OUT_TRACKING")),
                () -> assertEquals("true", System.getProperty("ai.djl.offline")),
                // ... and the temporary overrides that pointed at the deleted library copies are gone.
                () -> assertEquals(null, System.getProperty("onnxruntime.native.path")),
                () -> assertEquals(null, System.getProperty("RUST_LIBRARY_PATH")),
                () -> assertEquals(null, System.getProperty("jna.tmpdir")));
    }

    @Test
    void closedEmbedderRefuses() throws EmbeddingException {
        OnnxEmbedder other = OnnxEmbedder.load(new OnnxEmbedder.Settings(1, 1));
        other.close();
        other.close(); // idempotent
        assertThrows(IllegalStateException.class, () -> other.embedQuery("x"));
    }
}
