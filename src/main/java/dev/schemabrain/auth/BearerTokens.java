package dev.schemabrain.auth;

import dev.schemabrain.error.SchemaBrainException;

import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;

/**
 * Checks a presented bearer token against the stored hashes. The hashes are reread at most once a
 * second, so a token made or revoked while the server runs counts within a second, without a store
 * read per request. The presented token is hashed and compared with every stored hash in constant
 * time (no early exit), so neither timing nor the position of a match tells anything about the hashes.
 */
public final class BearerTokens {

    private static final long RELOAD_NANOS = 1_000_000_000L;

    private record Known(String name, byte[] hash) {
    }

    private record Snapshot(long loadedAt, List<Known> known) {
    }

    private final TokenStore source;
    private Snapshot snapshot;

    public BearerTokens(TokenStore source) {
        this.source = source;
    }

    /** Whether the source holds any token now (the server turns token checking on when it does). */
    public boolean any() throws SchemaBrainException {
        return !known().isEmpty();
    }

    Verdict check(String presented) throws SchemaBrainException {
        byte[] hash = Tokens.digest(presented);
        String match = null;
        for (Known k : known()) {
            if (MessageDigest.isEqual(hash, k.hash()) && match == null) {
                match = k.name();
            }
        }
        return match == null ? new Verdict.Invalid() : new Verdict.Caller(match);
    }

    private synchronized List<Known> known() throws SchemaBrainException {
        long now = System.nanoTime();
        if (snapshot == null || now - snapshot.loadedAt() >= RELOAD_NANOS) {
            List<Known> known = source.list().stream()
                    .map(e -> new Known(e.name(), HexFormat.of().parseHex(e.sha256())))
                    .toList();
            snapshot = new Snapshot(now, known);
        }
        return snapshot.known();
    }

    @Override
    public String toString() {
        return "BearerTokens[" + source.describe() + "]";
    }
}
