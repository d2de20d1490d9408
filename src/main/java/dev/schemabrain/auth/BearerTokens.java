package dev.schemabrain.auth;

import dev.schemabrain.error.SchemaBrainException;

import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Checks a presented bearer token against the stored hashes. The hashes are reread at most once a
 * second, so a token made or revoked while the server runs counts within a second, without a store
 * read per request. The presented token is hashed and compared with every stored hash in constant
 * time (no early exit), so neither timing nor the position of a match tells anything about the hashes.
 */
public final class BearerTokens {

    private static final long RELOAD_NANOS = 1_000_000_000L;

    private record Known(TokenEntry entry, byte[] hash) {
    }

    private record Snapshot(long loadedAt, List<Known> known) {
    }

    private final TokenStore source;
    private final ReentrantLock reloading = new ReentrantLock();
    private volatile Snapshot snapshot;

    public BearerTokens(TokenStore source) {
        this.source = source;
    }

    /** Whether the source holds any token now (the server turns token checking on when it does). */
    public boolean any() throws SchemaBrainException {
        return !known().isEmpty();
    }

    Verdict check(String presented) throws SchemaBrainException {
        byte[] hash = Tokens.digest(presented);
        TokenEntry match = null;
        for (Known k : known()) {
            if (MessageDigest.isEqual(hash, k.hash()) && match == null) {
                match = k.entry();
            }
        }
        return match == null ? new Verdict.Invalid() : Verdict.Caller.token(match);
    }

    /** The stored token named {@code name}, if there still is one (a revoked token is gone); as fresh as {@link #check}. */
    Optional<TokenEntry> named(String name) throws SchemaBrainException {
        return known().stream().map(Known::entry).filter(e -> e.name().equals(name)).findFirst();
    }

    /** The current hashes; one caller rereads them when stale while the others go on with the old set. */
    private List<Known> known() throws SchemaBrainException {
        Snapshot current = snapshot;
        if (current != null && System.nanoTime() - current.loadedAt() < RELOAD_NANOS) {
            return current.known();
        }
        if (current != null && !reloading.tryLock()) {
            return current.known();
        }
        if (current == null) {
            reloading.lock();
        }
        try {
            Snapshot latest = snapshot;
            if (latest == null || System.nanoTime() - latest.loadedAt() >= RELOAD_NANOS) {
                List<Known> known = source.list().stream()
                        .map(e -> new Known(e, HexFormat.of().parseHex(e.sha256())))
                        .toList();
                latest = new Snapshot(System.nanoTime(), known);
                snapshot = latest;
            }
            return latest.known();
        } finally {
            reloading.unlock();
        }
    }

    @Override
    public String toString() {
        return "BearerTokens[" + source.describe() + "]";
    }
}
