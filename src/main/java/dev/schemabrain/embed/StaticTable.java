package dev.schemabrain.embed;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.zip.CRC32;

/**
 * The static embedding table ({@link StaticTableGenerator} writes it, {@link StaticEmbedder} reads it): one int8 row
 * per vocabulary token with its own scale, the vocabulary itself, and the projection that made the rows (mean,
 * principal components, token weights) and which rows training then moved, so an untrained row can be recomputed
 * from the model and checked.
 *
 * <p>Layout, big-endian: magic "SBST", version, rows, dims, source dims, CRC32 of the vocabulary; the vocabulary (its
 * length, then the tokens joined by '\n', UTF-8); the row scales (float32 each); the rows (rows x dims int8); then
 * the projection: mean (source dims float32), components (dims x source dims float32), weights (rows float32); the
 * rows training moved (a bit per row, little-endian, rows / 8 rounded up bytes); last a CRC32 of everything before it.
 */
final class StaticTable {

    static final int MAGIC = 0x53425354; // "SBST"
    static final int VERSION = 3;

    /** The tokens in id order; null when read for embedding, which keeps only {@link #joinedVocabulary}. */
    final List<String> vocabulary;
    /** The tokens joined by '\n': what the tokenizer reads. */
    final String joinedVocabulary;
    /** How many rows (tokens) the table has. */
    final int size;
    final int dims;
    final int sourceDims;
    final float[] scales;
    /** The int8 rows start at {@link #rowOffset}: the embedder keeps the file's bytes instead of a copy. */
    final byte[] rows;
    final int rowOffset;
    /** The projection; null when read without it. */
    final float[] mean;
    final float[] components;
    final float[] weights;
    /** The rows training moved away from the model's projection; null when read without the projection. */
    final BitSet trained;

    StaticTable(List<String> vocabulary, int dims, int sourceDims, float[] scales, byte[] rows, int rowOffset,
                float[] mean, float[] components, float[] weights, BitSet trained) {
        this(vocabulary, String.join("\n", vocabulary), vocabulary.size(), dims, sourceDims, scales, rows, rowOffset, mean,
                components, weights, trained);
    }

    private StaticTable(List<String> vocabulary, String joinedVocabulary, int size, int dims, int sourceDims,
                        float[] scales, byte[] rows, int rowOffset, float[] mean, float[] components, float[] weights,
                        BitSet trained) {
        this.vocabulary = vocabulary;
        this.joinedVocabulary = joinedVocabulary;
        this.size = size;
        this.dims = dims;
        this.sourceDims = sourceDims;
        this.scales = scales;
        this.rows = rows;
        this.rowOffset = rowOffset;
        this.mean = mean;
        this.components = components;
        this.weights = weights;
        this.trained = trained;
    }

    /** The CRC32 of the vocabulary: a table only fits the tokenizer it was made with. */
    static int vocabularyChecksum(List<String> vocabulary) {
        CRC32 crc = new CRC32();
        crc.update(joined(vocabulary));
        return (int) crc.getValue();
    }

    private static byte[] joined(List<String> vocabulary) {
        for (String token : vocabulary) {
            if (token.isEmpty() || token.indexOf('\n') >= 0) {
                throw new IllegalArgumentException("a vocabulary token is empty or holds a line break: '" + token + "'");
            }
        }
        return String.join("\n", vocabulary).getBytes(StandardCharsets.UTF_8);
    }

    /** Row {@code id} as floats (scale times the int8 values). */
    float[] row(int id) {
        float[] out = new float[dims];
        float scale = scales[id];
        for (int d = 0; d < dims; d++) {
            out[d] = scale * rows[rowOffset + id * dims + d];
        }
        return out;
    }

    /** The weighted projection of a model vector, as the generator computes the row of token {@code id} before rounding. */
    float[] project(float[] source, int id) {
        float[] out = projectUnweighted(source);
        for (int k = 0; k < dims; k++) {
            out[k] *= weights[id];
        }
        return out;
    }

    /** A model vector in the table's space: centred and projected on the principal components. */
    float[] projectUnweighted(float[] source) {
        float[] out = new float[dims];
        for (int k = 0; k < dims; k++) {
            double s = 0;
            for (int j = 0; j < sourceDims; j++) {
                s += (source[j] - mean[j]) * (double) components[k * sourceDims + j];
            }
            out[k] = (float) s;
        }
        return out;
    }

    byte[] toBytes() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(vocabulary.size() * dims + 1_000_000);
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeInt(MAGIC);
        out.writeInt(VERSION);
        out.writeInt(vocabulary.size());
        out.writeInt(dims);
        out.writeInt(sourceDims);
        out.writeInt(vocabularyChecksum(vocabulary));
        byte[] tokens = joined(vocabulary);
        out.writeInt(tokens.length);
        out.write(tokens);
        for (float s : scales) {
            out.writeFloat(s);
        }
        out.write(rows, rowOffset, vocabulary.size() * dims);
        for (float[] floats : new float[][] {mean, components, weights}) {
            for (float f : floats) {
                out.writeFloat(f);
            }
        }
        out.write(Arrays.copyOf(trained.toByteArray(), (vocabulary.size() + 7) / 8));
        out.flush();
        CRC32 crc = new CRC32();
        crc.update(bytes.toByteArray());
        out.writeInt((int) crc.getValue());
        out.flush();
        return bytes.toByteArray();
    }

    /**
     * Reads a table; with {@code projection} false the embedder's load skips the projection and the whole-file CRC
     * (the vocabulary's own checksum still guards the tokens).
     */
    static StaticTable read(byte[] all, boolean projection) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(all);
        try {
            if (b.getInt() != MAGIC) {
                throw new IOException("not a static embedding table");
            }
            int version = b.getInt();
            if (version != VERSION) {
                throw new IOException("table version " + version + ", this build reads " + VERSION);
            }
            int n = b.getInt();
            int dims = b.getInt();
            int sourceDims = b.getInt();
            int checksum = b.getInt();
            int length = b.getInt();
            CRC32 tokens = new CRC32();
            tokens.update(all, b.position(), length);
            if ((int) tokens.getValue() != checksum) {
                throw new IOException("the vocabulary's checksum does not match");
            }
            // One string, decoded once: a cold JVM decodes it many times faster than 91,000 small ones.
            String joined = new String(all, b.position(), length, StandardCharsets.UTF_8);
            b.position(b.position() + length);
            int count = 1;
            for (int i = 0; i < joined.length(); i++) {
                if (joined.charAt(i) == '\n') {
                    count++;
                }
            }
            if (count != n) {
                throw new IOException("the table holds " + count + " tokens for " + n + " rows");
            }
            float[] scales = floats(b, n);
            int rowOffset = b.position();
            b.position(rowOffset + n * dims);
            if (!projection) {
                return new StaticTable(null, joined, n, dims, sourceDims, scales, all, rowOffset, null, null, null, null);
            }
            List<String> vocabulary = List.of(joined.split("\n", -1));
            float[] mean = floats(b, sourceDims);
            float[] components = floats(b, dims * sourceDims);
            float[] weights = floats(b, n);
            byte[] bits = new byte[(n + 7) / 8];
            b.get(bits);
            BitSet trained = BitSet.valueOf(bits);
            CRC32 crc = new CRC32();
            crc.update(all, 0, b.position());
            if ((int) crc.getValue() != b.getInt()) {
                throw new IOException("the table's checksum does not match");
            }
            return new StaticTable(vocabulary, dims, sourceDims, scales, all, rowOffset, mean, components, weights, trained);
        } catch (java.nio.BufferUnderflowException e) {
            throw new IOException("the table is truncated", e);
        }
    }

    private static float[] floats(ByteBuffer b, int n) {
        float[] out = new float[n];
        b.asFloatBuffer().get(out);
        b.position(b.position() + n * Float.BYTES);
        return out;
    }
}
