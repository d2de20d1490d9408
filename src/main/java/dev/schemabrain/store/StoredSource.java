package dev.schemabrain.store;

import java.time.Instant;

/** A source the store has indexed. {@code displayUrl} never holds credentials. */
public record StoredSource(String sourceId, String kind, String displayUrl, Instant firstIndexedAt, Instant lastIndexedAt) {
}
