package dev.schemabrain.audit;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * What one audit row says about a call. Nullable: sourceId, caller, errorKind, argsHash,
 * sqlFingerprint, rowCount, durationMs.
 *
 * @param phase         a whole call, or the row before a metric's SQL leaves and the one after it
 * @param piiCategories a refusal's blocked categories, or what a metric touched
 * @param role          the caller's role under the access policy; null without a policy or a role
 * @param rowFilters    the role's row filters the statement carried ({@code entity.column}); empty for none
 */
public record AuditEntry(String sourceId, String caller, String tool, Phase phase, String status, String errorKind,
                         List<String> piiCategories, String argsHash, String sqlFingerprint, Long rowCount,
                         Long durationMs, String role, List<String> rowFilters) {

    /** A row without a role: as every row was before access policies. */
    public AuditEntry(String sourceId, String caller, String tool, Phase phase, String status, String errorKind,
                      List<String> piiCategories, String argsHash, String sqlFingerprint, Long rowCount, Long durationMs) {
        this(sourceId, caller, tool, phase, status, errorKind, piiCategories, argsHash, sqlFingerprint, rowCount,
                durationMs, null, List.of());
    }

    /** This row with the caller's role and the row filters its statement carried. */
    public AuditEntry withRole(String role, List<String> rowFilters) {
        return new AuditEntry(sourceId, caller, tool, phase, status, errorKind, piiCategories, argsHash, sqlFingerprint,
                rowCount, durationMs, role, rowFilters);
    }

    public enum Phase {
        CALL, STARTED, COMPLETED;

        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static Phase fromWireName(String name) {
            return valueOf(name.toUpperCase(Locale.ROOT));
        }
    }

    public AuditEntry {
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(phase, "phase");
        Objects.requireNonNull(status, "status");
        piiCategories = piiCategories == null ? List.of() : List.copyOf(piiCategories);
        rowFilters = rowFilters == null ? List.of() : List.copyOf(rowFilters);
    }
}
