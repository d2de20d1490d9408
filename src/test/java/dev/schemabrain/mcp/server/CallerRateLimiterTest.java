package dev.schemabrain.mcp.server;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The token bucket per caller, on a clock the test moves. */
class CallerRateLimiterTest {

    private final AtomicLong now = new AtomicLong(1_000_000_000L);

    private CallerRateLimiter limiter(RateLimit limit, int maxCallers) {
        return new CallerRateLimiter(limit, now::get, maxCallers);
    }

    private static int allowed(CallerRateLimiter limiter, String caller, int calls) {
        int n = 0;
        for (int i = 0; i < calls; i++) {
            n += limiter.tryAcquire(caller).allowed() ? 1 : 0;
        }
        return n;
    }

    @Test
    void aBurstIsAllowedThenTheRestIsRefusedWithTheWaitUntilTheNextToken() {
        CallerRateLimiter limiter = limiter(RateLimit.parse("2/s", 5), 100);
        assertEquals(5, allowed(limiter, "agent/1", 30), "the burst, and nothing refilled meanwhile");
        CallerRateLimiter.Decision refused = limiter.tryAcquire("agent/1");
        assertFalse(refused.allowed());
        assertEquals(500, refused.retryAfterMillis(), "one token per half second at 2/s");

        now.addAndGet(250_000_000L);
        assertEquals(250, limiter.tryAcquire("agent/1").retryAfterMillis(), "half a token back");
        now.addAndGet(250_000_000L);
        assertTrue(limiter.tryAcquire("agent/1").allowed(), "the wait the refusal named was enough");
        assertFalse(limiter.tryAcquire("agent/1").allowed());
    }

    @Test
    void aQuietSpellRefillsUpToTheBurstAndNoFurther() {
        CallerRateLimiter limiter = limiter(RateLimit.parse("1/s", 3), 100);
        assertEquals(3, allowed(limiter, "a", 10));
        now.addAndGet(3_600_000_000_000L);
        assertEquals(3, allowed(limiter, "a", 10), "an hour of quiet buys the burst, not 3,600 calls");
    }

    @Test
    void callersHaveTheirOwnBucketsAndAnUnnamedClientHasOneToo() {
        CallerRateLimiter limiter = limiter(RateLimit.parse("1/min", 2), 100);
        assertEquals(2, allowed(limiter, "a", 5));
        assertEquals(2, allowed(limiter, "b", 5), "b is not charged for a's calls");
        assertEquals(2, allowed(limiter, null, 5));
        assertEquals(0, allowed(limiter, null, 5), "all unnamed clients share one bucket");
        assertEquals(60_000, limiter.tryAcquire("a").retryAfterMillis());
    }

    @Test
    void theBucketsAreBoundedAndAForgottenCallerStartsFull() {
        CallerRateLimiter limiter = limiter(RateLimit.parse("1/h", 1), 2);
        assertEquals(1, allowed(limiter, "a", 3));
        assertEquals(1, allowed(limiter, "b", 3));
        assertEquals(1, allowed(limiter, "c", 3), "a third caller evicts the least recently seen (a)");
        assertEquals(0, allowed(limiter, "c", 1));
        assertEquals(1, allowed(limiter, "a", 3), "a was forgotten; at most one burst per eviction");
    }

    @Test
    void aHugeClientNameIsKeptAsItsHashAndStillHasOneBucket() {
        CallerRateLimiter limiter = limiter(RateLimit.parse("1/h", 2), 100);
        String huge = "x".repeat(4 * 1024 * 1024);
        assertEquals(71, CallerRateLimiter.key(huge).length(), "sha256: and 64 hex digits, not 4 MiB");
        assertEquals(2, allowed(limiter, huge, 5));
        assertEquals(2, allowed(limiter, huge + "y", 5), "another name, another bucket");
        assertEquals("agent/1", CallerRateLimiter.key("agent/1"));
    }

    @Test
    void offLetsEverythingThrough() {
        CallerRateLimiter limiter = limiter(RateLimit.parse("off", 1), 100);
        assertEquals(10_000, allowed(limiter, "a", 10_000));
    }

    @Test
    void ratesAreParsedAndDescribedAsTheMessageSaysThem() {
        assertEquals(2, RateLimit.parse("2/s", 20).perSecond());
        assertEquals(1.5, RateLimit.parse("90/min", 20).perSecond());
        assertEquals("90 calls per minute", RateLimit.parse("90 / min", 20).describe());
        assertEquals("2 calls per second", RateLimit.parse("2/S", 20).describe());
        assertEquals("1 call per hour", RateLimit.parse("1/h", 20).describe());
        assertTrue(RateLimit.parse("OFF", 20).isOff());
        for (String bad : new String[] {"", "2", "2/week", "-1/s", "0/s", "1e9/s", "2/s; DROP"}) {
            assertThrows(IllegalArgumentException.class, () -> RateLimit.parse(bad, 20), bad);
        }
        assertThrows(IllegalArgumentException.class, () -> RateLimit.parse("2/s", 0));
    }
}
