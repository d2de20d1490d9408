package dev.schemabrain.retrieve;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.FutureTask;
import java.util.function.IntConsumer;

/**
 * Lets one search use a second core: part of its work goes to the common pool while the caller does the rest. A
 * part the pool has not started by the time the caller needs it is run by the caller itself, so on a busy server
 * (every core answering its own call) a search costs what it did alone and never waits in a queue.
 */
final class Helper {

    /** Below this many vector scores a handoff (tens of microseconds) costs more than it saves. */
    static final int MIN_SPLIT = 2_000;

    private static final boolean AVAILABLE = Runtime.getRuntime().availableProcessors() > 1
            && ForkJoinPool.getCommonPoolParallelism() > 0;

    private Helper() {
    }

    /** {@code work}, started on the pool when there is a second core; {@link #join} it for its result. */
    static <T> FutureTask<T> fork(Callable<T> work) {
        FutureTask<T> task = new FutureTask<>(work);
        if (AVAILABLE) {
            ForkJoinPool.commonPool().execute(task);
        }
        return task;
    }

    /** The result of a forked task, running it here if the pool has not begun it. */
    static <T> T join(FutureTask<T> task) {
        task.run();  // does nothing once the pool has started it
        try {
            return task.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while searching", e);
        }
    }

    /**
     * Runs {@code body} for every index in [0, n), the upper half on the pool when the {@code scores} vector scores
     * the loop computes make a handoff worth it. Each index must write only its own slots.
     */
    static void forEach(int n, long scores, IntConsumer body) {
        if (!AVAILABLE || scores < MIN_SPLIT || n < 2) {
            for (int i = 0; i < n; i++) {
                body.accept(i);
            }
            return;
        }
        int mid = n / 2;
        FutureTask<Void> upper = fork(() -> {
            for (int i = mid; i < n; i++) {
                body.accept(i);
            }
            return null;
        });
        for (int i = 0; i < mid; i++) {
            body.accept(i);
        }
        join(upper);
    }
}
