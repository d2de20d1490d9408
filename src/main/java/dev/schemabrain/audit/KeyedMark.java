package dev.schemabrain.audit;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Optional;

/**
 * The log's signed statement that it is keyed (audit_meta {@code mark}): how many of its first rows were
 * chained without a key and the hash of the last of them, the first row chained after the mark, and whether
 * the store keeps a witness of the log. Signed with the witness key, so nobody without the key can move the
 * keyless prefix or drop the store witness from what verify requires; and row {@code boundFrom}'s HMAC
 * covers the mark's MAC, so deleting the mark breaks that row (an attacker can delete but not forge).
 */
record KeyedMark(long legacyRows, String legacyHead, long boundFrom, boolean storeWitness, String mac) {

    static KeyedMark sign(AuditKey key, long legacyRows, String legacyHead, long boundFrom, boolean storeWitness) {
        KeyedMark unsigned = new KeyedMark(legacyRows, legacyHead, boundFrom, storeWitness, "");
        return new KeyedMark(legacyRows, legacyHead, boundFrom, storeWitness,
                HexFormat.of().formatHex(key.witnessMac(unsigned.signed(key.id()))));
    }

    boolean verifies(AuditKey key) {
        try {
            return MessageDigest.isEqual(key.witnessMac(signed(key.id())), HexFormat.of().parseHex(mac));
        } catch (IllegalArgumentException notHex) {
            return false;
        }
    }

    /** What row {@link #boundFrom}'s HMAC covers besides its link: the mark's MAC. */
    byte[] binding() {
        return HexFormat.of().parseHex(mac);
    }

    private byte[] signed(String keyId) {
        return ("schemabrain-audit-mark:" + keyId + ":" + legacyRows + ":" + legacyHead + ":" + boundFrom + ":"
                + (storeWitness ? 1 : 0)).getBytes(StandardCharsets.US_ASCII);
    }

    /** As stored in audit_meta: {@code LEGACY:HEAD:FROM:STORE:MAC}. */
    String text() {
        return legacyRows + ":" + legacyHead + ":" + boundFrom + ":" + (storeWitness ? 1 : 0) + ":" + mac;
    }

    /** Empty when the text has another shape (verify reports that as an altered mark). */
    static Optional<KeyedMark> parse(String text) {
        String[] p = text == null ? new String[0] : text.split(":");
        if (p.length != 5 || !p[0].matches("[0-9]{1,18}") || !p[1].matches("[0-9a-f]{64}") || !p[2].matches("[0-9]{1,18}")
                || !p[3].matches("[01]") || !p[4].matches("[0-9a-f]{64}")) {
            return Optional.empty();
        }
        return Optional.of(new KeyedMark(Long.parseLong(p[0]), p[1], Long.parseLong(p[2]), p[3].equals("1"), p[4]));
    }
}
