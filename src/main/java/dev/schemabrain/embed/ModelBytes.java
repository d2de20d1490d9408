package dev.schemabrain.embed;

import dev.schemabrain.error.EmbeddingException;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLConnection;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;

/**
 * The embedding model's bytes, off the Java heap: a 34 MB array would be promoted straight to the old generation and
 * keep the heap that size. In ORT format onnxruntime keeps reading its weights from this buffer, so it must stay
 * reachable for as long as a session made from it.
 */
record ModelBytes(Format format, ByteBuffer bytes) {

    enum Format {
        /** onnxruntime's own format, converted by the build: weights used in place. */
        ORT(OnnxEmbedder.ORT_RESOURCE),
        /** The ONNX file as langchain4j ships it: each session copies and optimises it. */
        ONNX(OnnxEmbedder.ONNX_RESOURCE);

        final String resource;

        Format(String resource) {
            this.resource = resource;
        }
    }

    static ModelBytes read(Format format) throws EmbeddingException {
        URL url = OnnxEmbedder.class.getResource(format.resource);
        if (url == null) {
            throw new EmbeddingException("The embedding model " + format.resource + " is missing from the class path;"
                    + " rebuild with 'mvn package' (the build converts langchain4j's bge-small-en-v15-q model).");
        }
        try {
            URLConnection connection = url.openConnection();
            long size = connection.getContentLengthLong();
            try (InputStream in = connection.getInputStream(); ReadableByteChannel channel = Channels.newChannel(in)) {
                if (size < 0 || size > Integer.MAX_VALUE) {
                    byte[] bytes = in.readAllBytes();
                    return new ModelBytes(format, ByteBuffer.allocateDirect(bytes.length).put(bytes).flip());
                }
                ByteBuffer model = ByteBuffer.allocateDirect((int) size);
                while (model.hasRemaining() && channel.read(model) >= 0) {
                    // read until full
                }
                if (model.hasRemaining()) {
                    throw new IOException("the model ended after " + model.position() + " of " + size + " bytes");
                }
                return new ModelBytes(format, model.flip());
            }
        } catch (IOException e) {
            throw new EmbeddingException("Cannot read the embedding model " + format.resource + ": " + e.getMessage(), e);
        }
    }
}
