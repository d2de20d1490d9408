package dev.schemabrain.audit;

import dev.schemabrain.error.AuditException;
import dev.schemabrain.store.StoreLocation;
import dev.schemabrain.error.StoreException;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * {@code audit verify}: checks the key id, the schema (the append-only triggers), the id sequence,
 * every row's HMAC and link, and every head kept outside the file — the witness in the store, each
 * line of a witness file, an expected head — so truncation, deletion of the file, rollback to an older
 * copy, recomputation without the key, forged appends and reused ids are all reported; so are a keyless
 * prefix longer than the log's signed mark allows, a deleted mark (the row bound to it no longer verifies),
 * a deleted store witness the mark says was kept, and a keyless log while a key is configured. A call that
 * started SQL without a recorded outcome is a warning, not tampering (a killed server leaves one).
 */
public final class AuditVerifier {

    /**
     * What to verify against; an empty key is only enough for a log written without one. {@code pace} runs after every
     * {@link #PACE_ROWS} rows read (a server's background check gives way there).
     */
    public record Options(Optional<AuditKey> key, Optional<WitnessFile> witnessFile, Optional<Head> expectHead,
                          OptionalLong since, Runnable pace) {

        public Options {
            Objects.requireNonNull(pace, "pace");
        }

        public Options(Optional<AuditKey> key, Optional<WitnessFile> witnessFile, Optional<Head> expectHead,
                       OptionalLong since) {
            this(key, witnessFile, expectHead, since, () -> { });
        }
    }

    /** How many rows are checked between two runs of {@link Options#pace}. */
    static final int PACE_ROWS = 1_000;

    /** A head some witness claims, and which witness. */
    private record Claim(String where, String hash) {
    }

    private AuditVerifier() {
    }

    public static VerifyResult verify(Path storePath, Options o) throws AuditException {
        return verify(new StoreLocation.SqliteFile(storePath), o);
    }

    /** Verifies the chain of the store at {@code location}: the file beside a SQLite store, or a PostgreSQL store's tables. */
    public static VerifyResult verify(StoreLocation location, Options o) throws AuditException {
        AuditLog log;
        try {
            log = AuditLog.openExisting(location);
        } catch (AuditLog.UntrustedFile e) {
            return VerifyResult.broken(0, clause(e.getMessage()));
        }
        try (log) {
            return verifyFresh(log, o);
        }
    }

    /** Verifies; again once if audit_meta changed meanwhile (a server starting beside this one marked the log). */
    static VerifyResult verifyFresh(AuditLog log, Options o) throws AuditException {
        VerifyResult r = verify(log, o);
        return !r.intact() && log.refreshMeta() ? verify(log, o) : r;
    }

    /**
     * At serve's open, under the key it will append with and against the witness file it writes: every head
     * and mark, and the rows from the store's witness on. The store's witness is signed under the key, so only
     * a server holding it wrote it, after verifying the rows before it; those rows are checked again by the
     * {@link HistoryCheck} that runs once the server is up. With no store witness, the whole chain now.
     */
    static VerifyResult verifyForAppend(AuditLog log, Optional<WitnessFile> witnessFile) throws AuditException {
        OptionalLong since = storeWitness(log).filter(w -> w.verifies(log.key()))
                .map(w -> OptionalLong.of(Math.max(1, w.head().count())))
                .orElse(OptionalLong.empty());
        return verifyFresh(log, new Options(Optional.of(log.key()), witnessFile, Optional.empty(), since));
    }

    static VerifyResult verify(AuditLog log, Options o) throws AuditException {
        Optional<Witness> stored = storeWitness(log);
        List<Witness> fileLines = new ArrayList<>();
        String fileName = o.witnessFile().map(f -> "the witness file " + f.path()).orElse(null);
        if (o.witnessFile().isPresent()) {
            WitnessFile.Lines lines = o.witnessFile().get().read();
            if (!lines.unreadable().isEmpty()) {
                return VerifyResult.broken(0, "line " + lines.unreadable().get(0) + " of " + fileName + " is not a witness:"
                        + " the file was edited");
            }
            fileLines.addAll(lines.witnesses());
        }
        TreeMap<Long, List<Claim>> claims = new TreeMap<>();
        stored.ifPresent(w -> claim(claims, w.head(), "the witness in the store"));
        fileLines.forEach(w -> claim(claims, w.head(), fileName));
        o.expectHead().ifPresent(h -> claim(claims, h, "the expected head"));

        try {
            if (!log.exists()) {
                Map.Entry<Long, List<Claim>> last = claims.lastEntry();
                if (last != null && last.getKey() > 0) {
                    return VerifyResult.broken(0, "the audit log " + log.name() + " is missing or empty, but "
                            + last.getValue().get(0).where() + " says it held " + last.getKey() + " rows: it was deleted or replaced, or the store"
                            + " was copied without it (copy both with 'schemabrain store backup DEST')");
                }
                return VerifyResult.intact(0, List.of());
            }
            AuditSchema.Meta meta = log.meta();
            String schemaProblem = log.schemaProblem(meta == null);
            if (schemaProblem != null) {
                return VerifyResult.broken(0, schemaProblem.replace("it holds", "the log holds").replace("its ", "the log's ")
                        + ": the log was altered outside SchemaBrain");
            }
            AuditKey key = null;
            List<String> warnings = new ArrayList<>();
            KeyedMark mark = null;
            if (meta == null) {
                // Any signed head means a keyed log was here: only the key holder can write one.
                if (!claims.isEmpty()) {
                    return VerifyResult.broken(0, "the log has no key, but " + claims.lastEntry().getValue().get(0).where()
                            + " says a keyed log held " + claims.lastKey() + " rows: it was replaced by a keyless copy");
                }
                if (o.key().isPresent()) {
                    return VerifyResult.broken(0, "the log has no audit key (no audit_meta) although one is configured: a"
                            + " build before audit keys wrote it, or someone rewrote it with the keyless rule and removed"
                            + " audit_meta; if it predates keys, 'schemabrain audit rotate --even-if-broken' archives it");
                }
                warnings.add("this log was written by a build without an audit key: anyone with the file can recompute"
                        + " its chain; serve continues it keyed (the first keyed row covers these rows)");
            } else {
                if (meta.legacyRows() < 0 || meta.keyId().isEmpty()) {
                    return VerifyResult.broken(0, "the log's audit_meta was altered (no key id or keyless row count)");
                }
                if (o.key().isEmpty()) {
                    throw new AuditException("Verifying this audit log needs its key (key id " + meta.keyId() + "); pass"
                            + " --audit-key FILE or set " + AuditKey.ENV + ".", null);
                }
                key = o.key().get();
                if (!key.id().equals(meta.keyId())) {
                    if (stored.isPresent() && stored.get().verifies(key)) {
                        return VerifyResult.broken(0, "the log was written with another key (key id " + meta.keyId()
                                + ") than the store's witness is signed with (key id " + key.id() + "): the log was replaced");
                    }
                    throw new AuditException("The audit key (key id " + key.id() + ") does not match the key this log was"
                            + " written with (key id " + meta.keyId() + "); pass that key with --audit-key FILE or "
                            + AuditKey.ENV + ".", null);
                }
                if (stored.isPresent() && !stored.get().verifies(key)) {
                    return VerifyResult.broken(0, "the witness in the store does not verify under this key: it was forged");
                }
                if (meta.mark() != null) {
                    mark = KeyedMark.parse(meta.mark()).filter(m -> m.verifies(o.key().get())).orElse(null);
                    if (mark == null) {
                        return VerifyResult.broken(0, "the log's keyed mark in audit_meta does not verify under this key:"
                                + " it was forged or altered");
                    }
                    if (mark.legacyRows() != meta.legacyRows()) {
                        return VerifyResult.broken(0, "audit_meta's legacy_rows (" + meta.legacyRows() + ") is not the "
                                + mark.legacyRows() + " the log's signed mark records: it was rewritten to pass keyed rows"
                                + " off as keyless");
                    }
                    claim(claims, new Head(mark.legacyRows(), mark.legacyHead()), "the log's signed mark");
                    if (mark.storeWitness() && stored.isEmpty()) {
                        return VerifyResult.broken(0, "the store holds no witness of this log, but the log's signed mark"
                                + " says it kept one: the witness was deleted or the store replaced, so rows removed from"
                                + " the log's end cannot be ruled out");
                    }
                } else if (meta.legacyRows() > 0 && log.storedHash(meta.legacyRows() + 1).isEmpty()) {
                    // Unmarked (an earlier build's log): only a keyed row after the keyless ones vouches for their count.
                    return VerifyResult.broken(0, "audit_meta says rows 1.." + meta.legacyRows() + " were written without a"
                            + " key, but no keyed row or signed mark follows them: legacy_rows was rewritten to pass keyed"
                            + " rows off as keyless");
                }
                for (int i = 0; i < fileLines.size(); i++) {
                    if (!fileLines.get(i).verifies(key)) {
                        return VerifyResult.broken(0, "the witness " + fileLines.get(i).head() + " in " + fileName
                                + " does not verify under this key: it was forged");
                    }
                }
                if (stored.isEmpty() && o.witnessFile().isEmpty() && o.expectHead().isEmpty()) {
                    warnings.add("no witness of this log exists outside it (the store has none: it was busy, missing or"
                            + " written by an older build), so rows removed from its end cannot be ruled out; keep"
                            + " 'schemabrain audit head' elsewhere and pass it as --expect-head");
                }
                if (meta.legacyRows() > 0) {
                    warnings.add("rows 1.." + meta.legacyRows() + " were written without a key (by an earlier build);"
                            + " the first keyed row after them covers their chain");
                }
            }
            return scan(log, key, meta == null ? Long.MAX_VALUE : meta.legacyRows(), mark, claims, o.since(), warnings,
                    o.pace());
        } catch (SQLException e) {
            throw new AuditException("The audit log cannot be read (" + e.getMessage() + ").", e);
        }
    }

    private static VerifyResult scan(AuditLog log, AuditKey key, long legacyRows, KeyedMark mark, TreeMap<Long, List<Claim>> claims,
                                     OptionalLong since, List<String> warnings, Runnable pace)
            throws AuditException, SQLException {
        long from = since.isPresent() ? Math.max(1, since.getAsLong()) : 1;
        Optional<String> before = log.storedHash(from - 1);
        if (before.isEmpty()) {
            return VerifyResult.broken(0, from - 1, "the row before the first one checked (row " + (from - 1) + ") is missing: rows were deleted");
        }
        // Heads before --since are compared with the stored hashes, which the chain from there on covers.
        for (Map.Entry<Long, List<Claim>> e : claims.headMap(from).entrySet()) {
            Optional<String> h = log.storedHash(e.getKey());
            for (Claim c : e.getValue()) {
                if (h.isEmpty() || !h.get().equals(c.hash())) {
                    return VerifyResult.broken(0, e.getKey(), "its chain_hash is not the one " + c.where() + " recorded:"
                            + " the log was rewritten or rolled back from here");
                }
            }
        }
        long[] next = {from};
        long[] checked = {0};
        String[] prev = {before.get()};
        VerifyResult[] bad = {null};
        Map<String, Deque<Long>> started = new HashMap<>();
        boolean[] interrupted = {false};
        log.scan(OptionalLong.of(from), (r, unreadable) -> {
            if (Thread.currentThread().isInterrupted()) {
                interrupted[0] = true;   // a history check whose server is closing
                return false;
            }
            checked[0]++;
            if (checked[0] % PACE_ROWS == 0) {
                pace.run();
            }
            if (unreadable != null) {
                bad[0] = VerifyResult.broken(checked[0], r.id(), unreadable);
                return false;
            }
            if (r.id() != next[0]) {
                bad[0] = VerifyResult.broken(checked[0], r.id(), "the row ids jump from " + (next[0] - 1) + " to " + r.id()
                        + ": rows in between were deleted");
                return false;
            }
            if (!r.prevHash().equals(prev[0])) {
                bad[0] = VerifyResult.broken(checked[0], r.id(), "its prev_hash is not the previous row's chain_hash: a row"
                        + " before it was deleted, inserted or moved");
                return false;
            }
            AuditKey rowKey = r.id() <= legacyRows ? null : key;
            byte[] bound = mark != null && r.id() == mark.boundFrom() ? mark.binding() : null;
            if (!ChainRows.chainHash(rowKey, r.prevHash(), bound, r.id(), r.occurredAt(), r.entry()).equals(r.chainHash())) {
                bad[0] = VerifyResult.broken(checked[0], r.id(), "its content does not match its chain_hash: the row was"
                        + " altered or forged, or the chain was recomputed without the key");
                return false;
            }
            for (Claim c : claims.getOrDefault(r.id(), List.of())) {
                if (!c.hash().equals(r.chainHash())) {
                    bad[0] = VerifyResult.broken(checked[0], r.id(), "its chain_hash is not the one " + c.where()
                            + " recorded for row " + r.id() + ": the log was truncated and appended to again (ids reused),"
                            + " rewritten or rolled back from here");
                    return false;
                }
            }
            String call = r.entry().caller() + "\u0000" + r.entry().tool() + "\u0000" + r.entry().argsHash() + "\u0000"
                    + r.entry().sqlFingerprint();
            if (r.entry().phase() == AuditEntry.Phase.STARTED) {
                started.computeIfAbsent(call, k -> new ArrayDeque<>()).add(r.id());
            } else if (r.entry().phase() == AuditEntry.Phase.COMPLETED) {
                Deque<Long> open = started.get(call);
                if (open != null) {
                    open.poll();
                }
            }
            prev[0] = r.chainHash();
            next[0]++;
            return true;
        });
        if (interrupted[0]) {
            throw new AuditException("Verifying the audit log was interrupted after " + checked[0] + " rows.", null);
        }
        if (bad[0] != null) {
            return bad[0];
        }
        long rows = next[0] - 1;
        Map.Entry<Long, List<Claim>> ahead = claims.higherEntry(rows);
        if (ahead != null) {
            return VerifyResult.broken(checked[0], "the log ends at row " + rows + " but " + ahead.getValue().get(0).where()
                    + " says it held " + ahead.getKey() + " rows: rows were removed from its end, or the file was rolled"
                    + " back to an older copy");
        }
        List<Long> open = started.values().stream().flatMap(Deque::stream).sorted().toList();
        for (Long id : open) {
            warnings.add("row " + id + " started a metric query but no completed row follows: the server was stopped or"
                    + " could not record the outcome; this is not tampering");
        }
        return VerifyResult.intact(checked[0], warnings);
    }

    private static void claim(TreeMap<Long, List<Claim>> claims, Head head, String where) {
        claims.computeIfAbsent(head.count(), k -> new ArrayList<>()).add(new Claim(where, head.hash()));
    }

    private static Optional<Witness> storeWitness(AuditLog log) throws AuditException {
        try {
            return log.storedWitness().map(ChainWitnesses::toWitness);
        } catch (StoreException e) {
            throw new AuditException(e.getMessage(), e);
        }
    }

    /** A sentence as a clause: without its final period. */
    private static String clause(String sentence) {
        return sentence.endsWith(".") ? sentence.substring(0, sentence.length() - 1) : sentence;
    }
}
