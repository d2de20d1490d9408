package dev.schemabrain.audit;

import java.util.HexFormat;

/**
 * The identity of a call's arguments: an HMAC of their canonical JSON under a key derived from the
 * audit key, so the log never holds the values and nobody without the key can test guesses (which
 * e-mail was looked up) against a row.
 */
public final class ArgsHash {

    private ArgsHash() {
    }

    /** @param arguments a JSON value: usually a map, anything for a call that was rejected as malformed */
    public static String of(AuditKey key, Object arguments) {
        return HexFormat.of().formatHex(key.argsMac(CanonicalJson.bytes(arguments)));
    }
}
