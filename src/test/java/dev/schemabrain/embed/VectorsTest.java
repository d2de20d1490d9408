package dev.schemabrain.embed;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class VectorsTest {

    @Test
    void bytesRoundTripLittleEndian() {
        float[] v = {1f, -2.5f, 0f, Float.MIN_VALUE, 3.4e38f, Float.NaN};
        byte[] b = Vectors.toBytes(v);
        assertEquals(24, b.length);
        assertArrayEquals(new byte[] {0, 0, (byte) 0x80, 0x3f}, java.util.Arrays.copyOf(b, 4)); // 1.0f
        assertArrayEquals(v, Vectors.fromBytes(b));
        assertArrayEquals(new float[0], Vectors.fromBytes(new byte[0]));
        assertThrows(IllegalArgumentException.class, () -> Vectors.fromBytes(new byte[5]));
    }

    @Test
    void dotProducts() {
        float[] a = {1, 2, 3, 4, 5, 6, 7};
        float[] b = {7, 6, 5, 4, 3, 2, 1};
        assertEquals(84f, Vectors.dot(a, b));
        assertThrows(IllegalArgumentException.class, () -> Vectors.dot(a, new float[3]));
        // Scanning a flat array of 3 vectors of length 7 (not a multiple of the 4 accumulators).
        float[] flat = new float[21];
        System.arraycopy(a, 0, flat, 0, 7);
        System.arraycopy(b, 0, flat, 7, 7);
        System.arraycopy(a, 0, flat, 14, 7);
        assertEquals(140f, Vectors.dot(flat, 0, a));
        assertEquals(84f, Vectors.dot(flat, 7, a));
        assertEquals(140f, Vectors.dot(flat, 14, a));
        assertThrows(IndexOutOfBoundsException.class, () -> Vectors.dot(flat, 15, a));
    }

    @Test
    void normalize() {
        float[] v = Vectors.normalize(new float[] {3, 4});
        assertArrayEquals(new float[] {0.6f, 0.8f}, v, 1e-7f);
        assertEquals(1f, Vectors.norm(v), 1e-6f);
        assertArrayEquals(new float[] {0, 0}, Vectors.normalize(new float[] {0, 0}));
    }
}
