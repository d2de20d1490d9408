package dev.schemabrain.retrieve;

import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.store.DocumentKey;

import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * The dense half of retrieval: every table's and column's vector as int8 ({@link QuantizedVectors}), scanned by
 * brute force, and above {@link #GRAPH_TABLES} tables an HNSW graph over the table vectors so a question need not
 * score every table. The graph is built in the background when the index is made; until it is ready, searches scan.
 * One index serves every retriever mode of a catalog.
 */
public final class VectorIndex {

    /** From this many tables on, the table vectors get a graph (below it a scan is cheaper than the graph's search). */
    public static final int GRAPH_TABLES = 20_000;
    /** The graph's neighbours per node and its build beam (Lucene's defaults). */
    public static final int GRAPH_MAX_CONN = VectorGraph.MAX_CONN;
    public static final int GRAPH_BEAM = VectorGraph.BEAM;
    /**
     * A search's beam: twice the 500 tables the retriever asks for. At a million columns (copies of one catalog, so
     * many near twins) recall@50 was 0.951 with a beam of 500.
     */
    static final int SEARCH_BEAM = 1000;

    private final int dimension;
    private final QuantizedVectors tables;
    private final QuantizedVectors columns;
    private final int[] columnStart;
    private final CompletableFuture<VectorGraph> graph;
    private volatile long graphMillis = -1;

    private VectorIndex(int dimension, QuantizedVectors tables, QuantizedVectors columns, int[] columnStart,
                        int graphTables) {
        this.dimension = dimension;
        this.tables = tables;
        this.columns = columns;
        this.columnStart = columnStart;
        if (dimension > 0 && tables.size() >= graphTables) {
            graph = CompletableFuture.supplyAsync(this::buildGraph, VectorIndex::graphThread);
        } else {
            graph = null;
        }
    }

    /** The vectors of {@code tables} (in their order) and of their columns; missing ones count as no similarity. */
    public static VectorIndex of(List<Table> tables, Map<DocumentKey, float[]> vectors) {
        return of(tables, vectors, GRAPH_TABLES);
    }

    /** As {@link #of(List, Map)}, with the number of tables from which the graph is built. */
    public static VectorIndex of(List<Table> tables, Map<DocumentKey, float[]> vectors, int graphTables) {
        return of(tables, vectors::get, graphTables);
    }

    private static VectorIndex of(List<Table> tables, Function<DocumentKey, float[]> vectors, int graphTables) {
        Builder builder = builder(tables);
        for (Table t : tables) {
            builder.putIfPresent(DocumentKey.table(t.name()), vectors);
            for (Column c : t.columns()) {
                builder.putIfPresent(DocumentKey.column(t.name(), c.name()), vectors);
            }
        }
        return builder.build(graphTables);
    }

    /** Vectors of {@code tables} and their columns, given one at a time in any order ({@link Builder#put}). */
    public static Builder builder(List<Table> tables) {
        return new Builder(tables);
    }

    /**
     * Quantizes each vector as it is given, so a store's load need not hold them all as floats. A document the
     * tables do not have is ignored, and so is a second vector for one already given (the first source wins).
     */
    public static final class Builder {

        private final List<Table> tables;
        private final Map<QualifiedName, Integer> position = new HashMap<>();
        private final int[] columnStart;
        private final int[] nextColumn;
        private BitSet given;
        private QuantizedVectors tableVectors;
        private QuantizedVectors columnVectors;
        private int dimension;

        private Builder(List<Table> tables) {
            this.tables = tables;
            int n = tables.size();
            columnStart = new int[n + 1];
            nextColumn = new int[n];
            for (int i = 0; i < n; i++) {
                position.put(tables.get(i).name(), i);
                columnStart[i + 1] = columnStart[i] + tables.get(i).columns().size();
            }
        }

        public void put(DocumentKey key, float[] vector) {
            Integer t = position.get(key.table());
            if (t == null || vector.length == 0) {
                return;
            }
            if (tableVectors == null) {
                dimension = vector.length;
                tableVectors = QuantizedVectors.zeros(tables.size(), dimension);
                columnVectors = QuantizedVectors.zeros(columnStart[tables.size()], dimension);
                given = new BitSet(tables.size() + columnStart[tables.size()]);
            }
            int slot;
            if (key.column() == null) {
                slot = t;
            } else {
                int c = columnIndex(t, key.column());
                if (c < 0) {
                    return;
                }
                slot = tables.size() + columnStart[t] + c;
            }
            if (given.get(slot)) {
                return;
            }
            given.set(slot);
            if (key.column() == null) {
                tableVectors.set(t, vector);
            } else {
                columnVectors.set(slot - tables.size(), vector);
            }
        }

        private void putIfPresent(DocumentKey key, Function<DocumentKey, float[]> vectors) {
            float[] vector = vectors.apply(key);
            if (vector != null) {
                put(key, vector);
            }
        }

        /** The column's position in its table; the store gives columns in order, so the next one is tried first. */
        private int columnIndex(int t, String column) {
            List<Column> columns = tables.get(t).columns();
            int guess = nextColumn[t];
            if (guess < columns.size() && columns.get(guess).name().equals(column)) {
                nextColumn[t] = guess + 1;
                return guess;
            }
            for (int c = 0; c < columns.size(); c++) {
                if (columns.get(c).name().equals(column)) {
                    nextColumn[t] = c + 1;
                    return c;
                }
            }
            return -1;
        }

        public VectorIndex build() {
            return build(GRAPH_TABLES);
        }

        private VectorIndex build(int graphTables) {
            if (tableVectors == null) {
                return new VectorIndex(0, QuantizedVectors.zeros(0, 0), QuantizedVectors.zeros(0, 0), columnStart, graphTables);
            }
            return new VectorIndex(dimension, tableVectors, columnVectors, columnStart, graphTables);
        }
    }

    /**
     * The vectors of the tables at {@code positions} (in this index's order) and of their columns, as an index of
     * those tables alone: a caller limited to some tables searches them without the others' vectors.
     */
    public VectorIndex select(int[] positions) {
        int[] start = new int[positions.length + 1];
        for (int i = 0; i < positions.length; i++) {
            start[i + 1] = start[i] + columnCount(positions[i]);
        }
        if (dimension == 0) {
            return new VectorIndex(0, QuantizedVectors.zeros(0, 0), QuantizedVectors.zeros(0, 0), start, GRAPH_TABLES);
        }
        int[] columnRows = new int[start[positions.length]];
        for (int i = 0, k = 0; i < positions.length; i++) {
            for (int c = columnStart[positions[i]]; c < columnStart[positions[i] + 1]; c++) {
                columnRows[k++] = c;
            }
        }
        return new VectorIndex(dimension, tables.select(positions), columns.select(columnRows), start, GRAPH_TABLES);
    }

    /** The same vectors without a graph: every search scans (the reference the graph is measured against). */
    public VectorIndex scanning() {
        return new VectorIndex(dimension, tables, columns, columnStart, Integer.MAX_VALUE);
    }

    /** The same vectors with a graph whatever their number (its build starts now). */
    public VectorIndex graphing() {
        return new VectorIndex(dimension, tables, columns, columnStart, 0);
    }

    public int tableCount() {
        return tables.size();
    }

    /** The {@code k} tables whose vectors are nearest {@code q} by a full scan, best first. */
    public int[] exactNearestTables(float[] q, int k) {
        int n = tables.size();
        Integer[] order = new Integer[n];
        float[] score = new float[n];
        for (int t = 0; t < n; t++) {
            order[t] = t;
            score[t] = tables.dot(t, q);
        }
        Arrays.sort(order, (a, b) -> Float.compare(score[b], score[a]));
        return Arrays.stream(order).limit(k).mapToInt(Integer::intValue).toArray();
    }

    /** 0 when there are no vectors. */
    public int dimension() {
        return dimension;
    }

    /** The cosine of table {@code t}'s vector with the unit question {@code q}. */
    float table(int t, float[] q) {
        return tables.dot(t, q);
    }

    /** The cosine of column {@code c} (counted from the table's first) of table {@code t} with {@code q}. */
    float column(int t, int c, float[] q) {
        return columns.dot(columnStart[t] + c, q);
    }

    int columnCount(int t) {
        return columnStart[t + 1] - columnStart[t];
    }

    /**
     * The {@code k} tables whose vectors are nearest {@code q}, approximately (best first), or empty while there is
     * no graph (a small catalog, or the graph is still being built): then the caller scans.
     */
    public Optional<int[]> nearestTables(float[] q, int k) {
        return nearestTables(q, k, SEARCH_BEAM);
    }

    /** As {@link #nearestTables(float[], int)} with the search beam {@code beam}. */
    Optional<int[]> nearestTables(float[] q, int k, int beam) {
        VectorGraph g = graph == null ? null : graph.getNow(null);
        return g == null ? Optional.empty() : Optional.of(g.nearest(q, k, Math.max(k, beam)));
    }

    /** Whether a graph is (or will be) used: the catalog is above the threshold. */
    public boolean graphed() {
        return graph != null;
    }

    /** Waits for the graph (benchmarks and tests); true if there is one. */
    public boolean awaitGraph() {
        if (graph != null) {
            graph.join();
        }
        return graph != null;
    }

    /** How long the graph took to build, -1 if none was built (yet). */
    public long graphMillis() {
        return graphMillis;
    }

    /** Memory held: int8 vectors, and the graph once built. */
    public long bytes() {
        VectorGraph g = graph == null ? null : graph.getNow(null);
        return tables.bytes() + columns.bytes() + 4L * columnStart.length + (g == null ? 0 : g.bytes());
    }

    private VectorGraph buildGraph() {
        long start = System.nanoTime();
        VectorGraph g = VectorGraph.build(tables);
        graphMillis = (System.nanoTime() - start) / 1_000_000;
        return g;
    }

    private static void graphThread(Runnable build) {
        Thread t = new Thread(build, "vector-graph");
        t.setDaemon(true);
        t.setPriority(Thread.MIN_PRIORITY);
        t.start();
    }
}
