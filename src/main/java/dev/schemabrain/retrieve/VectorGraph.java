package dev.schemabrain.retrieve;

import org.apache.lucene.search.KnnCollector;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.util.hnsw.HnswGraphBuilder;
import org.apache.lucene.util.hnsw.HnswGraphSearcher;
import org.apache.lucene.util.hnsw.OnHeapHnswGraph;
import org.apache.lucene.util.hnsw.RandomVectorScorer;
import org.apache.lucene.util.hnsw.RandomVectorScorerSupplier;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * An HNSW graph (Lucene's builder and searcher) over int8 vectors held by {@link QuantizedVectors}. Lucene's graph
 * code is used directly rather than through an index of {@code KnnFloatVectorField}s: the vectors are already in
 * memory in the form the scan reads, so a Lucene index would hold a second copy (float32, or its own int8 copy)
 * and a codec around it, for nothing the retriever needs. Similarity is the dot product of unit vectors, mapped to
 * [0, 1] as Lucene's graph expects.
 */
final class VectorGraph {

    /** Neighbours per node and the build's beam: Lucene's defaults. */
    static final int MAX_CONN = 16;
    static final int BEAM = 100;

    private final QuantizedVectors vectors;
    private final OnHeapHnswGraph graph;

    private VectorGraph(QuantizedVectors vectors, OnHeapHnswGraph graph) {
        this.vectors = vectors;
        this.graph = graph;
    }

    static VectorGraph build(QuantizedVectors vectors) {
        try {
            HnswGraphBuilder builder = HnswGraphBuilder.create(new Supplier(vectors), MAX_CONN, BEAM, 42);
            return new VectorGraph(vectors, builder.build(vectors.size()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);  // in-memory vectors: not thrown
        }
    }

    /** Up to {@code k} slots nearest to {@code q}, best first, found with a search beam of {@code beam} (at least k). */
    int[] nearest(float[] q, int k, int beam) {
        RandomVectorScorer scorer = new RandomVectorScorer() {
            @Override
            public float score(int node) {
                return similarity(vectors.dot(node, q));
            }

            @Override
            public int maxOrd() {
                return vectors.size();
            }
        };
        try {
            KnnCollector found = HnswGraphSearcher.search(scorer, Math.min(Math.max(k, beam), vectors.size()), graph, null,
                    Integer.MAX_VALUE);
            ScoreDoc[] docs = found.topDocs().scoreDocs;
            int[] out = new int[Math.min(k, docs.length)];
            for (int i = 0; i < out.length; i++) {
                out[i] = docs[i].doc;
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    long bytes() {
        return graph.ramBytesUsed();
    }

    private static float similarity(float dot) {
        return Math.max(0, (1 + dot) / 2);
    }

    /** Scores stored vectors against one another, for the build. Read-only, so one instance serves every copy. */
    private record Supplier(QuantizedVectors vectors) implements RandomVectorScorerSupplier {
        @Override
        public RandomVectorScorer scorer(int ord) {
            return new RandomVectorScorer() {
                @Override
                public float score(int node) {
                    return similarity(vectors.dot(ord, node));
                }

                @Override
                public int maxOrd() {
                    return vectors.size();
                }
            };
        }

        @Override
        public RandomVectorScorerSupplier copy() {
            return this;
        }
    }
}
