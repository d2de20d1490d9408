package dev.schemabrain.console;

import dev.schemabrain.error.AuditException;
import dev.schemabrain.audit.AuditKey;
import dev.schemabrain.audit.AuditLog;
import dev.schemabrain.audit.AuditRecord;
import dev.schemabrain.audit.AuditVerifier;
import dev.schemabrain.audit.VerifyResult;
import dev.schemabrain.store.StoreLocation;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeSet;

/** The audit page's reading: the newest rows of the store's chain, optionally one caller's, and the chain's verdict. */
final class AuditTimeline {

    /** How many of the newest rows are read; the CLI's {@code audit list} pages further back. */
    static final int NEWEST = 500;

    /** What the page shows: rows newest first, every caller among the rows read, and the verification. */
    record View(List<AuditRecord> rows, List<String> callers, VerifyResult verified) {
    }

    private final AuditLog log;
    private final StoreLocation store;
    private final AuditKey key;

    AuditTimeline(AuditLog log, StoreLocation store, AuditKey key) {
        this.log = log;
        this.store = store;
        this.key = key;
    }

    View read(Optional<String> caller) throws AuditException {
        List<AuditRecord> newest = log.list(NEWEST, OptionalLong.empty());
        TreeSet<String> callers = new TreeSet<>();
        List<AuditRecord> shown = new ArrayList<>();
        for (AuditRecord r : newest) {
            String who = r.entry().caller() == null ? "" : r.entry().caller();
            callers.add(who);
            if (caller.isEmpty() || caller.get().equals(who)) {
                shown.add(r);
            }
        }
        Collections.reverse(shown);
        log.flush();   // rows appended by this process are in the file the verifier reads
        VerifyResult verified = AuditVerifier.verify(store, new AuditVerifier.Options(Optional.of(key), Optional.empty(),
                Optional.empty(), OptionalLong.empty()));
        return new View(shown, List.copyOf(callers), verified);
    }
}
