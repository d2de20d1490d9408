package dev.schemabrain.embed;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.schemabrain.error.EmbeddingException;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Distils bge-small into the static table {@link StaticEmbedder} reads, in the manner of model2vec: every vocabulary
 * token runs through the model once, alone between [CLS] and [SEP] (its CLS vector, unit length, as the embedder
 * pools a text); PCA down to {@value #DIMS} dimensions; each row weighted by log(1 + frequency rank), the rank being
 * the token's place after "the" (BERT's word ids run roughly by frequency, special tokens and single characters
 * first, which get the lowest weight); then int8 with one scale per row.
 *
 * <p>Usage: {@code StaticTableGenerator [OUT] [THREADS]}; OUT defaults to {@value #DEFAULT_OUT}. Run from a build
 * that has converted the model (target/classes on the class path). About two minutes on two cores.
 */
public final class StaticTableGenerator {

    static final int DIMS = 256;
    static final String DEFAULT_OUT = "src/main/resources" + StaticEmbedder.RESOURCE;
    static final int CLS = 101;
    static final int SEP = 102;

    private StaticTableGenerator() {
    }

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args.length > 0 ? args[0] : DEFAULT_OUT);
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : Runtime.getRuntime().availableProcessors();
        long start = System.nanoTime();
        List<String> vocabulary = vocabulary();
        float[][] vectors;
        try (TokenModel model = TokenModel.load()) {
            int[] ids = new int[vocabulary.size()];
            Arrays.setAll(ids, i -> i);
            vectors = model.vectors(ids, threads);
        }
        long embedded = System.nanoTime();
        byte[] table = build(vocabulary, vectors).toBytes();
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.write(out, table);
        long end = System.nanoTime();
        System.out.printf("%d tokens embedded in %.1f s, PCA and quantization %.1f s; wrote %s (%d bytes)%n",
                vocabulary.size(), (embedded - start) / 1e9, (end - embedded) / 1e9, out, table.length);
    }

    /** The WordPiece vocabulary in id order, from the model's tokenizer.json. */
    static List<String> vocabulary() throws IOException {
        try (InputStream in = StaticTableGenerator.class.getResourceAsStream(WordVocabulary.TOKENIZER_RESOURCE)) {
            if (in == null) {
                throw new IOException("the tokenizer " + WordVocabulary.TOKENIZER_RESOURCE + " is missing from the class path");
            }
            Map<Integer, String> byId = new HashMap<>(32_768);
            try (JsonParser p = new JsonFactory().createParser(in)) {
                // Find "model": {"vocab": {token: id, ...}}; "vocab" appears nowhere else at that depth.
                while (p.nextToken() != null) {
                    if (p.currentToken() == JsonToken.FIELD_NAME && "vocab".equals(p.currentName())
                            && p.getParsingContext().getParent() != null
                            && "model".equals(p.getParsingContext().getParent().getCurrentName())) {
                        p.nextToken();
                        while (p.nextToken() == JsonToken.FIELD_NAME) {
                            String token = p.currentName();
                            p.nextToken();
                            byId.put(p.getIntValue(), token);
                        }
                        break;
                    }
                }
            }
            List<String> vocabulary = new ArrayList<>(byId.size());
            for (int i = 0; i < byId.size(); i++) {
                String token = byId.get(i);
                if (token == null) {
                    throw new IOException("the tokenizer's vocabulary has no token with id " + i);
                }
                vocabulary.add(token);
            }
            return vocabulary;
        }
    }

    /** Zipf-like weights: log(1 + rank), rank 1 for everything up to "the", then one more per id. */
    static float[] weights(List<String> vocabulary) {
        int first = vocabulary.indexOf("the");
        float[] w = new float[vocabulary.size()];
        for (int i = 0; i < w.length; i++) {
            w[i] = (float) Math.log(1 + Math.max(1, i - first + 1));
        }
        return w;
    }

    /** PCA of the vectors, weighting and int8 rounding. */
    static StaticTable build(List<String> vocabulary, float[][] vectors) {
        int n = vectors.length;
        int source = vectors[0].length;
        double[] mean = new double[source];
        for (float[] v : vectors) {
            for (int j = 0; j < source; j++) {
                mean[j] += v[j];
            }
        }
        for (int j = 0; j < source; j++) {
            mean[j] /= n;
        }
        double[][] cov = new double[source][source];
        double[] c = new double[source];
        for (float[] v : vectors) {
            for (int j = 0; j < source; j++) {
                c[j] = v[j] - mean[j];
            }
            for (int a = 0; a < source; a++) {
                double ca = c[a];
                double[] row = cov[a];
                for (int b = a; b < source; b++) {
                    row[b] += ca * c[b];
                }
            }
        }
        for (int a = 0; a < source; a++) {
            for (int b = a; b < source; b++) {
                cov[a][b] /= n - 1;
                cov[b][a] = cov[a][b];
            }
        }
        double[][] eigenvectors = new double[source][];
        double[] eigenvalues = jacobi(cov, eigenvectors);
        Integer[] order = new Integer[source];
        Arrays.setAll(order, i -> i);
        Arrays.sort(order, (x, y) -> Double.compare(eigenvalues[y], eigenvalues[x]));
        float[] components = new float[DIMS * source];
        for (int k = 0; k < DIMS; k++) {
            double[] e = eigenvectors[order[k]];
            int largest = 0;
            for (int j = 1; j < source; j++) {
                if (Math.abs(e[j]) > Math.abs(e[largest])) {
                    largest = j;
                }
            }
            double sign = e[largest] < 0 ? -1 : 1; // a fixed sign: the same table from the same vectors
            for (int j = 0; j < source; j++) {
                components[k * source + j] = (float) (sign * e[j]);
            }
        }
        float[] meanF = new float[source];
        for (int j = 0; j < source; j++) {
            meanF[j] = (float) mean[j];
        }
        float[] weights = weights(vocabulary);
        StaticTable projection = new StaticTable(vocabulary, DIMS, source, null, null, 0, meanF, components, weights);
        float[] scales = new float[n];
        byte[] rows = new byte[n * DIMS];
        for (int i = 0; i < n; i++) {
            float[] y = projection.project(vectors[i], i);
            float max = 0;
            for (float x : y) {
                max = Math.max(max, Math.abs(x));
            }
            float scale = max / 127f;
            scales[i] = scale;
            for (int k = 0; k < DIMS; k++) {
                rows[i * DIMS + k] = scale == 0 ? 0 : (byte) Math.round(y[k] / scale);
            }
        }
        return new StaticTable(vocabulary, DIMS, source, scales, rows, 0, meanF, components, weights);
    }

    /**
     * Eigen-decomposition of a symmetric matrix by cyclic Jacobi rotations (destroys {@code a}); fills
     * {@code vectors[k]} with the unit eigenvector of eigenvalue k. A few seconds for 384 x 384.
     */
    static double[] jacobi(double[][] a, double[][] vectors) {
        int n = a.length;
        double[][] v = new double[n][n];
        for (int i = 0; i < n; i++) {
            v[i][i] = 1;
        }
        for (int sweep = 0; sweep < 100; sweep++) {
            double off = 0;
            double diagonal = 0;
            for (int p = 0; p < n; p++) {
                diagonal += a[p][p] * a[p][p];
                for (int q = p + 1; q < n; q++) {
                    off += a[p][q] * a[p][q];
                }
            }
            if (off <= 1e-24 * diagonal) {
                break;
            }
            for (int p = 0; p < n - 1; p++) {
                for (int q = p + 1; q < n; q++) {
                    double apq = a[p][q];
                    if (Math.abs(apq) < 1e-300) {
                        continue;
                    }
                    double theta = (a[q][q] - a[p][p]) / (2 * apq);
                    double t = Math.signum(theta) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
                    if (theta == 0) {
                        t = 1;
                    }
                    double cs = 1 / Math.sqrt(t * t + 1);
                    double sn = t * cs;
                    for (int k = 0; k < n; k++) { // columns p and q
                        double akp = a[k][p];
                        double akq = a[k][q];
                        a[k][p] = cs * akp - sn * akq;
                        a[k][q] = sn * akp + cs * akq;
                    }
                    double[] rp = a[p];
                    double[] rq = a[q];
                    for (int k = 0; k < n; k++) { // rows p and q
                        double apk = rp[k];
                        double aqk = rq[k];
                        rp[k] = cs * apk - sn * aqk;
                        rq[k] = sn * apk + cs * aqk;
                    }
                    double[] vp = v[p];
                    double[] vq = v[q];
                    for (int k = 0; k < n; k++) { // v holds eigenvectors as rows
                        double x = vp[k];
                        double y = vq[k];
                        vp[k] = cs * x - sn * y;
                        vq[k] = sn * x + cs * y;
                    }
                }
            }
        }
        double[] values = new double[n];
        for (int i = 0; i < n; i++) {
            values[i] = a[i][i];
            vectors[i] = v[i];
        }
        return values;
    }

    /** bge-small over raw token ids, with the session settings of {@link OnnxEmbedder}'s passage session. */
    static final class TokenModel implements AutoCloseable {

        private final ModelBytes bytes; // onnxruntime reads the weights from it for the session's life
        private final OrtSession session;

        private TokenModel(ModelBytes bytes, OrtSession session) {
            this.bytes = bytes;
            this.session = session;
        }

        static TokenModel load() throws EmbeddingException {
            NativeLibs.load();
            ModelBytes bytes = ModelBytes.read(OnnxEmbedder.class.getResource(OnnxEmbedder.ORT_RESOURCE) != null
                    ? ModelBytes.Format.ORT : ModelBytes.Format.ONNX);
            try {
                return new TokenModel(bytes, OnnxEmbedder.session(bytes, 1));
            } catch (OrtException e) {
                throw new EmbeddingException("Cannot load the embedding model " + OnnxEmbedder.MODEL_ID + " ("
                        + e.getMessage() + ").", e);
            }
        }

        /** The unit CLS vector of [CLS] id [SEP], one model call per token as the embedder calls it per text. */
        float[] vector(int id) throws OrtException {
            OrtEnvironment env = OrtEnvironment.getEnvironment();
            long[][] ids = {{CLS, id, SEP}};
            Map<String, OnnxTensor> inputs = new HashMap<>();
            try {
                inputs.put("input_ids", OnnxTensor.createTensor(env, ids));
                inputs.put("attention_mask", OnnxTensor.createTensor(env, new long[][] {{1, 1, 1}}));
                if (session.getInputNames().contains("token_type_ids")) {
                    inputs.put("token_type_ids", OnnxTensor.createTensor(env, new long[][] {{0, 0, 0}}));
                }
                try (OrtSession.Result result = session.run(inputs)) {
                    float[][][] hidden = (float[][][]) result.get(0).getValue();
                    return Vectors.normalize(hidden[0][0].clone());
                }
            } finally {
                inputs.values().forEach(OnnxTensor::close);
            }
        }

        /** The vectors of {@code ids} in order, over {@code threads} threads. */
        float[][] vectors(int[] ids, int threads) throws Exception {
            ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, threads));
            try {
                float[][] out = new float[ids.length][];
                List<Future<?>> parts = new ArrayList<>();
                int chunk = 256;
                for (int from = 0; from < ids.length; from += chunk) {
                    int lo = from;
                    int hi = Math.min(ids.length, from + chunk);
                    parts.add(pool.submit(() -> {
                        for (int i = lo; i < hi; i++) {
                            out[i] = vector(ids[i]);
                        }
                        return null;
                    }));
                }
                for (Future<?> f : parts) {
                    f.get();
                }
                return out;
            } finally {
                pool.shutdownNow();
            }
        }

        @Override
        public void close() throws OrtException {
            session.close();
        }
    }
}
