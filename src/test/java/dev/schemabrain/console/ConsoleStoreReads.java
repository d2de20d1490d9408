package dev.schemabrain.console;

import dev.schemabrain.audit.AuditLog;
import dev.schemabrain.audit.AuditRecord;
import dev.schemabrain.semantic.model.SemanticModel;
import dev.schemabrain.store.SemanticLayer;
import dev.schemabrain.store.Store;
import dev.schemabrain.store.StoreLocation;
import dev.schemabrain.store.Stores;

import java.util.List;
import java.util.OptionalLong;

/** What the console tests read back from the store a console wrote: its semantic layer and its audit chain. */
final class ConsoleStoreReads {

    private ConsoleStoreReads() {
    }

    static SemanticModel stored(StoreLocation store) throws Exception {
        try (Store s = Stores.open(store)) {
            return s.read(SemanticLayer::stored);
        }
    }

    static List<AuditRecord> auditRows(StoreLocation store) throws Exception {
        try (AuditLog log = AuditLog.openExisting(store)) {
            return log.list(10_000, OptionalLong.empty());
        }
    }
}
