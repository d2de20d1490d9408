package dev.schemabrain.audit;

import java.util.Optional;

/**
 * A point in the chain: how many rows it had and the chain_hash of its last row. {@code audit head}
 * prints it as {@code COUNT:HASH}; kept elsewhere, it is what {@code audit verify --expect-head} checks.
 */
public record Head(long count, String hash) {

    public static final Head EMPTY = new Head(0, AuditLog.GENESIS);

    @Override
    public String toString() {
        return count + ":" + hash;
    }

    /** {@code COUNT:HASH}, or empty when the text has another shape. */
    public static Optional<Head> parse(String text) {
        String t = text.strip();
        int colon = t.indexOf(':');
        if (colon < 1 || !t.substring(colon + 1).matches("[0-9a-f]{64}") || !t.substring(0, colon).matches("[0-9]{1,18}")) {
            return Optional.empty();
        }
        return Optional.of(new Head(Long.parseLong(t.substring(0, colon)), t.substring(colon + 1)));
    }
}
