package dev.schemabrain.retrieve;

/**
 * Vectors stored as int8 with one scale per vector (symmetric, the largest component maps to ±127): a quarter of
 * float32's memory, and each component is off by at most half its vector's scale, so a cosine with a unit question
 * moves by less than about 0.002 — below the gaps that order bge-small's matches. The question stays float32.
 */
final class QuantizedVectors {

    private final int dimension;
    private final byte[] codes;
    private final float[] scales;

    private QuantizedVectors(int dimension, byte[] codes, float[] scales) {
        this.dimension = dimension;
        this.codes = codes;
        this.scales = scales;
    }

    /** An empty store of {@code count} vectors (all zero until {@link #set}). */
    static QuantizedVectors zeros(int count, int dimension) {
        return new QuantizedVectors(dimension, new byte[Math.multiplyExact(count, dimension)], new float[count]);
    }

    /** The vectors at {@code rows}, in that order, copied as they are (no second quantization). */
    QuantizedVectors select(int[] rows) {
        byte[] c = new byte[Math.multiplyExact(rows.length, dimension)];
        float[] sc = new float[rows.length];
        for (int i = 0; i < rows.length; i++) {
            System.arraycopy(codes, rows[i] * dimension, c, i * dimension, dimension);
            sc[i] = scales[rows[i]];
        }
        return new QuantizedVectors(dimension, c, sc);
    }

    int size() {
        return scales.length;
    }

    int dimension() {
        return dimension;
    }

    /** Quantizes {@code vector} into slot {@code i}; a null vector leaves the slot zero (no similarity). */
    void set(int i, float[] vector) {
        if (vector == null) {
            return;
        }
        int n = Math.min(vector.length, dimension);
        float max = 0;
        for (int j = 0; j < n; j++) {
            max = Math.max(max, Math.abs(vector[j]));
        }
        if (max == 0) {
            return;
        }
        float scale = max / 127f;
        scales[i] = scale;
        int offset = i * dimension;
        for (int j = 0; j < n; j++) {
            codes[offset + j] = (byte) Math.round(vector[j] / scale);
        }
    }

    /** Slot {@code i} as floats again (for tests and the graph's distance bound). */
    float[] get(int i) {
        float[] out = new float[dimension];
        int offset = i * dimension;
        for (int j = 0; j < dimension; j++) {
            out[j] = codes[offset + j] * scales[i];
        }
        return out;
    }

    /** The largest error of one component of slot {@code i}: half its scale. */
    float maxError(int i) {
        return scales[i] / 2;
    }

    /** The dot product of slot {@code i} with the float vector {@code q}; four accumulators so the CPU overlaps them. */
    float dot(int i, float[] q) {
        int n = Math.min(q.length, dimension);
        int offset = i * dimension;
        float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
        int j = 0;
        for (; j <= n - 4; j += 4) {
            s0 += codes[offset + j] * q[j];
            s1 += codes[offset + j + 1] * q[j + 1];
            s2 += codes[offset + j + 2] * q[j + 2];
            s3 += codes[offset + j + 3] * q[j + 3];
        }
        for (; j < n; j++) {
            s0 += codes[offset + j] * q[j];
        }
        return ((s0 + s1) + (s2 + s3)) * scales[i];
    }

    /** The dot product of two slots, in integers (the graph build compares stored vectors only). */
    float dot(int a, int b) {
        int oa = a * dimension;
        int ob = b * dimension;
        int s0 = 0, s1 = 0;
        int j = 0;
        for (; j <= dimension - 2; j += 2) {
            s0 += codes[oa + j] * codes[ob + j];
            s1 += codes[oa + j + 1] * codes[ob + j + 1];
        }
        for (; j < dimension; j++) {
            s0 += codes[oa + j] * codes[ob + j];
        }
        return (s0 + s1) * scales[a] * scales[b];
    }

    /** Bytes held: codes and scales. */
    long bytes() {
        return codes.length + 4L * scales.length;
    }
}
