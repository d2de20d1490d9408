package dev.schemabrain.mcp.server;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * A token bucket per caller: each call takes a token, tokens come back at the limit's rate up to its
 * burst. A caller who spends faster is told how long to wait. The buckets are bounded: past
 * {@code maxCallers} the least recently seen caller's bucket is dropped (for stdio there is one caller;
 * over HTTP callers are credential identities, never client-chosen names, so a flood of names is not free).
 */
public final class CallerRateLimiter {

    /** Allowed, or refused with the wait until the next token. */
    public record Decision(boolean allowed, long retryAfterMillis) {
        static final Decision ALLOWED = new Decision(true, 0);
    }

    private static final String ANONYMOUS = "";
    private static final int MAX_KEY_CHARS = 256;

    private final RateLimit limit;
    private final LongSupplier nanoClock;
    private final Map<String, Bucket> buckets;

    CallerRateLimiter(RateLimit limit, LongSupplier nanoClock, int maxCallers) {
        this.limit = limit;
        this.nanoClock = nanoClock;
        this.buckets = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Bucket> eldest) {
                return size() > maxCallers;
            }
        };
    }

    public CallerRateLimiter(RateLimit limit) {
        this(limit, System::nanoTime, 10_000);
    }

    RateLimit limit() {
        return limit;
    }

    /** Takes a token for {@code caller} (null: a client that did not introduce itself) if one is there. */
    public synchronized Decision tryAcquire(String caller) {
        if (limit.isOff()) {
            return Decision.ALLOWED;
        }
        long now = nanoClock.getAsLong();
        Bucket bucket = buckets.computeIfAbsent(key(caller), c -> new Bucket(limit.burst(), now));
        bucket.refill(now, limit);
        if (bucket.tokens >= 1) {
            bucket.tokens -= 1;
            return Decision.ALLOWED;
        }
        double seconds = (1 - bucket.tokens) / limit.perSecond();
        return new Decision(false, Math.max(1, (long) Math.ceil(seconds * 1000)));
    }

    /** The caller as a map key of bounded size: a client name can be megabytes long. */
    static String key(String caller) {
        if (caller == null) {
            return ANONYMOUS;
        }
        if (caller.length() <= MAX_KEY_CHARS) {
            return caller;
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(caller.getBytes(StandardCharsets.UTF_8));
            return "sha256:" + HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    private static final class Bucket {
        double tokens;
        long lastNanos;

        Bucket(double tokens, long now) {
            this.tokens = tokens;
            this.lastNanos = now;
        }

        void refill(long now, RateLimit limit) {
            double elapsed = Math.max(0, now - lastNanos) / 1e9;
            tokens = Math.min(limit.burst(), tokens + elapsed * limit.perSecond());
            lastNanos = now;
        }
    }
}
