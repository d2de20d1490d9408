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
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Distils bge-small into the static table {@link StaticEmbedder} reads, in the manner of model2vec: every vocabulary
 * token runs through the model once, alone between [CLS] and [SEP] (its CLS vector, unit length, as the embedder
 * pools a text); so does every English word of {@value #DEFAULT_WORDS} that WordPiece splits into pieces, as one
 * text, and gets a row of its own ("attrition" is not the mean of "at", "##tri" and "##tion"); PCA down to
 * {@value #DIMS} dimensions; each row weighted by log(1 + frequency rank), the rank being the token's place after
 * "the" (BERT's word ids run roughly by frequency, special tokens and single characters first, which get the lowest
 * weight) and the added words ranked after every token, most common first. The rows are then trained on WordNet's
 * glosses ({@link StaticTableTrainer}) and rounded to int8 with one scale per row; the table marks the rows training
 * moved, so the others can be checked against the model.
 *
 * <p>The table's vocabulary is the WordPiece vocabulary followed by the added words. WordPiece's longest match
 * first then takes a whole added word before its pieces, so the tokenizer needs no other change.
 *
 * <p>Usage: {@code StaticTableGenerator [OUT] [THREADS] [WORDS] [WORDNET] [CACHE]}: OUT defaults to
 * {@value #DEFAULT_OUT}, WORDS to {@value #DEFAULT_WORDS}, WORDNET (the directory of WordNet 3.0's data files) to
 * {@value #DEFAULT_WORDNET}; CACHE, a file, keeps the model's vectors of the WordNet texts between runs. Run from the
 * repository's root with a build that has converted the model (target/classes on the class path). About 12 minutes
 * on two cores: distilling 1.6, embedding the WordNet texts 9, training 1.5.
 */
public final class StaticTableGenerator {

    static final int DIMS = 256;
    static final String DEFAULT_OUT = "src/main/resources" + StaticEmbedder.RESOURCE;
    static final String DEFAULT_WORDS = "src/build/embed/english-words.txt";
    static final String DEFAULT_WORDNET = "/usr/share/wordnet";
    static final int CLS = 101;
    static final int SEP = 102;

    private StaticTableGenerator() {
    }

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args.length > 0 ? args[0] : DEFAULT_OUT);
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : Runtime.getRuntime().availableProcessors();
        Path wordFile = Path.of(args.length > 2 ? args[2] : DEFAULT_WORDS);
        Path wordNet = Path.of(args.length > 3 ? args[3] : DEFAULT_WORDNET);
        Path cache = args.length > 4 ? Path.of(args[4]) : null;
        if (!Files.isRegularFile(wordNet.resolve("data.noun"))) {
            System.err.println("WordNet's data files are not in " + wordNet + "; install them (Debian: apt-get install"
                    + " wordnet-base) or name their directory as the fourth argument.");
            System.exit(2);
        }
        long start = System.nanoTime();
        List<String> tokens = vocabulary();
        List<String> added = addedWords(tokens, words(wordFile));
        List<String> vocabulary = new ArrayList<>(tokens);
        vocabulary.addAll(added);
        WordPieceTokenizer tokenizer = new WordPieceTokenizer(tokens);
        int[][] texts = new int[vocabulary.size()][];
        for (int i = 0; i < texts.length; i++) {
            texts[i] = i < tokens.size() ? new int[] {i} : tokenizer.ids(vocabulary.get(i));
        }
        float[][] vectors;
        try (TokenModel model = TokenModel.load()) {
            vectors = model.vectors(texts, threads);
        }
        long embedded = System.nanoTime();
        StaticTable projection = projection(vocabulary, tokens.size(), vectors);
        float[] rows = rows(projection, vectors);
        System.out.printf("%d tokens and %d words distilled in %.1f s%n", tokens.size(), added.size(),
                (embedded - start) / 1e9);
        List<String> corpus = StaticTableTrainer.wordNetTexts(wordNet);
        float[][] corpusVectors = StaticTableTrainer.modelVectors(corpus, cache);
        long corpusEmbedded = System.nanoTime();
        System.out.printf("%d WordNet texts embedded in %.1f s%n", corpus.size(), (corpusEmbedded - embedded) / 1e9);
        StaticTableTrainer.Result trained = StaticTableTrainer.train(rows, projection, corpus, corpusVectors,
                StaticTableTrainer.DEFAULTS);
        long end = System.nanoTime();
        System.out.printf("trained %d rows in %.1f s: held-out cosine %.4f -> %.4f%n", trained.rows().cardinality(),
                (end - corpusEmbedded) / 1e9, trained.before(), trained.after());
        byte[] table = quantize(projection, rows, trained.rows()).toBytes();
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.write(out, table);
        System.out.printf("wrote %s (%d bytes) in %.1f min%n", out, table.length, (System.nanoTime() - start) / 6e10);
    }

    /** The words of a word list, one a line, in order; lines starting with '#' are comments. */
    static List<String> words(Path file) throws IOException {
        List<String> words = new ArrayList<>();
        for (String line : Files.readAllLines(file)) {
            String word = line.strip();
            if (!word.isEmpty() && !word.startsWith("#")) {
                words.add(word);
            }
        }
        return words;
    }

    /** The words, in order, that the WordPiece vocabulary lacks as whole tokens and spells without [UNK]. */
    static List<String> addedWords(List<String> tokens, List<String> words) {
        WordPieceTokenizer tokenizer = new WordPieceTokenizer(tokens);
        Set<String> known = new HashSet<>(tokens);
        Set<String> seen = new HashSet<>();
        int unknown = tokens.indexOf(WordPieceTokenizer.UNKNOWN);
        List<String> added = new ArrayList<>();
        for (String word : words) {
            if (!word.equals(WordPieceTokenizer.normalize(word)) || known.contains(word) || !seen.add(word)) {
                continue;
            }
            int[] ids = tokenizer.ids(word);
            if (ids.length > 1 && Arrays.stream(ids).noneMatch(id -> id == unknown)) {
                added.add(word);
            }
        }
        return added;
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

    /** Zipf-like weights: log(1 + rank), rank 1 for everything up to "the", then one more per id (added words last). */
    static float[] weights(List<String> vocabulary) {
        int first = vocabulary.indexOf("the");
        float[] w = new float[vocabulary.size()];
        for (int i = 0; i < w.length; i++) {
            w[i] = (float) Math.log(1 + Math.max(1, i - first + 1));
        }
        return w;
    }

    /** The weighted projections of the vectors, row after row. */
    static float[] rows(StaticTable projection, float[][] vectors) {
        float[] rows = new float[vectors.length * DIMS];
        for (int i = 0; i < vectors.length; i++) {
            System.arraycopy(projection.project(vectors[i], i), 0, rows, i * DIMS, DIMS);
        }
        return rows;
    }

    /** The table of {@code rows} in int8, one scale per row, with the projection that made them. */
    static StaticTable quantize(StaticTable projection, float[] rows, BitSet trained) {
        int n = projection.vocabulary.size();
        float[] scales = new float[n];
        byte[] bytes = new byte[n * DIMS];
        for (int i = 0; i < n; i++) {
            float max = 0;
            for (int k = 0; k < DIMS; k++) {
                max = Math.max(max, Math.abs(rows[i * DIMS + k]));
            }
            float scale = max / 127f;
            scales[i] = scale;
            for (int k = 0; k < DIMS; k++) {
                bytes[i * DIMS + k] = scale == 0 ? 0 : (byte) Math.round(rows[i * DIMS + k] / scale);
            }
        }
        return new StaticTable(projection.vocabulary, DIMS, projection.sourceDims, scales, bytes, 0, projection.mean,
                projection.components, projection.weights, trained);
    }

    /** The PCA of the first {@code fitted} vectors and the rows' weights; a table without rows. */
    static StaticTable projection(List<String> vocabulary, int fitted, float[][] vectors) {
        int n = vectors.length;
        int m = fitted; // the added words are projected, not fitted: the tokens' rows stay as they were
        int source = vectors[0].length;
        double[] mean = new double[source];
        for (int i = 0; i < m; i++) {
            float[] v = vectors[i];
            for (int j = 0; j < source; j++) {
                mean[j] += v[j];
            }
        }
        for (int j = 0; j < source; j++) {
            mean[j] /= m;
        }
        double[][] cov = new double[source][source];
        double[] c = new double[source];
        for (int i = 0; i < m; i++) {
            float[] v = vectors[i];
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
                cov[a][b] /= m - 1;
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
        return new StaticTable(vocabulary, DIMS, source, null, null, 0, meanF, components, weights(vocabulary), null);
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
            return vector(new int[] {id});
        }

        /** The unit CLS vector of [CLS] ids [SEP]: a text's tokens, run as the embedder runs one passage. */
        float[] vector(int[] text) throws OrtException {
            OrtEnvironment env = OrtEnvironment.getEnvironment();
            long[][] ids = new long[1][text.length + 2];
            ids[0][0] = CLS;
            for (int i = 0; i < text.length; i++) {
                ids[0][i + 1] = text[i];
            }
            ids[0][text.length + 1] = SEP;
            long[][] mask = new long[1][ids[0].length];
            Arrays.fill(mask[0], 1);
            Map<String, OnnxTensor> inputs = new HashMap<>();
            try {
                inputs.put("input_ids", OnnxTensor.createTensor(env, ids));
                inputs.put("attention_mask", OnnxTensor.createTensor(env, mask));
                if (session.getInputNames().contains("token_type_ids")) {
                    inputs.put("token_type_ids", OnnxTensor.createTensor(env, new long[1][ids[0].length]));
                }
                try (OrtSession.Result result = session.run(inputs)) {
                    float[][][] hidden = (float[][][]) result.get(0).getValue();
                    return Vectors.normalize(hidden[0][0].clone());
                }
            } finally {
                inputs.values().forEach(OnnxTensor::close);
            }
        }

        /** The vectors of {@code texts} (each a text's token ids) in order, over {@code threads} threads. */
        float[][] vectors(int[][] texts, int threads) throws Exception {
            ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, threads));
            try {
                float[][] out = new float[texts.length][];
                List<Future<?>> parts = new ArrayList<>();
                int chunk = 256;
                for (int from = 0; from < texts.length; from += chunk) {
                    int lo = from;
                    int hi = Math.min(texts.length, from + chunk);
                    parts.add(pool.submit(() -> {
                        for (int i = lo; i < hi; i++) {
                            out[i] = vector(texts[i]);
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
