package dev.schemabrain.llm;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Exponential back-off with jitter for 429, 529 and 5xx; a server's {@code retry-after} (seconds) wins
 * over the computed delay, capped so one table cannot stall a run.
 */
record Backoff(int attempts, Duration base) {

    static final Duration MAX_DELAY = Duration.ofSeconds(30);

    static Backoff standard() {
        return new Backoff(4, Duration.ofMillis(1000));
    }

    Duration delay(int retry, String retryAfter) {
        if (retryAfter != null) {
            try {
                long seconds = Long.parseLong(retryAfter.trim());
                return Duration.ofSeconds(Math.max(0, Math.min(seconds, MAX_DELAY.toSeconds())));
            } catch (NumberFormatException ignored) {
                // an HTTP date or garbage: use our own schedule
            }
        }
        long ms = Math.min(base.toMillis() << Math.min(retry, 16), MAX_DELAY.toMillis());
        return Duration.ofMillis(ms / 2 + ThreadLocalRandom.current().nextLong(ms / 2 + 1));
    }

    static boolean retryable(int status) {
        return status == 429 || status == 529 || status >= 500;
    }
}
