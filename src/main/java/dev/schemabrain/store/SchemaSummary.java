package dev.schemabrain.store;

import java.time.Instant;

/** One indexed schema with its live table and column counts. */
public record SchemaSummary(String sourceId, String schema, int tables, int columns, Instant indexedAt) {
}
