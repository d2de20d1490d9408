package dev.schemabrain.embed;

import dev.schemabrain.error.EmbeddingException;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.onnx.AbstractInProcessEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.OnnxBertBiEncoder;
import dev.langchain4j.model.embedding.onnx.PoolingMode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;

/**
 * bge-small-en-v1.5 (int8-quantized, 384 dimensions) running in-process: langchain4j's ONNX file, converted by the
 * build into onnxruntime's own format ({@link ModelResources}) and read from the class path; no network, no files.
 * Queries get the model's instruction prefix, passages none.
 *
 * <p>Two ONNX sessions over the same model, each tuned for its job (measured on 2 cores, see EmbedBenchmark):
 * <ul>
 *   <li>passages: one session with one intra-op thread, called by a small pool of workers, one text per call.
 *       Two single-threaded calls in parallel beat one call on two threads by half (about 600 against 400
 *       passages/s). Texts are not batched into one ONNX call: the model quantizes activations per call, so a
 *       batch would change every vector (cosine to the single-text vector down to 0.976). Batches of texts of
 *       equal token length (no padding) do use about 2x less CPU per text (a call's fixed cost, about 2 ms of
 *       its 3, is shared), but their vectors drift as much (EmbedProfileBenchmark, docs/architecture.md);</li>
 *   <li>queries: on the caller's thread. With four or more cores a second session with two intra-op threads
 *       (p50 about 5-6 ms instead of 7-8, for about 55 MB); below four cores queries share the passage session:
 *       on 2 cores the two spinning threads competed with the server's own and the p95 doubled.</li>
 * </ul>
 * Thread-safe. {@link #close()} waits for calls in flight.
 */
public final class OnnxEmbedder implements Embedder {

    public static final String MODEL_ID = "bge-small-en-v1.5-q";
    public static final int DIMENSION = 384;
    /** BGE's retrieval instruction: for queries only, passages are embedded as they are. */
    static final String QUERY_PREFIX = "Represent this sentence for searching relevant passages: ";

    /** The model as langchain4j ships it. */
    static final String ONNX_RESOURCE = "/bge-small-en-v1.5-q.onnx";
    /**
     * The same model in onnxruntime's own format, converted by the build ({@link ModelResources}): its sessions
     * take the weights from our buffer instead of copying them, and start without optimising the graph again.
     */
    static final String ORT_RESOURCE = "/bge-small-en-v1.5-q.ort";
    private static final Logger log = LoggerFactory.getLogger(OnnxEmbedder.class);

    /** How many passage workers and query threads; {@link #defaults()} suits the machine. */
    public record Settings(int passageWorkers, int queryThreads) {

        public Settings {
            if (passageWorkers < 1 || queryThreads < 1) {
                throw new IllegalArgumentException("workers and threads must be at least 1");
            }
        }

        /** One passage worker per core up to 4 (measured: 2 on 2 cores); two query threads from four cores on. */
        public static Settings defaults() {
            int cores = Runtime.getRuntime().availableProcessors();
            return new Settings(Math.min(cores, 4), cores >= 4 ? 2 : 1);
        }
    }

    private final ExecutorService workers;
    /** onnxruntime reads the weights from these bytes (ORT format) for as long as the sessions live. */
    private final ModelBytes model;
    private final List<OrtSession> sessions;
    private final Model passages;
    private final Model queries;
    private final ReentrantReadWriteLock lifecycle = new ReentrantReadWriteLock();
    private boolean closed;

    private OnnxEmbedder(ExecutorService workers, ModelBytes model, List<OrtSession> sessions, Model passages,
                         Model queries) {
        this.workers = workers;
        this.model = model;
        this.sessions = sessions;
        this.passages = passages;
        this.queries = queries;
    }

    /** Loads the model with {@link Settings#defaults()}: about a second; call it when the model is first needed. */
    public static OnnxEmbedder load() throws EmbeddingException {
        return load(Settings.defaults());
    }

    public static OnnxEmbedder load(Settings settings) throws EmbeddingException {
        return load(settings, OnnxEmbedder.class.getResource(ORT_RESOURCE) != null ? ModelBytes.Format.ORT
                : ModelBytes.Format.ONNX);
    }

    /** Loads the model in {@code format}; the ONNX file is the fallback of a class path the build did not convert. */
    static OnnxEmbedder load(Settings settings, ModelBytes.Format format) throws EmbeddingException {
        long start = System.nanoTime();
        NativeLibs.load();
        ModelBytes model = ModelBytes.read(format);
        List<OrtSession> sessions = new ArrayList<>(2);
        ExecutorService workers = null;
        try {
            OrtSession passageSession = session(model, 1);
            sessions.add(passageSession);
            OrtSession querySession = passageSession;
            if (settings.queryThreads() > 1) {
                querySession = session(model, settings.queryThreads());
                sessions.add(querySession);
            }
            workers = Executors.newFixedThreadPool(settings.passageWorkers(), daemonThreads());
            OnnxEmbedder embedder = new OnnxEmbedder(workers, model, List.copyOf(sessions),
                    new Model(passageSession, workers), new Model(querySession, Runnable::run));
            embedder.embedQuery("warm up");           // first runs allocate; also checks the output
            embedder.embedPassages(List.of("warm up"));
            log.debug("loaded {} ({}) in {} ms ({} passage workers, {} query threads)", MODEL_ID, format,
                    (System.nanoTime() - start) / 1_000_000, settings.passageWorkers(), settings.queryThreads());
            return embedder;
        } catch (OrtException | RuntimeException e) {
            if (workers != null) {
                workers.shutdownNow();
            }
            sessions.forEach(OnnxEmbedder::closeQuietly);
            throw new EmbeddingException("Cannot load the embedding model " + MODEL_ID + " (" + e.getMessage()
                    + "); rerun with -v for details.", e);
        }
    }

    @Override
    public String modelId() {
        return MODEL_ID;
    }

    @Override
    public int dimension() {
        return DIMENSION;
    }

    @Override
    public float[] embedQuery(String query) {
        requireText(query, "query");
        return run(() -> checked(queries.embed(QUERY_PREFIX + query).content().vector()));
    }

    @Override
    public List<float[]> embedPassages(List<String> texts) {
        if (texts.isEmpty()) {
            return List.of();
        }
        List<TextSegment> segments = new ArrayList<>(texts.size());
        for (int i = 0; i < texts.size(); i++) {
            segments.add(TextSegment.from(requireText(texts.get(i), "passage " + i)));
        }
        // One text runs on the caller's thread; more fan out over the workers, one text per task.
        return run(() -> {
            List<Embedding> embeddings = passages.embedAll(segments).content();
            List<float[]> vectors = new ArrayList<>(embeddings.size());
            for (Embedding e : embeddings) {
                vectors.add(checked(e.vector()));
            }
            return vectors;
        });
    }

    @Override
    public void close() {
        lifecycle.writeLock().lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            workers.shutdownNow();
            // A caller interrupted while waiting can leave a task running: never free a session under it.
            if (awaitQuietly(workers)) {
                sessions.forEach(OnnxEmbedder::closeQuietly);
            } else {
                log.warn("embedding workers did not stop within 10 s; the model's memory is freed at exit");
            }
        } finally {
            lifecycle.writeLock().unlock();
        }
    }

    private <T> T run(Supplier<T> call) {
        lifecycle.readLock().lock();
        try {
            if (closed) {
                throw new IllegalStateException("the embedder is closed");
            }
            return call.get();
        } catch (IllegalStateException | IllegalArgumentException e) {
            throw e;
        } catch (RuntimeException e) {
            // langchain4j wraps ORT failures and interrupts of the worker wait in plain RuntimeExceptions.
            if (e.getCause() instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new IllegalStateException("embedding with " + MODEL_ID + " failed: " + e.getMessage(), e);
        } finally {
            lifecycle.readLock().unlock();
        }
    }

    /** The library returns unit vectors; this keeps cosine = dot true even if that ever changes. */
    private static float[] checked(float[] v) {
        if (v.length != DIMENSION) {
            throw new IllegalStateException(MODEL_ID + " returned " + v.length + " dimensions, expected " + DIMENSION);
        }
        float norm = Vectors.norm(v);
        return Math.abs(norm - 1f) > 1e-5f ? Vectors.normalize(v) : v;
    }

    private static String requireText(String text, String what) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("the " + what + " is blank");
        }
        return text;
    }

    static OrtSession session(ModelBytes model, int intraOpThreads) throws OrtException {
        try (OrtSession.SessionOptions options = new OrtSession.SessionOptions()) {
            options.setIntraOpNumThreads(intraOpThreads);
            options.setInterOpNumThreads(1);
            // Idle intra-op threads keep onnxruntime's default spin-wait: without it ("session.intra_op.
            // allow_spinning" = "0") a query used ~20% less CPU but its p50 was 0.5-1.5 ms slower.
            if (model.format() == ModelBytes.Format.ORT) {
                // The weights stay in our buffer instead of a copy per session (the load's peak RSS 241-252 against
                // 226 MB, docs/operations.md); the graph was optimised when the build converted it.
                options.addConfigEntry("session.use_ort_model_bytes_directly", "1");
                options.addConfigEntry("session.use_ort_model_bytes_for_initializers", "1");
            }
            return OrtEnvironment.getEnvironment().createSession(model.bytes().duplicate(), options);
        }
    }

    private static void closeQuietly(OrtSession session) {
        try {
            session.close();
        } catch (OrtException e) {
            log.debug("closing an ONNX session: {}", e.toString());
        }
    }

    private static boolean awaitQuietly(ExecutorService pool) {
        try {
            return pool.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static ThreadFactory daemonThreads() {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread t = new Thread(runnable, "schemabrain-embed-" + count.incrementAndGet());
            t.setDaemon(true); // never keeps the JVM alive
            return t;
        };
    }

    /**
     * langchain4j's in-process model over our own session (its public extension point): the library's text
     * handling (long texts split at 510 tokens and averaged, CLS pooling, normalisation) with our threading.
     */
    private static final class Model extends AbstractInProcessEmbeddingModel {

        private final OnnxBertBiEncoder encoder;

        Model(OrtSession session, Executor executor) {
            super(executor);
            try (InputStream tokenizer = OnnxEmbedder.class.getResourceAsStream(WordVocabulary.TOKENIZER_RESOURCE)) {
                if (tokenizer == null) {
                    throw new IllegalStateException("the tokenizer " + WordVocabulary.TOKENIZER_RESOURCE + " is missing from the class path");
                }
                this.encoder = new OnnxBertBiEncoder(OrtEnvironment.getEnvironment(), session, tokenizer, PoolingMode.CLS);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        protected OnnxBertBiEncoder model() {
            return encoder;
        }

        @Override
        protected Integer knownDimension() {
            return DIMENSION;
        }
    }
}
