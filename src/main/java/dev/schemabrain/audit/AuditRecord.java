package dev.schemabrain.audit;

/** One stored audit row: its place in the chain and what it says. */
public record AuditRecord(long id, String occurredAt, AuditEntry entry, String prevHash, String chainHash) {
}
