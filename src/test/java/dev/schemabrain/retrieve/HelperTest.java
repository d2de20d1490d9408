package dev.schemabrain.retrieve;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

class HelperTest {

    @Test
    void everyIndexIsVisitedExactlyOnceWhetherSplitOrNot() {
        for (int n : new int[]{0, 1, 2, 3, 1_999, 2_000, 10_001}) {
            AtomicIntegerArray visits = new AtomicIntegerArray(Math.max(n, 1));
            Helper.forEach(n, n, i -> visits.incrementAndGet(i));
            for (int i = 0; i < n; i++) {
                assertEquals(1, visits.get(i), "index " + i + " of " + n);
            }
        }
    }

    @Test
    void aSearchDoesNotWaitForABusyPool() throws Exception {
        // Every worker of the common pool held: the caller must take the helper's half back, not queue behind them.
        int workers = ForkJoinPool.getCommonPoolParallelism();
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch held = new CountDownLatch(workers);
        List<Future<?>> blockers = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            blockers.add(ForkJoinPool.commonPool().submit(() -> {
                held.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
        }
        try {
            held.await(10, TimeUnit.SECONDS);
            AtomicIntegerArray visits = new AtomicIntegerArray(50_000);
            assertTimeoutPreemptively(Duration.ofSeconds(10), () -> Helper.forEach(50_000, 50_000, visits::incrementAndGet));
            for (int i = 0; i < 50_000; i++) {
                assertEquals(1, visits.get(i));
            }
            assertEquals("done", assertTimeoutPreemptively(Duration.ofSeconds(10),
                    () -> Helper.join(Helper.fork(() -> "done"))));
        } finally {
            release.countDown();
            for (Future<?> f : blockers) {
                f.get(10, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void aFailureOnEitherSideReachesTheCallerAsItself() {
        IllegalArgumentException upper = assertThrows(IllegalArgumentException.class, () -> Helper.forEach(10_000, 10_000, i -> {
            if (i == 9_999) {
                throw new IllegalArgumentException("upper half");
            }
        }));
        assertEquals("upper half", upper.getMessage());
        IllegalStateException forked = assertThrows(IllegalStateException.class,
                () -> Helper.join(Helper.fork(() -> {
                    throw new IllegalStateException("forked");
                })));
        assertEquals("forked", forked.getMessage());
    }
}
