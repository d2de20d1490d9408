package dev.schemabrain.embed;

import java.util.List;

/** A sentence-embedding model: L2-normalized vectors, so cosine similarity is a dot product. */
public interface Embedder extends AutoCloseable {

    String modelId();

    int dimension();

    float[] embedQuery(String query);

    List<float[]> embedPassages(List<String> passages);

    @Override
    void close();
}
