package dev.schemabrain.mcp.server;

import java.io.InputStream;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * The SDK's view of stdin: only the frames {@link StdinGuard} let through, one queued byte array per
 * line. A queue rather than a pipe, because {@code PipedInputStream} fails when the writing thread
 * ends, which is exactly what happens at end of input.
 */
final class FrameInputStream extends InputStream {

    private static final byte[] END = new byte[0];

    private final BlockingQueue<byte[]> frames = new LinkedBlockingQueue<>();
    private byte[] current = new byte[0];
    private int position;
    private boolean ended;

    void offer(byte[] frame) {
        if (frame.length > 0) {
            frames.add(frame);
        }
    }

    /** No more frames: the reader sees end of stream once it has consumed what is queued. */
    void end() {
        frames.add(END);
    }

    @Override
    public int read() {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public synchronized int read(byte[] buffer, int offset, int length) {
        if (length == 0) {
            return 0;
        }
        while (position >= current.length) {
            if (ended) {
                return -1;
            }
            try {
                byte[] next = frames.take();
                if (next == END) {
                    ended = true;
                    return -1;
                }
                current = next;
                position = 0;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                ended = true;
                return -1;
            }
        }
        int n = Math.min(length, current.length - position);
        System.arraycopy(current, position, buffer, offset, n);
        position += n;
        return n;
    }

    @Override
    public synchronized int available() {
        return current.length - position;
    }
}
