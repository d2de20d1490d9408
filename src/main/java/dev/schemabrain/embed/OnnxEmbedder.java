package dev.schemabrain.embed;

import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.onnx.bgesmallenv15q.BgeSmallEnV15QuantizedEmbeddingModel;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * bge-small-en-v1.5 (quantized ONNX) in-process through langchain4j: no network, the model ships in
 * the jar. Questions get the model's retrieval prefix; passages none.
 */
public final class OnnxEmbedder implements Embedder {

    public static final String MODEL_ID = "bge-small-en-v1.5-q";
    static final String QUERY_PREFIX = "Represent this sentence for searching relevant passages: ";
    private static final int DIMENSION = 384;

    private final ExecutorService pool;
    private final BgeSmallEnV15QuantizedEmbeddingModel model;

    private OnnxEmbedder(ExecutorService pool, BgeSmallEnV15QuantizedEmbeddingModel model) {
        this.pool = pool;
        this.model = model;
    }

    /** Loads the model; a failure is an {@link EmbeddingException} saying so in one sentence. */
    public static OnnxEmbedder load() {
        // DJL's tokenizer otherwise reports usage over the network and may download builds; SchemaBrain never goes online.
        setIfAbsent("OPT_OUT_TRACKING", "true");
        setIfAbsent("ai.djl.offline", "true");
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Runtime.getRuntime().availableProcessors()), r -> {
            Thread t = new Thread(r, "schemabrain-embed");
            t.setDaemon(true);
            return t;
        });
        try {
            return new OnnxEmbedder(pool, new BgeSmallEnV15QuantizedEmbeddingModel(pool));
        } catch (RuntimeException | LinkageError e) {
            pool.shutdownNow();
            throw new EmbeddingException("the local embedding model " + MODEL_ID + " could not be loaded: " + e.getMessage(), e);
        }
    }

    private static void setIfAbsent(String key, String value) {
        if (System.getProperty(key) == null && System.getenv(key) == null) {
            System.setProperty(key, value);
        }
    }

    @Override
    public String modelId() {
        return MODEL_ID;
    }

    @Override
    public int dimension() {
        return DIMENSION;
    }

    @Override
    public float[] embedQuery(String query) {
        return model.embed(QUERY_PREFIX + query).content().vector();
    }

    @Override
    public List<float[]> embedPassages(List<String> passages) {
        if (passages.isEmpty()) {
            return List.of();
        }
        List<TextSegment> segments = passages.stream().map(TextSegment::from).toList();
        List<float[]> vectors = new ArrayList<>(passages.size());
        model.embedAll(segments).content().forEach(e -> vectors.add(e.vector()));
        return vectors;
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
