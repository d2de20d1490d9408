package dev.schemabrain.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schemabrain.audit.AuditEntry;
import dev.schemabrain.audit.AuditKey;
import dev.schemabrain.audit.AuditLog;
import dev.schemabrain.audit.AuditRecord;
import dev.schemabrain.audit.AuditRotation;
import dev.schemabrain.audit.AuditVerifier;
import dev.schemabrain.audit.ClientText;
import dev.schemabrain.audit.Head;
import dev.schemabrain.audit.HeadPublisher;
import dev.schemabrain.audit.SqlFingerprint;
import dev.schemabrain.audit.Witness;
import dev.schemabrain.audit.VerifyResult;
import dev.schemabrain.audit.WitnessFile;
import dev.schemabrain.error.AuditException;
import dev.schemabrain.error.StoreException;
import dev.schemabrain.error.UserError;
import dev.schemabrain.store.StoreLocation;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/** {@code schemabrain audit verify|list|head}: the keyed, hash-chained audit log of every tool call. */
@Command(name = "audit", mixinStandardHelpOptions = true,
        description = "The audit log: one keyed, hash-chained row per tool call, and one before each metric query's SQL leaves.")
final class AuditCommand extends CommandGroup {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Command(name = "verify", mixinStandardHelpOptions = true,
            description = {"Check the key, the append-only triggers, the row ids, every row's HMAC and link, and every"
                    + " head kept outside the log (the store's witness, a witness file, --expect-head).",
                    "Exit 0 intact, 1 tampered or broken (naming the first bad row and what is wrong), 2 on error."})
    int verify(@Option(names = "--since", paramLabel = "ID", description = "Start recomputing at this row id.") Long since,
               @Option(names = "--audit-key", paramLabel = "FILE", description = "The key file (default: $" + AuditKey.ENV
                       + ", else the default key file serve uses).") Path keyFile,
               @Option(names = "--audit-witness", paramLabel = "FILE", description = "The witness file serve appended to"
                       + " (default: $" + WitnessFile.ENV + ").") Path witness,
               @Option(names = "--expect-head", paramLabel = "COUNT:HASH", description = "A head printed by 'audit head' and"
                       + " kept elsewhere: the log must still hold that row with that hash.") String expectHead)
            throws AuditException, UserError, StoreException {
        Optional<Head> expected = Optional.empty();
        if (expectHead != null) {
            expected = Head.parse(expectHead);
            if (expected.isEmpty()) {
                throw new UserError("--expect-head must be COUNT:HASH as 'schemabrain audit head' prints it (a row count, a"
                        + " colon and 64 hex digits).");
            }
        }
        VerifyResult result = AuditVerifier.verify(main.store(), new AuditVerifier.Options(key(keyFile),
                WitnessFile.configured(witness, main.env), expected,
                since == null ? OptionalLong.empty() : OptionalLong.of(since)));
        PrintWriter out = main.out();
        if (result.intact()) {
            out.println("audit chain intact: " + result.rowsChecked() + " rows verified");
            result.warnings().forEach(w -> out.println("warning: " + w + "."));
            return 0;
        }
        out.println(result.firstBadId().isPresent()
                ? "audit chain broken at row " + result.firstBadId().getAsLong() + ": " + result.problem() + "."
                : "audit chain broken: " + result.problem() + ".");
        return 1;
    }

    /** The key when one is configured; a log written without one verifies without it. */
    private Optional<AuditKey> key(Path keyFile) throws AuditException {
        if (keyFile == null && main.env.get(AuditKey.ENV) == null
                && !Files.exists(AuditKey.defaultFile(main.env))) {
            return Optional.empty();
        }
        return Optional.of(AuditKey.resolve(Optional.ofNullable(keyFile), main.env, false));
    }

    @Command(name = "rotate", mixinStandardHelpOptions = true,
            description = {"Archive the audit log (verified first) under a timestamped name, with the witness file if named,"
                    + " and clear the store's witness, so the next serve starts a new log. Stop the servers on this store first."})
    int rotate(@Option(names = "--audit-key", paramLabel = "FILE", description = "The key file (default: $" + AuditKey.ENV
                       + ", else the default key file serve uses).") Path keyFile,
               @Option(names = "--audit-witness", paramLabel = "FILE", description = "The witness file serve appended to;"
                       + " it is archived too.") Path witness,
               @Option(names = "--even-if-broken", description = "Archive a log that does not verify (keep the archive:"
                       + " it is evidence).") boolean evenIfBroken) throws AuditException, StoreException {
        if (main.store() instanceof StoreLocation.PostgresSchema) {
            throw new AuditException("A PostgreSQL store's audit chain is not rotated: its rows are never deleted, and every"
                    + " instance appends to it; keep 'schemabrain audit head' elsewhere instead (docs/deployment.md).", null);
        }
        AuditRotation.Archived a = AuditRotation.rotate(main.auditStore(), new AuditVerifier.Options(key(keyFile),
                WitnessFile.configured(witness, main.env), Optional.empty(), OptionalLong.empty()),
                evenIfBroken, Clock.systemUTC());
        main.out().println("archived the audit log (head " + a.head() + ", " + (a.verified().intact() ? "verified"
                : "NOT intact: " + a.verified().problem()) + ") to " + a.log()
                + a.witnessFile().map(w -> " and the witness file to " + w).orElse("")
                + "; keep the head elsewhere. The next serve starts a new log.");
        return 0;
    }

    @Command(name = "head", mixinStandardHelpOptions = true,
            description = {"Print the chain's head as COUNT:HASH; keep it elsewhere and check it later with verify --expect-head.",
                    "--publish TARGET (repeatable) verifies the log first, then sends the signed head to a witness file"
                            + " (the one verify reads: --audit-witness or $" + WitnessFile.ENV + "), syslog,"
                            + " syslog://HOST[:PORT] or an http(s):// sink: run it from cron so a rollback of store and log"
                            + " together is detected."})
    int head(@Option(names = "--publish", paramLabel = "TARGET", description = "A file, syslog, syslog://HOST[:PORT] or an"
                     + " http(s):// URL (POST of {head, mac, key_id}).") List<String> publish,
             @Option(names = "--audit-key", paramLabel = "FILE", description = "The key file, to sign a published head"
                     + " (default: $" + AuditKey.ENV + ", else the default key file serve uses).") Path keyFile,
             @Option(names = "--audit-witness", paramLabel = "FILE", description = "The witness file verify checks the log"
                     + " against before publishing (default: $" + WitnessFile.ENV + ").") Path witness)
            throws AuditException, StoreException {
        Head head;
        try (AuditLog log = AuditLog.openExisting(main.store())) {
            head = log.head();
        }
        main.out().println(head);
        if (publish == null || publish.isEmpty()) {
            return 0;
        }
        List<HeadPublisher.Target> targets = new ArrayList<>();
        for (String t : publish) {
            targets.add(HeadPublisher.parse(t));
        }
        AuditKey key = AuditKey.resolve(Optional.ofNullable(keyFile), main.env, false);
        // A head is only worth keeping elsewhere if the log up to it verifies: else it would vouch for tampering.
        // A witness file that does not exist yet is the one this first publish creates.
        VerifyResult verified = AuditVerifier.verify(main.store(), new AuditVerifier.Options(Optional.of(key),
                WitnessFile.configured(witness, main.env).filter(w -> Files.exists(w.path())),
                Optional.of(head), OptionalLong.empty()));
        if (!verified.intact()) {
            throw new AuditException("The audit log does not verify (" + verified.problem() + "), so its head is not"
                    + " published; run schemabrain audit verify and keep the log as evidence.", null);
        }
        Witness signed = Witness.sign(key, head);
        for (HeadPublisher.Target t : targets) {
            main.out().println("published head " + head + " to " + HeadPublisher.publish(t, signed, key.id()));
        }
        return 0;
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "The newest audit rows, oldest first.")
    int list(@Option(names = "--json", description = "One JSON array of rows.") boolean json,
             @Option(names = "--limit", defaultValue = "50", paramLabel = "N", description = "At most N rows (default: ${DEFAULT-VALUE}).") int limit,
             @Option(names = "--since", paramLabel = "ID", description = "Only rows from this id on.") Long since,
             @Option(names = "--fingerprint", paramLabel = "FP", description = "Only the rows of this statement: the"
                     + " sql_fingerprint a get_metric answer shows (rows keep it keyed, so this needs the audit key).") String fingerprint,
             @Option(names = "--audit-key", paramLabel = "FILE", description = "The key file, for --fingerprint (default: $"
                     + AuditKey.ENV + ", else the default key file serve uses).") Path keyFile,
             @Option(names = "--role", paramLabel = "ROLE", description = "Only the rows of callers with this role under"
                     + " the access policy (none: callers it gave nothing).") String role)
            throws AuditException, UserError, StoreException {
        if (limit < 1) {
            throw new UserError("--limit must be at least 1.");
        }
        // Rows of earlier builds kept the plain fingerprint; later ones its HMAC.
        List<String> fingerprints = fingerprint == null ? List.of() : List.of(fingerprint,
                SqlFingerprint.of(AuditKey.resolve(Optional.ofNullable(keyFile), main.env, false), fingerprint));
        List<AuditRecord> rows;
        try (AuditLog log = AuditLog.openExisting(main.store())) {
            rows = log.list(limit, since == null ? OptionalLong.empty() : OptionalLong.of(since), fingerprints,
                    Optional.ofNullable(role));
        }
        PrintWriter out = main.out();
        if (json) {
            ArrayNode array = JSON.createArrayNode();
            rows.forEach(r -> array.add(json(r)));
            out.println(array);
            return 0;
        }
        if (rows.isEmpty()) {
            out.println("The audit log is empty: no tool has been called on this store yet.");
            return 0;
        }
        // Client-chosen text is cleaned at print time too: rows written before it was cleaned on the way in.
        for (AuditRecord r : rows) {
            AuditEntry e = r.entry();
            out.printf("%6d %s %-24s %-9s %-8s %-22s %-14s %s%s%n", r.id(), ClientText.clean(r.occurredAt()),
                    ClientText.clean(e.tool()), e.phase().wireName(), ClientText.clean(e.status()),
                    e.errorKind() == null ? "-" : ClientText.clean(e.errorKind()),
                    e.piiCategories().isEmpty() ? "-" : ClientText.clean(String.join(",", e.piiCategories())),
                    e.caller() == null ? "-" : ClientText.clean(e.caller()),
                    e.role() == null ? "" : " role=" + ClientText.clean(e.role())
                            + (e.rowFilters().isEmpty() ? "" : " row_filters=" + ClientText.clean(String.join(",", e.rowFilters()))));
        }
        return 0;
    }

    private static ObjectNode json(AuditRecord r) {
        AuditEntry e = r.entry();
        ObjectNode o = JSON.createObjectNode()
                .put("id", r.id())
                .put("occurred_at", r.occurredAt())
                .put("source_id", e.sourceId())
                .put("caller", ClientText.clean(e.caller()))
                .put("tool", ClientText.clean(e.tool()))
                .put("phase", e.phase().wireName())
                .put("status", e.status())
                .put("error_kind", e.errorKind());
        ArrayNode pii = o.putArray("pii_categories");
        e.piiCategories().forEach(pii::add);
        o.put("role", e.role());
        ArrayNode filters = o.putArray("row_filters");
        e.rowFilters().forEach(filters::add);
        return o.put("args_hash", e.argsHash())
                .put("sql_fingerprint", e.sqlFingerprint())
                .put("row_count", e.rowCount())
                .put("duration_ms", e.durationMs())
                .put("prev_hash", r.prevHash())
                .put("chain_hash", r.chainHash());
    }
}
