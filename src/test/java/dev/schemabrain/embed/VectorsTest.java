package dev.schemabrain.embed;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class VectorsTest {

    private static final float[] A = {1, 2, 3, 4, 5, 6, 7};
    private static final float[] B = {7, 6, 5, 4, 3, 2, 1};

    @Test
    void bytesRoundTripLittleEndian() {
        float[] v = {1f, -2.5f, 0f, Float.MIN_VALUE, 3.4e38f, Float.NaN};
        byte[] b = Vectors.toBytes(v);
        assertAll(() -> assertEquals(24, b.length),
                () -> assertArrayEquals(new byte[] {0, 0, (byte) 0x80, 0x3f}, Arrays.copyOf(b, 4)), // 1.0f
                () -> assertArrayEquals(v, Vectors.fromBytes(b)));
    }

    @Test
    void noBytesAreAnEmptyVector() {
        assertArrayEquals(new float[0], Vectors.fromBytes(new byte[0]));
    }

    @Test
    void bytesThatAreNotWholeFloatsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> Vectors.fromBytes(new byte[5]));
    }

    @Test
    void dotProduct() {
        assertEquals(84f, Vectors.dot(A, B));
    }

    @Test
    void vectorsOfDifferentLengthsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> Vectors.dot(A, new float[3]));
    }

    /** Scanning a flat array of 3 vectors of length 7 (not a multiple of the 4 accumulators). */
    private static float[] flat() {
        float[] flat = new float[21];
        System.arraycopy(A, 0, flat, 0, 7);
        System.arraycopy(B, 0, flat, 7, 7);
        System.arraycopy(A, 0, flat, 14, 7);
        return flat;
    }

    @ParameterizedTest(name = "offset {0}")
    @CsvSource({"0, 140", "7, 84", "14, 140"})
    void dotProductsInAFlatArray(int offset, float dot) {
        assertEquals(dot, Vectors.dot(flat(), offset, A));
    }

    @Test
    void anOffsetPastTheLastVectorIsRefused() {
        assertThrows(IndexOutOfBoundsException.class, () -> Vectors.dot(flat(), 15, A));
    }

    @Test
    void normalize() {
        float[] v = Vectors.normalize(new float[] {3, 4});
        assertAll(() -> assertArrayEquals(new float[] {0.6f, 0.8f}, v, 1e-7f),
                () -> assertEquals(1f, Vectors.norm(v), 1e-6f));
    }

    @Test
    void theZeroVectorStaysZero() {
        assertArrayEquals(new float[] {0, 0}, Vectors.normalize(new float[] {0, 0}));
    }
}
