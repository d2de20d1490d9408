package dev.schemabrain.embed;

import java.util.List;

/**
 * A sentence-embedding model. Every vector it returns has {@link #dimension()} components and unit
 * length, so the cosine of two vectors is their dot product ({@link Vectors#dot}). Implementations
 * are thread-safe; {@link #close()} frees the model and must not race with calls in flight.
 */
public interface Embedder extends AutoCloseable {

    /** The model's identity (for example "bge-small-en-v1.5-q"): vectors of different models never mix. */
    String modelId();

    int dimension();

    /** One search question, with whatever instruction the model wants for queries. */
    float[] embedQuery(String query);

    /**
     * Documents to be searched, in order: element i is the vector of passage i. The result does not depend
     * on how the list is batched or parallelised. An empty list gives an empty list.
     *
     * @throws IllegalArgumentException if a passage is null or blank
     */
    List<float[]> embedPassages(List<String> passages);

    @Override
    void close();
}
