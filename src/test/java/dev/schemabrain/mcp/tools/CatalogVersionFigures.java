package dev.schemabrain.mcp.tools;

import dev.schemabrain.served.StoreCatalogProvider;
import dev.schemabrain.testing.InProcessCli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.LongAdder;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The catalog check every call makes before it answers ({@link StoreCatalogProvider#current()}), alone: calls per
 * second on one thread and on 8 and 32 threads over the demo store. Not part of the normal run:
 * {@code mvn test -Dtest=CatalogVersionFigures -Dsurefire.failIfNoSpecifiedTests=false}.
 */
class CatalogVersionFigures {

    @TempDir
    Path dir;

    @Test
    void callsPerSecond() throws Exception {
        Path store = dir.resolve("demo.db");
        InProcessCli.Result demo = InProcessCli.run("--store", store.toString(), "demo", "--events", "none", "--database", dir.resolve("d.sqlite").toString());
        assertTrue(demo.exitCode() == 0, demo.stderr());
        StoreCatalogProvider provider = new StoreCatalogProvider(store);
        assertTrue(provider.current().isPresent());
        StringBuilder out = new StringBuilder();
        for (int threads : List.of(1, 8, 32, 1, 8, 32)) {
            out.append(String.format("threads %2d: %,12.0f calls/s%n", threads, rate(provider, threads, 2_000_000_000L)));
        }
        System.out.print(out);
    }

    private static double rate(StoreCatalogProvider provider, int threads, long nanos) throws InterruptedException {
        LongAdder calls = new LongAdder();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> running = new ArrayList<>();
        long[] window = new long[2];
        for (int t = 0; t < threads; t++) {
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                long end = System.nanoTime() + nanos;
                while (System.nanoTime() < end) {
                    provider.current().orElseThrow();
                    calls.increment();
                }
            });
            thread.start();
            running.add(thread);
        }
        window[0] = System.nanoTime();
        start.countDown();
        for (Thread t : running) {
            t.join();
        }
        window[1] = System.nanoTime();
        return calls.sum() * 1e9 / (window[1] - window[0]);
    }
}
