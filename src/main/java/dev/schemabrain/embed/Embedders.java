package dev.schemabrain.embed;

/** The one embedding model a process shares: loaded on first use, kept for the life of the process. */
public final class Embedders {

    public static final String MODEL_ID = OnnxEmbedder.MODEL_ID;
    private static volatile Embedder shared;

    private Embedders() {
    }

    /** The shared model; an IllegalStateException carrying one sentence when it cannot be loaded. */
    public static Embedder shared() {
        Embedder e = shared;
        if (e == null) {
            synchronized (Embedders.class) {
                e = shared;
                if (e == null) {
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
