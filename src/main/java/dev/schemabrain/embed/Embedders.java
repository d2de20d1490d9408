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
}
