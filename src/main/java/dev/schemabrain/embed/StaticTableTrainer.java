package dev.schemabrain.embed;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * Trains a distilled static table on a corpus, in the manner of model2vec's tokenlearn: each text's vector from the
 * table (the sum of its tokens' rows) is moved toward bge-small's vector of the whole text, projected as the rows
 * are, by Adam on 1 - cosine. A distilled row knows its token alone ("doctor" by itself); trained, it also knows
 * the texts the token appears in ("doctor, physician: a licensed medical practitioner"), which is what a mean of
 * rows needs to meet a synonym. The corpus is WordNet's synsets: per synset its words with their gloss, its words
 * alone when there are several, and each example sentence.
 */
final class StaticTableTrainer {

    /** Training settings; {@link #DEFAULTS} are the generator's. */
    record Settings(int epochs, float learningRate, double holdOut, long seed) {
    }

    /**
     * Ten epochs at 0.005: the best mean cosine on the held-out 5% of the texts (0.701 distilled; 0.888 after 3
     * epochs at 0.01, 0.878 after 3 at 0.03, 0.889 after 5 at 0.01, 0.893 after 10 at 0.005).
     */
    static final Settings DEFAULTS = new Settings(10, 0.005f, 0.05, 42);

    /** The mean held-out cosine before and after, and the rows training moved. */
    record Result(double before, double after, BitSet rows) {
    }

    private StaticTableTrainer() {
    }

    /** The texts of WordNet's data files in {@code dir} (data.noun, data.verb, data.adj, data.adv), in file order. */
    static List<String> wordNetTexts(Path dir) throws IOException {
        Set<String> texts = new LinkedHashSet<>();
        for (String part : List.of("noun", "verb", "adj", "adv")) {
            Path file = dir.resolve("data." + part);
            try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.ISO_8859_1)) {
                String line;
                while ((line = in.readLine()) != null) {
                    if (line.startsWith(" ")) {
                        continue; // the licence at the file's head
                    }
                    synset(line, texts);
                }
            }
        }
        return List.copyOf(texts);
    }

    /** One data line: "offset lex_filenum ss_type w_cnt word lex_id [word lex_id...] p_cnt [ptr...] ... | gloss". */
    static void synset(String line, Set<String> texts) {
        int bar = line.indexOf(" | ");
        if (bar < 0) {
            return;
        }
        String[] fields = line.substring(0, bar).split(" ");
        int count = Integer.parseInt(fields[3], 16);
        List<String> words = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String word = fields[4 + 2 * i].replace('_', ' ');
            int marker = word.indexOf('(');
            if (marker > 0) {
                word = word.substring(0, marker); // an adjective's position marker: "(a)", "(p)", "(ip)"
            }
            if (!words.contains(word)) {
                words.add(word);
            }
        }
        String gloss = line.substring(bar + 3).strip();
        List<String> examples = new ArrayList<>();
        StringBuilder definition = new StringBuilder();
        for (String piece : gloss.split(";\\s*")) {
            String p = piece.strip();
            if (p.length() > 2 && p.startsWith("\"")) {
                examples.add(p.replace("\"", "").strip());
            } else if (!p.isEmpty()) {
                definition.append(definition.length() == 0 ? "" : "; ").append(p);
            }
        }
        String named = String.join(", ", words);
        if (definition.length() > 0) {
            texts.add(named + ": " + definition);
        }
        if (words.size() > 1) {
            texts.add(named);
        }
        for (String example : examples) {
            if (!example.isBlank()) {
                texts.add(example);
            }
        }
    }

    /** bge-small's passage vectors of the texts, read from {@code cache} when it holds them, else made and saved. */
    static float[][] modelVectors(List<String> texts, Path cache) throws Exception {
        if (cache != null && Files.exists(cache)) {
            try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(cache)))) {
                int n = in.readInt();
                int d = in.readInt();
                if (n == texts.size()) {
                    float[][] out = new float[n][d];
                    for (float[] v : out) {
                        for (int j = 0; j < d; j++) {
                            v[j] = in.readFloat();
                        }
                    }
                    return out;
                }
            }
        }
        float[][] out = new float[texts.size()][];
        try (OnnxEmbedder model = OnnxEmbedder.load()) {
            int chunk = 1_000;
            for (int from = 0; from < texts.size(); from += chunk) {
                List<float[]> part = model.embedPassages(texts.subList(from, Math.min(texts.size(), from + chunk)));
                for (int i = 0; i < part.size(); i++) {
                    out[from + i] = part.get(i);
                }
            }
        }
        if (cache != null) {
            try (DataOutputStream o = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(cache)))) {
                o.writeInt(out.length);
                o.writeInt(out[0].length);
                for (float[] v : out) {
                    for (float x : v) {
                        o.writeFloat(x);
                    }
                }
            }
        }
        return out;
    }

    /**
     * Trains the table's {@code rows} (row-major, as {@code projection} made them) in place on the corpus: each text
     * tokenized as the embedder will, its target the model's vector projected as the rows are (unweighted, unit).
     */
    static Result train(float[] rows, StaticTable projection, List<String> corpus, float[][] modelVectors,
                        Settings settings) {
        WordPieceTokenizer tokenizer = new WordPieceTokenizer(projection.vocabulary);
        int[][] texts = new int[corpus.size()][];
        float[][] targets = new float[corpus.size()][];
        for (int i = 0; i < texts.length; i++) {
            texts[i] = tokenizer.ids(corpus.get(i));
            targets[i] = Vectors.normalize(projection.projectUnweighted(modelVectors[i]));
        }
        return train(rows, projection.dims, texts, targets, settings);
    }

    /**
     * Trains {@code rows} (row-major, {@code dims} wide) in place so that the sum of a text's rows points where its
     * target does, with Adam on 1 - cosine; deterministic for a seed.
     *
     * @param texts   each text's token ids
     * @param targets each text's target, unit length, {@code dims} wide
     */
    static Result train(float[] rows, int dims, int[][] texts, float[][] targets, Settings settings) {
        int n = texts.length;
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Random random = new Random(settings.seed());
        shuffle(order, random);
        int held = (int) Math.round(n * settings.holdOut());
        int[] holdOut = Arrays.copyOfRange(order, 0, held);
        int[] training = Arrays.copyOfRange(order, held, n);
        double before = meanCosine(rows, dims, texts, targets, holdOut);
        BitSet moved = new BitSet();
        float[] m = new float[rows.length];
        float[] v = new float[rows.length];
        int[] steps = new int[rows.length / dims];
        float beta1 = 0.9f;
        float beta2 = 0.999f;
        float[] sum = new float[dims];
        float[] grad = new float[dims];
        for (int epoch = 0; epoch < settings.epochs(); epoch++) {
            shuffle(training, random);
            for (int t : training) {
                int[] ids = texts[t];
                if (ids.length == 0) {
                    continue;
                }
                sumOfRows(rows, dims, ids, sum);
                double norm2 = 0;
                double dot = 0;
                float[] target = targets[t];
                for (int d = 0; d < dims; d++) {
                    norm2 += sum[d] * (double) sum[d];
                    dot += sum[d] * (double) target[d];
                }
                double norm = Math.sqrt(norm2);
                if (norm < 1e-9) {
                    continue;
                }
                double cos = dot / norm;
                // d(1 - cos)/d sum = -(target - cos * sum / |sum|) / |sum|
                for (int d = 0; d < dims; d++) {
                    grad[d] = (float) (-(target[d] - cos * sum[d] / norm) / norm);
                }
                for (int id : ids) {
                    moved.set(id);
                    int o = id * dims;
                    int step = ++steps[id];
                    double c1 = 1 - Math.pow(beta1, step);
                    double c2 = 1 - Math.pow(beta2, step);
                    for (int d = 0; d < dims; d++) {
                        float g = grad[d];
                        m[o + d] = beta1 * m[o + d] + (1 - beta1) * g;
                        v[o + d] = beta2 * v[o + d] + (1 - beta2) * g * g;
                        rows[o + d] -= (float) (settings.learningRate() * (m[o + d] / c1)
                                / (Math.sqrt(v[o + d] / c2) + 1e-8));
                    }
                }
            }
        }
        return new Result(before, meanCosine(rows, dims, texts, targets, holdOut), moved);
    }

    /** Sets {@code sum} to the sum of the rows of {@code ids}: a text's vector before its length is scaled away. */
    private static void sumOfRows(float[] rows, int dims, int[] ids, float[] sum) {
        Arrays.fill(sum, 0);
        for (int id : ids) {
            int o = id * dims;
            for (int d = 0; d < dims; d++) {
                sum[d] += rows[o + d];
            }
        }
    }

    static double meanCosine(float[] rows, int dims, int[][] texts, float[][] targets, int[] which) {
        double total = 0;
        int counted = 0;
        float[] sum = new float[dims];
        for (int t : which) {
            if (texts[t].length == 0) {
                continue;
            }
            sumOfRows(rows, dims, texts[t], sum);
            total += Vectors.dot(Vectors.normalize(sum), targets[t]);
            counted++;
        }
        return counted == 0 ? 0 : total / counted;
    }

    private static void shuffle(int[] a, Random random) {
        for (int i = a.length - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int x = a[i];
            a[i] = a[j];
            a[j] = x;
        }
    }

}
