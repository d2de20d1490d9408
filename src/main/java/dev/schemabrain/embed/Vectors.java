package dev.schemabrain.embed;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Vectors as store BLOBs (little-endian float32) and the dot products ranking needs. */
public final class Vectors {

    private Vectors() {
    }

    public static byte[] toBytes(float[] vector) {
        ByteBuffer buffer = ByteBuffer.allocate(vector.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        buffer.asFloatBuffer().put(vector);
        return buffer.array();
    }

    public static float[] fromBytes(byte[] bytes) {
        float[] vector = new float[bytes.length / Float.BYTES];
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(vector);
        return vector;
    }

    public static float dot(float[] a, float[] b) {
        return dot(a, 0, b);
    }

    /** The dot product of {@code q} with the vector at {@code offset} of a flat array; four accumulators. */
    public static float dot(float[] flat, int offset, float[] q) {
        float s0 = 0;
        float s1 = 0;
        float s2 = 0;
        float s3 = 0;
        int i = 0;
        int n = q.length;
        for (; i + 3 < n; i += 4) {
            s0 += flat[offset + i] * q[i];
            s1 += flat[offset + i + 1] * q[i + 1];
            s2 += flat[offset + i + 2] * q[i + 2];
            s3 += flat[offset + i + 3] * q[i + 3];
        }
        for (; i < n; i++) {
            s0 += flat[offset + i] * q[i];
        }
        return s0 + s1 + s2 + s3;
    }
}
