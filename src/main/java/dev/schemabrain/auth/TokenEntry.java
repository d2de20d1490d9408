package dev.schemabrain.auth;

import java.time.Instant;

/** One stored token: its name, when it was made, and the hex SHA-256 of the token (never the token). */
public record TokenEntry(String name, Instant createdAt, String sha256) {
}
