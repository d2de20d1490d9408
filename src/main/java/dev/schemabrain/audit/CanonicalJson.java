package dev.schemabrain.audit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** Canonical JSON (keys sorted at every level, no whitespace, UTF-8) and SHA-256 over bytes. */
final class CanonicalJson {

    private static final ObjectMapper JSON = new ObjectMapper()
            .configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);

    private CanonicalJson() {
    }

    static byte[] bytes(Object value) {
        try {
            // Through a tree, so nested maps of any kind come out sorted too.
            return JSON.writeValueAsString(JSON.convertValue(value, Object.class)).getBytes(StandardCharsets.UTF_8);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw new IllegalStateException("audit content always serializes", e);
        }
    }

    static byte[] sha256(byte[]... parts) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            for (byte[] p : parts) {
                digest.update(p);
            }
            return digest.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
