package dev.schemabrain.load;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/** Runs a fixed number of calls from a fixed number of threads, each starting its next call as the last ends. */
public final class LoadRun {

    /** One call; false (or an exception) counts as an error, and its time still counts. */
    @FunctionalInterface
    public interface Call {
        boolean call() throws Exception;
    }

    private LoadRun() {
    }

    public static LoadPoint run(Call call, int total, int concurrency) throws InterruptedException {
        long[] latencies = new long[total];
        AtomicInteger next = new AtomicInteger();
        AtomicInteger errors = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        for (int w = 0; w < concurrency; w++) {
            Thread worker = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = next.getAndIncrement(); i < total; i = next.getAndIncrement()) {
                    long t0 = System.nanoTime();
                    boolean ok;
                    try {
                        ok = call.call();
                    } catch (Exception e) {
                        ok = false;
                    }
                    latencies[i] = System.nanoTime() - t0;
                    if (!ok) {
                        errors.incrementAndGet();
                    }
                }
            }, "load-" + w);
            worker.setDaemon(true);
            worker.start();
            workers.add(worker);
        }
        long t0 = System.nanoTime();
        start.countDown();
        for (Thread worker : workers) {
            worker.join();
        }
        return LoadPoint.of(concurrency, errors.get(), System.nanoTime() - t0, latencies);
    }
}
