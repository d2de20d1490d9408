package dev.schemabrain.policy;

import dev.schemabrain.access.Access;
import dev.schemabrain.access.AccessPolicy;
import dev.schemabrain.access.BoundRowFilter;
import dev.schemabrain.access.Caller;
import dev.schemabrain.access.Role;
import dev.schemabrain.access.RowFilter;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.semantic.model.Metric;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What a caller reaches under the access policy, as {@code policy explain} prints it and the console's roles page
 * shows it: computed once here so the two never disagree.
 *
 * @param denial        why the caller reaches nothing (no role, an unknown role), or empty
 * @param role          the role resolved, when there is no denial
 * @param tables        the store's tables the role sees, sorted; empty without a store
 * @param tableCount    how many tables the store has
 * @param metrics       the store's metrics the role sees by their entity's table; empty without a store
 * @param metricCount   how many metrics the store has
 * @param rowFilters    the role's row filters bound to the caller's claims
 * @param missingClaims row filters whose claim the caller lacks: every call reaching their entity is refused
 */
public record RoleReach(Optional<String> denial, Optional<Role> role, Optional<List<String>> tables, int tableCount,
                        Optional<List<String>> metrics, int metricCount, List<BoundRowFilter> rowFilters,
                        List<RowFilter> missingClaims) {

    /** @param stored the store's index and semantic layer, to list tables and metrics; empty without a store */
    public static RoleReach of(AccessPolicy policy, Caller caller, Optional<PiiPolicyStore.Stored> stored) {
        Access access = policy.resolve(caller);
        if (access.denial().isPresent()) {
            return new RoleReach(access.denial(), Optional.empty(), Optional.empty(), 0, Optional.empty(), 0, List.of(), List.of());
        }
        Role r = policy.roles().get(access.role().orElseThrow());
        if (stored.isEmpty()) {
            return new RoleReach(Optional.empty(), Optional.of(r), Optional.empty(), 0, Optional.empty(), 0,
                    access.rowFilters(), access.missingClaims());
        }
        PiiPolicyStore.Stored s = stored.get();
        List<String> tables = s.catalog().tables().stream().map(Table::name).filter(access::sees).map(Object::toString)
                .sorted().toList();
        List<String> metrics = new ArrayList<>();
        for (Metric m : s.metrics()) {
            Table table = s.entities().get(m.entity());
            if (table != null && access.seesMetric(m.name(), List.of(table.name()))) {
                metrics.add(m.name());
            }
        }
        return new RoleReach(Optional.empty(), Optional.of(r), Optional.of(tables), s.catalog().tables().size(),
                Optional.of(List.copyOf(metrics)), s.metrics().size(), access.rowFilters(), access.missingClaims());
    }
}
