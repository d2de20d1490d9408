package dev.schemabrain.bench;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.schemabrain.embed.OnnxEmbedder;

import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The model on one ONNX session with one intra-op thread (as OnnxEmbedder's passages), called directly, for
 * EmbedProfileBenchmark: CPU per call against tokens, and equal-length batches against one text per call.
 */
final class RawSession {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private RawSession() {
    }

    static String probe(HuggingFaceTokenizer tokenizer, List<String> texts, OnnxEmbedder embedder) throws Exception {
        OrtEnvironment env = OrtEnvironment.getEnvironment();
        byte[] model;
        try (InputStream in = OnnxEmbedder.class.getResourceAsStream("/bge-small-en-v1.5-q.onnx")) {
            model = in.readAllBytes();
        }
        StringBuilder out = new StringBuilder("one session, one thread, sequential calls (thread CPU):\n");
        List<long[]> ids = texts.stream().map(t -> tokenizer.encode(t, true, false).getIds()).toList();
        try (OrtSession.SessionOptions options = new OrtSession.SessionOptions()) {
            options.setIntraOpNumThreads(1);
            options.setInterOpNumThreads(1);
            try (OrtSession session = env.createSession(model, options)) {
                out.append("  CPU per call by tokens (with [CLS]/[SEP]):");
                for (int n : new int[] {1, 4, 8, 16, 32, 64, 128}) {
                    long[] one = tokenizer.encode(String.join(" ", Collections.nCopies(n, "customer")), true, false).getIds();
                    run(env, session, List.of(one), one.length);
                    long c0 = THREADS.getCurrentThreadCpuTime();
                    for (int i = 0; i < 100; i++) {
                        run(env, session, List.of(one), one.length);
                    }
                    out.append(String.format(Locale.ROOT, " %d: %.2f ms", one.length, (THREADS.getCurrentThreadCpuTime() - c0) / 1e8));
                }
                out.append('\n');
                // The product's vectors are the reference: the raw path must reproduce them exactly.
                List<float[]> product = embedder.embedPassages(texts);
                long c0 = THREADS.getCurrentThreadCpuTime();
                List<float[]> single = new ArrayList<>();
                for (long[] t : ids) {
                    single.addAll(run(env, session, List.of(t), t.length));
                }
                double singleCpu = (THREADS.getCurrentThreadCpuTime() - c0) / 1e6 / texts.size();
                double worst = 1;
                for (int i = 0; i < texts.size(); i++) {
                    worst = Math.min(worst, cosine(product.get(i), single.get(i)));
                }
                out.append(String.format(Locale.ROOT, "  %d distinct scale texts one per call: %.2f ms CPU per text (cosine to OnnxEmbedder's vectors min %.7f)%n",
                        texts.size(), singleCpu, worst));
                for (int batch : new int[] {4, 16, 64}) {
                    out.append(batched(env, session, ids, single, batch, singleCpu));
                }
            }
        }
        return out.toString();
    }

    /** Texts grouped by exact token length (no padding), up to {@code batch} per call. */
    private static String batched(OrtEnvironment env, OrtSession session, List<long[]> ids, List<float[]> single, int batch,
                                  double singleCpu) throws OrtException {
        Map<Integer, List<Integer>> byLength = new TreeMap<>();
        for (int i = 0; i < ids.size(); i++) {
            byLength.computeIfAbsent(ids.get(i).length, k -> new ArrayList<>()).add(i);
        }
        float[][] vectors = new float[ids.size()][];
        long c0 = THREADS.getCurrentThreadCpuTime();
        int calls = 0;
        for (Map.Entry<Integer, List<Integer>> group : byLength.entrySet()) {
            List<Integer> members = group.getValue();
            for (int from = 0; from < members.size(); from += batch, calls++) {
                List<Integer> chunk = members.subList(from, Math.min(members.size(), from + batch));
                List<float[]> got = run(env, session, chunk.stream().map(ids::get).toList(), group.getKey());
                for (int j = 0; j < chunk.size(); j++) {
                    vectors[chunk.get(j)] = got.get(j);
                }
            }
        }
        double cpu = (THREADS.getCurrentThreadCpuTime() - c0) / 1e6 / ids.size();
        double min = 1;
        double sum = 0;
        for (int i = 0; i < ids.size(); i++) {
            double cos = cosine(vectors[i], single.get(i));
            min = Math.min(min, cos);
            sum += cos;
        }
        return String.format(Locale.ROOT, "  equal-length batches of up to %d (%d calls): %.2f ms CPU per text (%.1fx less); "
                + "cosine to the one-per-call vector min %.4f, mean %.5f%n", batch, calls, cpu, singleCpu / cpu, min, sum / ids.size());
    }

    private static double cosine(float[] a, float[] b) {
        double dot = 0;
        for (int d = 0; d < a.length; d++) {
            dot += a[d] * b[d];
        }
        return dot;
    }

    /** One call over texts of the same token length: the CLS vector of each, normalised. */
    private static List<float[]> run(OrtEnvironment env, OrtSession session, List<long[]> texts, int length) throws OrtException {
        long[] flat = new long[texts.size() * length];
        for (int i = 0; i < texts.size(); i++) {
            System.arraycopy(texts.get(i), 0, flat, i * length, length);
        }
        long[] mask = new long[flat.length];
        Arrays.fill(mask, 1);
        long[] shape = {texts.size(), length};
        try (OnnxTensor input = OnnxTensor.createTensor(env, LongBuffer.wrap(flat), shape);
             OnnxTensor attention = OnnxTensor.createTensor(env, LongBuffer.wrap(mask), shape);
             OnnxTensor types = OnnxTensor.createTensor(env, LongBuffer.wrap(new long[flat.length]), shape);
             OrtSession.Result r = session.run(Map.of("input_ids", input, "attention_mask", attention, "token_type_ids", types))) {
            float[][][] hidden = (float[][][]) r.get(0).getValue();
            List<float[]> out = new ArrayList<>(texts.size());
            for (float[][] text : hidden) {
                float[] v = text[0].clone();
                double norm = 0;
                for (float x : v) {
                    norm += x * x;
                }
                float scale = (float) (1 / Math.sqrt(norm));
                for (int d = 0; d < v.length; d++) {
                    v[d] *= scale;
                }
                out.add(v);
            }
            return out;
        }
    }
}
