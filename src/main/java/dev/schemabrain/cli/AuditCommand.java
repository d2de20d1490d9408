package dev.schemabrain.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schemabrain.audit.AuditEntry;
import dev.schemabrain.audit.AuditException;
import dev.schemabrain.audit.AuditLog;
import dev.schemabrain.audit.AuditRecord;
import dev.schemabrain.audit.VerifyResult;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.List;
import java.util.OptionalLong;

/** {@code schemabrain audit verify|list}: the hash-chained audit log of every tool call (SPEC §9.2). */
@Command(name = "audit", mixinStandardHelpOptions = true,
        description = "The audit log: one hash-chained row per tool call, and one before each metric query's SQL leaves.")
final class AuditCommand extends CommandGroup {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Command(name = "verify", mixinStandardHelpOptions = true,
            description = "Recompute the chain. Exit 0 intact, 1 tampered (naming the first bad row), 2 on error.")
    int verify(@Option(names = "--since", paramLabel = "ID", description = "Start at this row id.") Long since) {
        VerifyResult result;
        try (AuditLog log = open()) {
            result = log.verify(since == null ? OptionalLong.empty() : OptionalLong.of(since));
        } catch (AuditException e) {
            throw new UserError(e.getMessage());
        }
        if (result.intact()) {
            System.out.println("audit chain intact: " + result.rowsChecked() + " rows verified");
            return 0;
        }
        System.out.println("audit chain broken at row " + result.firstBadId().getAsLong() + ": " + result.problem() + ".");
        return 1;
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "The newest audit rows, oldest first.")
    int list(@Option(names = "--json", description = "One JSON array of rows.") boolean json,
             @Option(names = "--limit", defaultValue = "50", paramLabel = "N", description = "At most N rows (default: ${DEFAULT-VALUE}).") int limit,
             @Option(names = "--since", paramLabel = "ID", description = "Only rows from this id on.") Long since) {
        if (limit < 1) {
            throw new UserError("--limit must be at least 1.");
        }
        List<AuditRecord> rows;
        try (AuditLog log = open()) {
            rows = log.list(limit, since == null ? OptionalLong.empty() : OptionalLong.of(since));
        } catch (AuditException e) {
            throw new UserError(e.getMessage());
        }
        if (json) {
            ArrayNode out = JSON.createArrayNode();
            rows.forEach(r -> out.add(json(r)));
            System.out.println(out);
            return 0;
        }
        if (rows.isEmpty()) {
            System.out.println("The audit log is empty: no tool has been called on this store yet.");
            return 0;
        }
        for (AuditRecord r : rows) {
            AuditEntry e = r.entry();
            System.out.printf("%6d %s %-24s %-9s %-8s %-22s %-14s %s%n", r.id(), r.occurredAt(), e.tool(), e.phase().wireName(),
                    e.status(), e.errorKind() == null ? "-" : e.errorKind(),
                    e.piiCategories().isEmpty() ? "-" : String.join(",", e.piiCategories()),
                    e.caller() == null ? "-" : e.caller());
        }
        return 0;
    }

    private AuditLog open() throws AuditException {
        return AuditLog.openExisting(main.store);
    }

    private static ObjectNode json(AuditRecord r) {
        AuditEntry e = r.entry();
        ObjectNode o = JSON.createObjectNode()
                .put("id", r.id())
                .put("occurred_at", r.occurredAt())
                .put("source_id", e.sourceId())
                .put("caller", e.caller())
                .put("tool", e.tool())
                .put("phase", e.phase().wireName())
                .put("status", e.status())
                .put("error_kind", e.errorKind());
        ArrayNode pii = o.putArray("pii_categories");
        e.piiCategories().forEach(pii::add);
        return o.put("args_hash", e.argsHash())
                .put("sql_fingerprint", e.sqlFingerprint())
                .put("row_count", e.rowCount())
                .put("duration_ms", e.durationMs())
                .put("prev_hash", r.prevHash())
                .put("chain_hash", r.chainHash());
    }
}
