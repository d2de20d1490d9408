package dev.schemabrain.bench;

import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.bgesmallenv15q.BgeSmallEnV15QuantizedEmbeddingModel;
import dev.schemabrain.embed.OnnxEmbedder;
import dev.schemabrain.embed.Vectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The embedding model on this machine: load time, passages per second for 2,000 short column documents
 * ("customer address city"), and single-query latency over 200 questions; with the alternatives that
 * OnnxEmbedder's threading was chosen against. Run with {@code mvn -Pbench test -Dtest=EmbedBenchmark};
 * figures go to target/bench/embed.txt.
 */
@Tag("benchmark")
class EmbedBenchmark {

    static final int DOCS = 2000;
    static final int QUERIES = 200;
    static final String QUERY_PREFIX = "Represent this sentence for searching relevant passages: ";

    static final String[] TABLES = {"customer", "invoice", "order", "product", "employee", "payment", "track",
            "album", "artist", "country", "city", "store", "rental", "film", "address", "supplier", "shipment",
            "account", "user", "session", "department", "course", "student", "flight", "airport"};
    static final String[] COLUMNS = {"id", "name", "address city", "email", "created at", "amount", "status",
            "postal code", "phone number", "first name", "last name", "total price", "quantity", "description",
            "country code", "updated at", "birth date", "credit limit", "discount", "language", "title",
            "unit price", "hire date", "region", "manager id"};
    static final String[] QUESTIONS = {"which %s has the highest %s", "list every %s with its %s",
            "how many %s records have no %s", "average %s per %s", "show the %s and %s of recent orders"};

    /** One way to run the model, for the comparison. */
    record Candidate(String name, Function<List<String>, List<float[]>> passages, Function<String, float[]> query) {
    }

    @Test
    void embedding() throws Exception {
        List<String> docs = docs();
        List<String> queries = queries();
        StringBuilder report = new StringBuilder();
        report.append(String.format(Locale.ROOT, "embedding benchmark: %s, %d cores, load average %.1f at start%n",
                OnnxEmbedder.MODEL_ID, Runtime.getRuntime().availableProcessors(), loadAverage()));
        report.append(String.format(Locale.ROOT, "%d column documents like \"%s\", %d queries like \"%s\"%n",
                DOCS, docs.get(0), QUERIES, queries.get(0)));

        long rss0 = rssMb();
        long start = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (OnnxEmbedder embedder = OnnxEmbedder.load();
             OnnxEmbedder oneWorker = OnnxEmbedder.load(new OnnxEmbedder.Settings(1, 1))) {
            long loadMs = (System.nanoTime() - start) / 1_000_000;
            long rss = rssMb();
            report.append(String.format(Locale.ROOT, "load of the first OnnxEmbedder (native libraries, model, 2 sessions, "
                    + "warm-up), with a 1-session one: %d ms; resident memory %d MB -> %d MB%n%n", loadMs, rss0, rss));
            // The library class as it comes: one static session with onnxruntime's default threads.
            EmbeddingModel library = new BgeSmallEnV15QuantizedEmbeddingModel(pool);
            OnnxEmbedder.Settings s = OnnxEmbedder.Settings.defaults();
            List<Candidate> candidates = List.of(
                    new Candidate("OnnxEmbedder defaults: " + s.passageWorkers() + " workers x 1 thread, query "
                            + s.queryThreads() + " threads", embedder::embedPassages, embedder::embedQuery),
                    new Candidate("OnnxEmbedder 1 worker x 1 thread, query 1 thread (one session)",
                            oneWorker::embedPassages, oneWorker::embedQuery),
                    new Candidate("langchain4j BgeSmallEnV15QuantizedEmbeddingModel, 2-thread executor",
                            texts -> vectors(library, texts), q -> library.embed(QUERY_PREFIX + q).content().vector()));
            // Rounds interleave the candidates, so a change in the machine's load hits them all alike.
            double[][] perSecond = throughput(candidates, docs);
            double[][] latency = latency(candidates, queries);
            report.append("passages/s: median of 3 interleaved runs over all documents (the runs); "
                    + "query: sequential single queries, candidates in turn by blocks of 50\n");
            for (int c = 0; c < candidates.size(); c++) {
                report.append(String.format(Locale.ROOT, "  %-70s %5.0f passages/s %-17s  query p50 %5.1f ms  p95 %5.1f ms  max %5.1f ms%n",
                        candidates.get(c).name(), median(perSecond[c]), runs(perSecond[c]),
                        latency[c][0], latency[c][1], latency[c][2]));
            }
            // Cosine = dot needs unit vectors: check a sample of the run.
            for (float[] v : embedder.embedPassages(docs.subList(0, 100))) {
                assertEquals(1f, Vectors.norm(v), 1e-5f);
            }
            report.append(String.format(Locale.ROOT, "load average at the end %.1f%n", loadAverage()));
            Path out = Path.of("target", "bench", "embed.txt");
            Files.createDirectories(out.getParent());
            Files.writeString(out, report);
            System.out.print(report);
            assertTrue(median(perSecond[0]) > 100, report.toString());
            assertTrue(latency[0][0] < 30, report.toString());
        } finally {
            pool.shutdownNow();
        }
    }

    private static double[][] throughput(List<Candidate> candidates, List<String> docs) {
        double[][] perSecond = new double[candidates.size()][3];
        for (Candidate c : candidates) {
            c.passages().apply(docs.subList(0, 200)); // warm-up
        }
        for (int run = 0; run < 3; run++) {
            for (int c = 0; c < candidates.size(); c++) {
                long t = System.nanoTime();
                List<float[]> vectors = candidates.get(c).passages().apply(docs);
                perSecond[c][run] = docs.size() / ((System.nanoTime() - t) / 1e9);
                assertEquals(docs.size(), vectors.size());
            }
        }
        return perSecond;
    }

    /**
     * p50, p95 and max in ms per candidate, after 50 warm-up queries each. Candidates take turns in blocks of
     * 50 queries, not query by query: another session's idle threads would otherwise still be busy.
     */
    private static double[][] latency(List<Candidate> candidates, List<String> queries) {
        double[][] ms = new double[candidates.size()][queries.size()];
        for (int c = 0; c < candidates.size(); c++) {
            for (int i = 0; i < 50; i++) {
                candidates.get(c).query().apply("warm up " + queries.get(i));
            }
        }
        for (int block = 0; block < queries.size(); block += 50) {
            for (int c = 0; c < candidates.size(); c++) {
                for (int i = block; i < Math.min(queries.size(), block + 50); i++) {
                    long t = System.nanoTime();
                    candidates.get(c).query().apply(queries.get(i));
                    ms[c][i] = (System.nanoTime() - t) / 1e6;
                }
            }
        }
        double[][] out = new double[candidates.size()][];
        for (int c = 0; c < candidates.size(); c++) {
            double[] sorted = ms[c].clone();
            Arrays.sort(sorted);
            out[c] = new double[] {sorted[sorted.length / 2], sorted[(int) Math.ceil(sorted.length * 0.95) - 1], sorted[sorted.length - 1]};
        }
        return out;
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private static String runs(double[] values) {
        return "(" + String.join(", ", Arrays.stream(values).mapToObj(v -> String.format(Locale.ROOT, "%.0f", v)).toList()) + ")";
    }

    private static List<float[]> vectors(EmbeddingModel model, List<String> texts) {
        return model.embedAll(texts.stream().map(TextSegment::from).toList()).content().stream()
                .map(e -> e.vector()).toList();
    }

    static List<String> docs() {
        Random random = new Random(42);
        List<String> docs = new ArrayList<>(DOCS);
        for (int i = 0; i < DOCS; i++) {
            docs.add(TABLES[random.nextInt(TABLES.length)] + " " + COLUMNS[random.nextInt(COLUMNS.length)]);
        }
        return docs;
    }

    static List<String> queries() {
        Random random = new Random(7);
        List<String> queries = new ArrayList<>(QUERIES);
        for (int i = 0; i < QUERIES; i++) {
            queries.add(String.format(Locale.ROOT, QUESTIONS[random.nextInt(QUESTIONS.length)],
                    TABLES[random.nextInt(TABLES.length)], COLUMNS[random.nextInt(COLUMNS.length)]));
        }
        return queries;
    }

    private static double loadAverage() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    private static long rssMb() throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmRSS")) {
                return Long.parseLong(line.replaceAll("\\D", "")) / 1024;
            }
        }
        return -1;
    }
}
