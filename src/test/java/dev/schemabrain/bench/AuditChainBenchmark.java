package dev.schemabrain.bench;

import dev.schemabrain.audit.AuditDurability;
import dev.schemabrain.audit.AuditEntry;
import dev.schemabrain.audit.AuditKey;
import dev.schemabrain.audit.AuditLog;
import dev.schemabrain.audit.AuditVerifier;
import dev.schemabrain.audit.VerifyResult;
import dev.schemabrain.store.StoreLocation;
import dev.schemabrain.store.Stores;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 15's audit figure: appends per second into one chain in a PostgreSQL store from 1, 2 and 3
 * instances. An instance here is an {@link AuditLog} of its own (its own connections, its own group
 * commit) with 16 appending threads, as a serving process's catalog lane; the instances are threads of
 * this JVM, not processes (the database sees the same: separate sessions contending for one advisory
 * lock). The server is an embedded PostgreSQL of its own with the default durability (fsync on,
 * synchronous_commit on): each batch's COMMIT is a real WAL flush on this machine's disk. The SQLite
 * file chain under the same load is printed alongside. Run with
 * {@code mvn -Pbench test -Dtest=AuditChainBenchmark}; figures go to target/bench/audit-chain.txt.
 */
@Tag("benchmark")
class AuditChainBenchmark {

    private static final int THREADS_PER_INSTANCE = 16;
    private static final int APPENDS_PER_INSTANCE = 6_000;
    private static final int ROUNDS = 3;
    private static final AuditKey KEY = AuditKey.of("a bench key of thirty-two bytes!".getBytes(StandardCharsets.US_ASCII));

    @TempDir
    Path dir;

    @Test
    void appendsPerSecondFromOneTwoAndThreeInstances() throws Exception {
        List<String> lines = new ArrayList<>();
        lines.add("audit appends into one chain; " + THREADS_PER_INSTANCE + " appending threads and " + APPENDS_PER_INSTANCE
                + " appends per instance (instances: separate AuditLogs and connections in one JVM), every-row durability;"
                + " machine: " + Runtime.getRuntime().availableProcessors() + " cores shared with the database");
        try (EmbeddedPostgres pg = EmbeddedPostgres.builder().setDataDirectory(dir.resolve("pg")).setCleanDataDirectory(true)
                .setServerConfig("max_connections", "50").start()) {
            String url = "postgresql://postgres@localhost:" + pg.getPort() + "/postgres?schema=";
            run("warm-up", Stores.location(url + "warmup", null, null, Map.of()), 2);   // JIT and connections, not recorded
            for (int instances = 1; instances <= 3; instances++) {
                List<String> rounds = new ArrayList<>();
                for (int round = 1; round <= ROUNDS; round++) {
                    rounds.add(run("postgresql", Stores.location(url + "bench" + instances + "_" + round, null, null, Map.of()),
                            instances));
                }
                lines.add(median(rounds));
            }
        }
        List<String> rounds = new ArrayList<>();
        for (int round = 1; round <= ROUNDS; round++) {
            rounds.add(run("sqlite file", StoreLocation.file(dir.resolve("bench" + round + ".db")), 1));
        }
        lines.add(median(rounds));
        Path out = Path.of("target", "bench", "audit-chain.txt");
        Files.createDirectories(out.getParent());
        Files.write(out, lines);
        lines.forEach(System.out::println);
    }

    /** The round with the median rate (the line's rate is its last number before "appends/s"). */
    private static String median(List<String> rounds) {
        List<String> sorted = new ArrayList<>(rounds);
        sorted.sort(java.util.Comparator.comparingDouble(AuditChainBenchmark::rate));
        return sorted.get(sorted.size() / 2) + " [median of " + rounds.size() + "]";
    }

    private static double rate(String line) {
        String[] words = line.substring(0, line.indexOf(" appends/s")).trim().split("\\s+");
        return Double.parseDouble(words[words.length - 1]);
    }

    private static String run(String backend, StoreLocation store, int instances) throws Exception {
        List<AuditLog> logs = new ArrayList<>();
        for (int i = 0; i < instances; i++) {
            logs.add(AuditLog.open(store, KEY, Optional.empty(), AuditDurability.EVERY_ROW));
        }
        ExecutorService pool = Executors.newFixedThreadPool(instances * THREADS_PER_INSTANCE);
        List<Future<?>> work = new ArrayList<>();
        long start = System.nanoTime();
        for (AuditLog log : logs) {
            for (int t = 0; t < THREADS_PER_INSTANCE; t++) {
                int thread = t;
                work.add(pool.submit(() -> {
                    for (int n = 0; n < APPENDS_PER_INSTANCE / THREADS_PER_INSTANCE; n++) {
                        log.append(new AuditEntry("bench", "bench/" + thread, "describe_table", AuditEntry.Phase.CALL, "success",
                                null, List.of(), "args" + n, null, null, 1L));
                    }
                    return null;
                }));
            }
        }
        for (Future<?> f : work) {
            f.get(600, TimeUnit.SECONDS);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        pool.shutdown();
        logs.forEach(AuditLog::close);
        long rows = (long) instances * APPENDS_PER_INSTANCE;
        VerifyResult verified = AuditVerifier.verify(store, new AuditVerifier.Options(Optional.of(KEY), Optional.empty(),
                Optional.empty(), OptionalLong.empty()));
        assertTrue(verified.intact() && verified.rowsChecked() == rows, verified.toString());
        return String.format("%-11s %d instance%s: %6d appends in %5.2f s = %6.0f appends/s (chain verified)", backend, instances,
                instances == 1 ? " " : "s", rows, seconds, rows / seconds);
    }
}
