package dev.schemabrain.audit;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/**
 * The statement identity an audit row keeps: an HMAC of the tool's fingerprint (a hash of the SQL text)
 * under a key derived from the audit key. The plain fingerprint is a function of the query shape, so a
 * reader of the log could dry-run candidate calls and match rows; keyed, only the key holder can.
 * Rows of earlier builds keep their 16-digit plain fingerprint; keyed ones are 64 hex digits.
 */
public final class SqlFingerprint {

    private SqlFingerprint() {
    }

    /** The keyed form of {@code fingerprint} (null stays null). */
    public static String of(AuditKey key, String fingerprint) {
        return fingerprint == null ? null
                : HexFormat.of().formatHex(key.fingerprintMac(fingerprint.getBytes(StandardCharsets.UTF_8)));
    }
}
