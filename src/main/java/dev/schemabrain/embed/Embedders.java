package dev.schemabrain.embed;

import dev.schemabrain.error.EmbeddingException;

/** The one embedding model a process shares: loaded on first use, kept for the life of the process. */
public final class Embedders {

    public static final String MODEL_ID = OnnxEmbedder.MODEL_ID;
    private static volatile Embedder shared;
    /** Set when the JVM begins to exit: no model is loaded after that. */
    private static boolean exiting;

    private Embedders() {
    }

    /** The shared model; an IllegalStateException carrying one sentence when it cannot be loaded. */
    public static Embedder shared() {
        Embedder e = shared;
        if (e == null) {
            synchronized (Embedders.class) {
                e = shared;
                if (e == null) {
                    if (exiting) {
                        throw new IllegalStateException("the process is shutting down; the embedding model is not loaded");
                    }
                    try {
                        e = OnnxEmbedder.load();
                    } catch (EmbeddingException ex) {
                        throw new IllegalStateException(ex.getMessage(), ex);
                    }
                    shared = e;
                }
            }
        }
        return e;
    }

    /**
     * For a shutdown hook: refuses new loads, waits for a load under way (it holds the lock) and for calls
     * in flight, then closes the model. A JVM that exits while onnxruntime runs (a SIGTERM while serve
     * warms up) otherwise crashes in native code and writes an hs_err file holding the command line.
     */
    public static void shutDown() {
        synchronized (Embedders.class) {
            exiting = true;
        }
        closeShared();
    }

    /**
     * Closes the shared model if it was loaded, waiting for calls in flight, so no inference runs in
     * native code while the JVM exits; a holder of the old instance gets an IllegalStateException.
     */
    public static void closeShared() {
        Embedder e;
        synchronized (Embedders.class) {
            e = shared;
            shared = null; // a later caller in this process (tests) loads a fresh one
        }
        if (e != null) {
            try {
                e.close();
            } catch (Exception ignored) {
                // Closing at exit: nothing left to protect.
            }
        }
    }
}
