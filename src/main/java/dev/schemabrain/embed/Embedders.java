package dev.schemabrain.embed;

import dev.schemabrain.error.EmbeddingException;

import java.util.Locale;

/**
 * The one embedding model a process shares: loaded on first use, kept for the life of the process. bge-small unless
 * the system property {@value #CHOICE_PROPERTY} (or the environment variable {@value #CHOICE_ENV}) names
 * {@value #STATIC}: the table distilled from it ({@link StaticEmbedder}). Stores are indexed and searched with the
 * same choice: vectors of different models never mix.
 */
public final class Embedders {

    public static final String CHOICE_PROPERTY = "schemabrain.embedder";
    public static final String CHOICE_ENV = "SCHEMABRAIN_EMBEDDER";
    public static final String BGE_SMALL = "bge-small";
    public static final String STATIC = "static";
    /** The chosen model's identity; bge-small's when the choice is unknown (then {@link #shared()} refuses to load). */
    public static final String MODEL_ID = STATIC.equals(choice()) ? StaticEmbedder.MODEL_ID : OnnxEmbedder.MODEL_ID;
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
                        e = load(choice());
                    } catch (EmbeddingException ex) {
                        throw new IllegalStateException(ex.getMessage(), ex);
                    }
                    shared = e;
                }
            }
        }
        return e;
    }

    /** The embedder named by the property or the environment, lower-cased; {@value #BGE_SMALL} when neither is set. */
    public static String choice() {
        String named = System.getProperty(CHOICE_PROPERTY);
        if (named == null || named.isBlank()) {
            named = System.getenv(CHOICE_ENV);
        }
        return named == null || named.isBlank() ? BGE_SMALL : named.strip().toLowerCase(Locale.ROOT);
    }

    static Embedder load(String choice) throws EmbeddingException {
        switch (choice) {
            case BGE_SMALL:
                return OnnxEmbedder.load();
            case STATIC:
                return StaticEmbedder.load();
            default:
                throw new EmbeddingException("The embedder '" + choice + "' named by " + CHOICE_PROPERTY + " or "
                        + CHOICE_ENV + " is unknown; name " + BGE_SMALL + " or " + STATIC + ".");
        }
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
