package dev.schemabrain.access;

import dev.schemabrain.catalog.QualifiedName;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * One role of the policy file.
 *
 * @param allow        the tables it may reach; nothing else is visible
 * @param metrics      the metrics it may call; empty means every metric over allowed tables
 * @param rowFilters   ANDed into every statement reaching their entity
 * @param piiClearance PII categories (wire names) shown in clear for this role
 * @param minGroupSize overrides the server's small-cell K for this role (never below the server's)
 * @param metricRate   the role's get_metric rate ("60/min"), overriding the server's
 * @param reviewer     whether a caller whose credential carries this role may sign in to the console and review
 */
public record Role(String name, List<TablePattern> allow, Optional<Set<String>> metrics, List<RowFilter> rowFilters,
                   Set<String> piiClearance, OptionalInt minGroupSize, Optional<String> metricRate, boolean reviewer) {

    public Role {
        allow = List.copyOf(allow);
        metrics = metrics.map(Set::copyOf);
        rowFilters = List.copyOf(rowFilters);
        piiClearance = Set.copyOf(piiClearance);
    }

    /** A role that does not review. */
    public Role(String name, List<TablePattern> allow, Optional<Set<String>> metrics, List<RowFilter> rowFilters,
                Set<String> piiClearance, OptionalInt minGroupSize, Optional<String> metricRate) {
        this(name, allow, metrics, rowFilters, piiClearance, minGroupSize, metricRate, false);
    }

    public boolean allows(QualifiedName table) {
        return allow.stream().anyMatch(p -> p.matches(table));
    }
}
