package dev.schemabrain.bench;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.EnglishVocabulary;
import dev.schemabrain.describe.OfflineDescriber;
import dev.schemabrain.describe.TableDocuments;
import dev.schemabrain.describe.Words;
import dev.schemabrain.embed.OnnxEmbedder;
import dev.schemabrain.embed.WordVocabulary;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.index.IndexListener;
import dev.schemabrain.engine.IntrospectionOptions;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.source.Sources;
import dev.schemabrain.testing.Bench;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Where the embedding step of an index run spends its time, on the documents the indexer really embeds: the scale
 * benchmark's 100,000-column catalog and Spider dev (bench/spider in the repository, or -Dspider.tables).
 * Reports documents, distinct texts, tokens per document, the tokenizer's share, and a sample's passages/s with
 * process CPU per document (less sensitive to other load than wall time). Run with
 * {@code mvn -Pbench test -Dtest=EmbedProfileBenchmark}; figures go to target/bench/embed-profile.txt.
 * {@code -Dprofile.sample=N} sets the sample size (default 3,000); {@code -Dprofile.index=true} adds a whole index
 * run of the scale catalog with the process's CPU per column. Also, on one single-threaded session like the
 * embedder's: CPU per call against tokens per text, and what batching texts of equal length would save and drift.
 */
@Tag("benchmark")
class EmbedProfileBenchmark {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void profile() throws Exception {
        int sample = Integer.getInteger("profile.sample", 3000);
        StringBuilder report = new StringBuilder(String.format(Locale.ROOT,
                "embed profile: %s, %d cores, load average %.1f at start%n", OnnxEmbedder.MODEL_ID,
                Runtime.getRuntime().availableProcessors(), loadAverage()));
        Path scale = dir.resolve("synthetic_tables.json");
        Files.writeString(scale, JSON.writeValueAsString(scaleCatalog()));
        Map<String, List<String>> corpora = new java.util.LinkedHashMap<>();
        corpora.put("scale (100,000 columns)", texts(scale));
        if (Boolean.getBoolean("profile.index")) {
            report.append(indexRun(scale));
        }
        Path spider = Optional.ofNullable(System.getProperty("spider.tables")).map(Path::of).orElse(Bench.spiderTables());
        if (Files.exists(spider)) {
            corpora.put("spider dev", texts(spider));
        }
        try (OnnxEmbedder embedder = OnnxEmbedder.load();
             InputStream tokenizerJson = EnglishVocabulary.class.getResourceAsStream(EnglishVocabulary.TOKENIZER_RESOURCE)) {
            HuggingFaceTokenizer tokenizer = HuggingFaceTokenizer.newInstance(tokenizerJson, Map.of());
            for (Map.Entry<String, List<String>> corpus : corpora.entrySet()) {
                report.append(describe(corpus.getKey(), corpus.getValue(), tokenizer, embedder, sample));
            }
            List<String> distinct = new ArrayList<>(new java.util.LinkedHashSet<>(corpora.values().iterator().next()));
            java.util.Collections.shuffle(distinct, new Random(3));
            report.append(RawSession.probe(tokenizer, distinct.subList(0, Math.min(1000, distinct.size())), embedder));
        }
        report.append(String.format(Locale.ROOT, "load average at the end %.1f%n", loadAverage()));
        Path out = Path.of("target", "bench", "embed-profile.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report);
        System.out.print(report);
    }

    private static String describe(String name, List<String> texts, HuggingFaceTokenizer tokenizer, OnnxEmbedder embedder,
                                   int sample) {
        int[] tokens = new int[texts.size()];
        long t = System.nanoTime();
        for (int i = 0; i < texts.size(); i++) {
            tokens[i] = tokenizer.encode(texts.get(i), true, false).getIds().length;
        }
        double tokenizeMicros = (System.nanoTime() - t) / 1e3 / texts.size();
        int[] sorted = tokens.clone();
        Arrays.sort(sorted);
        double mean = Arrays.stream(tokens).average().orElse(0);
        List<String> shuffled = new ArrayList<>(texts);
        java.util.Collections.shuffle(shuffled, new Random(1));
        List<String> chosen = shuffled.subList(0, Math.min(sample, shuffled.size()));
        embedder.embedPassages(chosen.subList(0, Math.min(100, chosen.size()))); // warm-up
        long cpu0 = processCpuNanos();
        long wall0 = System.nanoTime();
        assertEquals(chosen.size(), embedder.embedPassages(chosen).size());
        double wallSeconds = (System.nanoTime() - wall0) / 1e9;
        double cpuMillisPerDoc = (processCpuNanos() - cpu0) / 1e6 / chosen.size();
        return String.format(Locale.ROOT, """
                %s: %,d documents, %,d distinct texts (%.1f%%)
                  tokens per document (with [CLS]/[SEP]): mean %.1f, p50 %d, p95 %d, max %d
                  one tokenizer encode: %.0f us per document (the library encodes each text three times)
                  embedding %,d of them: %.0f passages/s wall, %.2f ms process CPU per document, e.g. "%s"
                """, name, texts.size(), new HashSet<>(texts).size(), 100.0 * new HashSet<>(texts).size() / texts.size(),
                mean, sorted[sorted.length / 2], sorted[(int) (sorted.length * 0.95)], sorted[sorted.length - 1],
                tokenizeMicros, chosen.size(), chosen.size() / wallSeconds, cpuMillisPerDoc,
                texts.get(texts.size() / 2).replace("\n", "\\n"));
    }

    /** A whole index run of the scale catalog into a new store, with the process's CPU time per column. */
    private String indexRun(Path tables) throws Exception {
        SourceUrl url = SourceUrl.parse("spider:" + tables);
        dev.schemabrain.embed.Embedders.shared();  // the model's load is not the run's
        long cpu0 = processCpuNanos();
        dev.schemabrain.index.IndexResult r;
        try (SchemaSource source = Sources.open(url)) {
            r = new dev.schemabrain.index.Indexer().run(url, source, dir.resolve("scale.db"), false, IndexListener.SILENT);
        }
        double cpuMillis = (processCpuNanos() - cpu0) / 1e6;
        dev.schemabrain.index.IndexResult.Documents d = r.documents();
        long millis = d.describeMillis() + d.embedMillis();
        return String.format(Locale.ROOT, """
                index run of the scale catalog: %,d columns, %,d documents embedded; describe %,d ms + embed %,d ms
                  = %,.0f columns/s; whole run %,d ms, process CPU %,.0f ms = %.2f ms per column
                """, r.columns(), d.embedded(), d.describeMillis(), d.embedMillis(), r.columns() * 1000.0 / Math.max(1, millis),
                r.totalMillis(), cpuMillis, cpuMillis / r.columns());
    }

    /** The texts the indexer embeds for a Spider-format file: every table's and every column's. */
    private static List<String> texts(Path tables) throws Exception {
        SourceUrl url = SourceUrl.parse("spider:" + tables);
        Catalog catalog;
        try (SchemaSource source = Sources.open(url)) {
            catalog = source.introspect(new IntrospectionOptions(true, n -> Optional.empty(), IndexListener.SILENT));
        }
        List<String> texts = new ArrayList<>();
        for (TableDocuments table : new OfflineDescriber(new Words(WordVocabulary.get().words())).describe(catalog)) {
            texts.add(table.tableText());
            table.columns().forEach(c -> texts.add(c.text()));
        }
        return texts;
    }

    /** The scale benchmark's own generator (seed 42), so both measure the same documents. */
    private static Object scaleCatalog() throws Exception {
        Method synthetic = ScaleBenchmark.class.getDeclaredMethod("synthetic", Random.class, List.class);
        synthetic.setAccessible(true);
        return synthetic.invoke(null, new Random(42), new ArrayList<String[]>());
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    private static double loadAverage() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }
}
