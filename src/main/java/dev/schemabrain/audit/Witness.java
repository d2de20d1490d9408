package dev.schemabrain.audit;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Optional;

/**
 * A signed head kept outside the audit file: (row count, head chain_hash, HMAC over both with the
 * witness key). The chain may be ahead of a witness, never behind it; nobody without the key can
 * write one that verifies.
 */
public record Witness(Head head, String mac) {

    public static Witness sign(AuditKey key, Head head) {
        return new Witness(head, HexFormat.of().formatHex(key.witnessMac(signed(head))));
    }

    public boolean verifies(AuditKey key) {
        byte[] expected = key.witnessMac(signed(head));
        try {
            return MessageDigest.isEqual(expected, HexFormat.of().parseHex(mac));
        } catch (IllegalArgumentException notHex) {
            return false;
        }
    }

    private static byte[] signed(Head head) {
        return ("schemabrain-audit-witness:" + head).getBytes(StandardCharsets.US_ASCII);
    }

    /** One line of a witness file: {@code COUNT:HASH MAC}. */
    public String line() {
        return head + " " + mac;
    }

    public static Optional<Witness> parseLine(String line) {
        String[] parts = line.strip().split(" ");
        if (parts.length != 2 || !parts[1].matches("[0-9a-f]{64}")) {
            return Optional.empty();
        }
        return Head.parse(parts[0]).map(h -> new Witness(h, parts[1]));
    }
}
