package dev.schemabrain.access;

import dev.schemabrain.catalog.QualifiedName;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * One caller's reach under the access policy, resolved once per call and consulted by every tool: which
 * tables and metrics it sees, the row filters bound from its claims, its PII clearance and limits. Without a
 * policy every caller is {@link #UNRESTRICTED}. Immutable.
 */
public final class Access {

    /** No access policy: every table, metric and row, as before roles existed. */
    public static final Access UNRESTRICTED = new Access(null, null, null, null);

    private final Caller caller;
    private final Role role;
    private final AccessPolicy policy;
    private final String denial;

    private Access(Caller caller, Role role, AccessPolicy policy, String denial) {
        this.caller = caller;
        this.role = role;
        this.policy = policy;
        this.denial = denial;
    }

    static Access of(Caller caller, Role role, AccessPolicy policy) {
        return new Access(caller, role, policy, null);
    }

    /** A caller that reaches nothing, for {@code reason} (fail closed). */
    static Access nothing(Caller caller, String reason) {
        return new Access(caller, null, null, reason);
    }

    /** Whether a policy applies at all. */
    public boolean restricted() {
        return this != UNRESTRICTED;
    }

    /** The role in force, for audit rows and answers; empty without a policy or without a role. */
    public Optional<String> role() {
        return Optional.ofNullable(role).map(Role::name);
    }

    /** Why this caller reaches nothing (no role, an unknown role); empty when it reaches something. */
    public Optional<String> denial() {
        return Optional.ofNullable(denial);
    }

    public boolean sees(QualifiedName table) {
        return !restricted() || (role != null && role.allows(table));
    }

    /** A metric is visible when the role lists it (or lists none) and every table it reaches is visible. */
    public boolean seesMetric(String metric, Collection<QualifiedName> reaches) {
        if (!restricted()) {
            return true;
        }
        if (role == null || role.metrics().map(m -> !m.contains(metric)).orElse(false)) {
            return false;
        }
        return reaches.stream().allMatch(this::sees);
    }

    /**
     * What would open {@code table} for this caller, without naming any table: the roles that allow it, or,
     * when none does, that the operator must add it to the role's allow list.
     */
    public String wideningHint(QualifiedName table) {
        if (!restricted()) {
            return "";
        }
        List<String> opening = new ArrayList<>();
        policy().ifPresent(p -> p.roles().values().stream().filter(r -> r.allows(table)).map(Role::name)
                .forEach(opening::add));
        String mine = role().map(r -> "role " + r).orElse("a role");
        if (opening.isEmpty()) {
            return table + " is outside every role of the access policy; the operator can add it to the allow list of "
                    + mine + ".";
        }
        return table + " is allowed to role" + (opening.size() == 1 ? " " : "s ") + String.join(", ", opening)
                + "; use a credential with " + (opening.size() == 1 ? "that role" : "one of them")
                + ", or ask the operator to add it to the allow list of " + mine + ".";
    }

    /**
     * What would open an entity or metric ({@code what}, as the caller named it) that reads {@code reaches}, naming
     * roles only and never a table: the caller named the object, not the tables behind it.
     *
     * @param metric the metric's name when {@code what} is one (a role's metric list must hold it too), else null
     */
    public String wideningHint(String what, Collection<QualifiedName> reaches, String metric) {
        if (!restricted()) {
            return "";
        }
        List<String> opening = new ArrayList<>();
        policy().ifPresent(p -> p.roles().values().stream()
                .filter(r -> reaches.stream().allMatch(r::allows))
                .filter(r -> metric == null || r.metrics().map(m -> m.contains(metric)).orElse(true))
                .map(Role::name).forEach(opening::add));
        String mine = role().map(r -> "role " + r).orElse("a role");
        if (opening.isEmpty()) {
            return what + " reads tables outside every role of the access policy; the operator can add them to the allow"
                    + " list of " + mine + ".";
        }
        return what + " is open to role" + (opening.size() == 1 ? " " : "s ") + String.join(", ", opening)
                + "; use a credential with " + (opening.size() == 1 ? "that role" : "one of them")
                + ", or ask the operator to widen the allow list of " + mine + ".";
    }

    /**
     * What decides which tables, entities and metrics this caller sees: callers with equal keys see the same
     * catalog, so a scoped view can be shared between them. Null without a policy.
     */
    public Object scopeKey() {
        return role == null ? null : Arrays.asList(role, policy);
    }

    /** The role's row filters with this caller's claim values; a filter whose claim is missing or empty is left out here. */
    public List<BoundRowFilter> rowFilters() {
        if (role == null) {
            return List.of();
        }
        List<BoundRowFilter> bound = new ArrayList<>();
        for (RowFilter f : role.rowFilters()) {
            List<String> values = values(f);
            if (!values.isEmpty()) {
                bound.add(new BoundRowFilter(f, values));
            }
        }
        return bound;
    }

    /**
     * Claims the role's row filters need and the credential lacks, or carries empty (an empty string, or a list
     * of nothing but commas): any one refuses a call reaching its entity, rather than binding {@code = ''}.
     */
    public List<RowFilter> missingClaims() {
        if (role == null) {
            return List.of();
        }
        return role.rowFilters().stream().filter(f -> values(f).isEmpty()).toList();
    }

    private List<String> values(RowFilter f) {
        String value = caller.claims().get(f.claim());
        if (value == null || value.isBlank()) {
            return List.of();
        }
        return f.op() == RowFilter.Op.IN
                ? Arrays.stream(value.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList()
                : List.of(value);
    }

    /** PII categories (wire names) this role sees in clear; none without a policy. */
    public Set<String> piiClearance() {
        return role == null ? Set.of() : role.piiClearance();
    }

    public OptionalInt minGroupSize() {
        return role == null ? OptionalInt.empty() : role.minGroupSize();
    }

    public Optional<String> metricRate() {
        return role == null ? Optional.empty() : role.metricRate();
    }

    private Optional<AccessPolicy> policy() {
        return Optional.ofNullable(policy);
    }
}
