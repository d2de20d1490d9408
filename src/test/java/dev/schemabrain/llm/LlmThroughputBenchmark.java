package dev.schemabrain.llm;

import dev.schemabrain.testing.InProcessCli;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Index throughput with --workers 1/4/8 against a server answering in 800 ms (a real model's latency), on
 * 40 tables of 7-8 columns (the seed's 200/1,500 ratio); the LLM part is the run's time minus an offline
 * run's. {@code mvn -Pbench test -Dtest=LlmThroughputBenchmark}; figures go to target/bench/llm.txt.
 */
@Tag("benchmark")
class LlmThroughputBenchmark {

    static final int TABLES = 40;
    static final String KEY = "sk-bench";

    @TempDir
    Path dir;

    @Test
    void workersScaleThroughput() throws Exception {
        Path source = dir.resolve("wide.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + source); Statement st = c.createStatement()) {
            for (int t = 0; t < TABLES; t++) {
                StringBuilder ddl = new StringBuilder("CREATE TABLE entity_" + t + " (id INTEGER PRIMARY KEY");
                for (int k = 0; k < 6 + t % 2; k++) {
                    ddl.append(", attribute_").append(k).append(" TEXT");
                }
                st.execute(ddl.append(")").toString());
            }
        }
        run(source, dir.resolve("warm.db"), null, 0);   // loads the embedding model once
        long offline = run(source, dir.resolve("offline.db"), null, 0);
        List<String> lines = new ArrayList<>();
        lines.add(String.format(Locale.ROOT, "LLM enrichment throughput, %d tables, 800 ms a request; offline index (warm) %.2f s",
                TABLES, offline / 1000.0));
        lines.add("workers  run s   llm s   tables/s  projected 200 tables (1,500 columns)");
        try (FakeLlmServer server = new FakeLlmServer(KEY)) {
            server.delayMs = 800;
            for (int workers : new int[]{1, 4, 8}) {
                int before = server.requests();
                long total = run(source, dir.resolve("w" + workers + ".db"), server.url(), workers);
                assertEquals(TABLES, server.requests() - before);
                double llm = Math.max(1, total - offline) / 1000.0;
                double rate = TABLES / llm;
                lines.add(String.format(Locale.ROOT, "%7d  %6.2f  %6.2f  %8.2f  %.0f s (%.1f min)", workers, total / 1000.0,
                        llm, rate, 200 / rate, 200 / rate / 60));
            }
        }
        Path out = Path.of("target", "bench", "llm.txt");
        Files.createDirectories(out.getParent());
        Files.write(out, lines);
        lines.forEach(System.out::println);
    }

    private static long run(Path source, Path store, String url, int workers) {
        List<String> args = new ArrayList<>(List.of("--store", store.toString(), "index", "--source", "sqlite:" + source));
        if (url != null) {
            args.addAll(List.of("--llm", "anthropic", "--llm-url", url, "--llm-key-env", "K", "--workers", String.valueOf(workers)));
        }
        long t = System.nanoTime();
        InProcessCli.Result r = InProcessCli.run(Map.of("K", KEY), args.toArray(String[]::new));
        assertEquals(0, r.exitCode(), r.stderr());
        return (System.nanoTime() - t) / 1_000_000;
    }
}
