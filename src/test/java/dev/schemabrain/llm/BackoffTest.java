package dev.schemabrain.llm;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Back-off: retry-after wins (capped), else exponential with jitter in [half, full]; which statuses retry. */
class BackoffTest {

    @Test
    void retryAfterWinsAndIsCapped() {
        Backoff b = new Backoff(4, Duration.ofMillis(1000));
        assertEquals(Duration.ofSeconds(7), b.delay(0, "7"));
        assertEquals(Backoff.MAX_DELAY, b.delay(0, "3600"));
        assertEquals(Duration.ZERO, b.delay(2, "0"));
    }

    @Test
    void theScheduleDoublesWithJitter() {
        Backoff b = new Backoff(4, Duration.ofMillis(1000));
        for (int retry = 0; retry < 3; retry++) {
            long full = 1000L << retry;
            for (int i = 0; i < 50; i++) {
                long ms = b.delay(retry, retry == 1 ? "Wed, 21 Oct 2015 07:28:00 GMT" : null).toMillis();
                assertTrue(ms >= full / 2 && ms <= full, retry + ": " + ms);
            }
        }
        assertTrue(b.delay(40, null).compareTo(Backoff.MAX_DELAY) <= 0);
    }

    @Test
    void rateLimitsOverloadAndServerErrorsRetry() {
        assertTrue(Backoff.retryable(429));
        assertTrue(Backoff.retryable(529));
        assertTrue(Backoff.retryable(503));
        assertFalse(Backoff.retryable(400));
        assertFalse(Backoff.retryable(401));
    }
}
