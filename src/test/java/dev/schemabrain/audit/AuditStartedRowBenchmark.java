package dev.schemabrain.audit;

import dev.schemabrain.store.SqliteStore;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What get_metric's {@code started} row costs a call: appends of started rows (each returns after the fsync covering
 * it, shared by the appends waiting together) against appends of rows that return once committed (the completed row),
 * at concurrency 1 and 8, in alternating rounds; and one fdatasync of this disk alone. Run with
 * {@code mvn -Pbench test -Dtest=AuditStartedRowBenchmark}; figures in target/bench/audit-started.txt.
 */
@Tag("benchmark")
class AuditStartedRowBenchmark {

    @TempDir
    Path dir;

    @Test
    void startedRowAgainstCommittedRow() throws Exception {
        Path store = dir.resolve("s.db");
        try (SqliteStore s = SqliteStore.openOrCreate(store)) {
            s.write(c -> null);
        }
        int n = Integer.getInteger("audit.bench.appends", 2_000);
        List<String> lines = new ArrayList<>();
        lines.add(String.format(Locale.ROOT, "fdatasync of a 4 KiB write on this disk alone: p50 %.3f ms", fsync(dir.resolve("f"), 200)));
        AuditKey key = AuditKey.of(new byte[AuditKey.MIN_BYTES]);
        try (AuditLog log = AuditLog.open(store, key, Optional.empty(), AuditDurability.STARTED_ROWS)) {
            append(log, AuditEntry.Phase.STARTED, 8, n);
            append(log, AuditEntry.Phase.COMPLETED, 8, n);
            for (int round = 0; round < 2; round++) {
                for (int c : new int[]{1, 8}) {
                    for (AuditEntry.Phase phase : List.of(AuditEntry.Phase.COMPLETED, AuditEntry.Phase.STARTED)) {
                        long t = System.nanoTime();
                        long[] nanos = append(log, phase, c, n);
                        double seconds = (System.nanoTime() - t) / 1e9;
                        Arrays.sort(nanos);
                        lines.add(String.format(Locale.ROOT, "round %d c=%d %-9s append p50 %.3f ms, p99 %.3f ms, %.0f appends/s",
                                round, c, phase.name().toLowerCase(Locale.ROOT), nanos[n / 2] / 1e6, nanos[n * 99 / 100] / 1e6,
                                n / seconds));
                    }
                }
            }
        }
        Path out = Path.of("target", "bench", "audit-started.txt");
        Files.createDirectories(out.getParent());
        Files.write(out, lines);
        lines.forEach(System.out::println);
    }

    private static long[] append(AuditLog log, AuditEntry.Phase phase, int concurrency, int total) throws Exception {
        long[] nanos = new long[total];
        AtomicInteger next = new AtomicInteger();
        ExecutorService workers = Executors.newFixedThreadPool(concurrency);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < concurrency; w++) {
                done.add(workers.submit(() -> {
                    for (int i; (i = next.getAndIncrement()) < total; ) {
                        AuditEntry e = new AuditEntry("src", "token:bench", "get_metric", phase,
                                phase == AuditEntry.Phase.STARTED ? "started" : "success", null, List.of(), "args" + i,
                                "SELECT sum(x) FROM t WHERE y = ?", phase == AuditEntry.Phase.STARTED ? null : 12L,
                                phase == AuditEntry.Phase.STARTED ? null : 3L);
                        long t = System.nanoTime();
                        log.append(e);
                        nanos[i] = System.nanoTime() - t;
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            workers.shutdownNow();
        }
        return nanos;
    }

    private static double fsync(Path file, int times) throws Exception {
        long[] nanos = new long[times];
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            for (int i = 0; i < times; i++) {
                ch.write(ByteBuffer.allocate(4096));
                long t = System.nanoTime();
                ch.force(false);
                nanos[i] = System.nanoTime() - t;
            }
        }
        Arrays.sort(nanos);
        return nanos[times / 2] / 1e6;
    }
}
