package dev.schemabrain.audit;

import dev.schemabrain.store.SqliteStore;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What opening the audit log costs a starting server as the log grows: the open (the rows since the
 * store's witness) and the history check behind it (the whole chain, off the start path). Run with
 * {@code mvn -Pbench test -Dtest=AuditOpenBenchmark [-Daudit.rows=200000]}; figures go to target/bench/audit-open.txt.
 */
@Tag("benchmark")
class AuditOpenBenchmark {

    @TempDir
    Path dir;

    @Test
    void openAndHistoryCheckByLogSize() throws Exception {
        int rows = Integer.getInteger("audit.rows", 200_000);
        Path store = dir.resolve("s.db");
        try (SqliteStore s = SqliteStore.openOrCreate(store)) {
            s.write(c -> null);
        }
        AuditKey key = AuditKey.of(new byte[AuditKey.MIN_BYTES]);
        try (AuditLog log = AuditLog.open(store, key, Optional.empty(), AuditDurability.STARTED_ROWS)) {
            for (int i = 0; i < rows; i++) {
                log.append(new AuditEntry("src", "token:bench", "describe_table", AuditEntry.Phase.CALL, "success", null,
                        List.of(), "args" + i, null, null, 3L));
            }
        }
        List<Double> open = new ArrayList<>();
        List<Double> history = new ArrayList<>();
        for (int run = 0; run < 5; run++) {
            long t = System.nanoTime();
            try (AuditLog log = AuditLog.open(store, key, Optional.empty(), AuditDurability.STARTED_ROWS)) {
                open.add((System.nanoTime() - t) / 1e6);
                long h = System.nanoTime();
                assertTrue(log.awaitHistoryCheck(600_000));
                history.add((System.nanoTime() - h) / 1e6);
            }
        }
        open.sort(null);
        history.sort(null);
        String line = String.format(Locale.ROOT, "audit log of %,d rows: open (serve's start) median %.1f ms (min %.1f, max %.1f);"
                        + " history check in the background median %.0f ms (min %.0f, max %.0f); 5 runs, %d cores%n", rows,
                open.get(2), open.get(0), open.get(4), history.get(2), history.get(0), history.get(4),
                Runtime.getRuntime().availableProcessors());
        Path out = Path.of("target", "bench", "audit-open.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, line, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        System.out.print(line);
    }
}
