package dev.schemabrain.mcp.tools;

import dev.schemabrain.access.Access;
import dev.schemabrain.access.BoundRowFilter;
import dev.schemabrain.access.RowFilter;
import dev.schemabrain.engine.Engines;
import dev.schemabrain.error.ErrorKind;
import dev.schemabrain.semantic.compile.CompileException;
import dev.schemabrain.semantic.compile.MetricCompiler;
import dev.schemabrain.semantic.compile.MetricRequest;
import dev.schemabrain.semantic.compile.RowScope;
import dev.schemabrain.semantic.model.Filter;
import dev.schemabrain.semantic.model.FilterOp;

import java.util.ArrayList;
import java.util.List;

/**
 * A caller's row filters as the metric compiler applies them (SPEC §11.4): each bound to the caller's claim as a
 * parameter, ANDed into every aggregate whose rows reach its entity ({@link RowScope}); one whose claim the credential
 * lacks refuses every such request (policy_blocked: the request is fine, the credential is not).
 */
final class RowScopes {

    private RowScopes() {
    }

    /** @param access this call's caller (its claims are its own; a view is shared by every caller of a role) */
    static List<RowScope> of(Access access) {
        List<RowScope> scopes = new ArrayList<>();
        for (BoundRowFilter bound : access.rowFilters()) {
            RowFilter f = bound.filter();
            String reference = f.entity() + "." + column(f);
            Filter filter = f.op() == RowFilter.Op.IN ? new Filter(reference, FilterOp.IN, List.copyOf(bound.values()))
                    : new Filter(reference, FilterOp.EQ, bound.values().get(0));
            scopes.add(RowScope.applied(reference, f.entity(), filter));
        }
        for (RowFilter f : access.missingClaims()) {
            scopes.add(RowScope.refused(f.entity() + "." + column(f), f.entity(), "the credential carries no " + f.claim()
                    + " claim, which it needs; ask the operator for a credential that has it."));
        }
        return scopes;
    }

    /**
     * Refuses a request that reaches, in the whole catalog, the entity of a row filter the caller's view lacks: the
     * filter cannot be ANDed into a statement that cannot name its table, and the rows must not go unfiltered.
     */
    static void checkUnseen(Access access, ServedCatalog served, MetricRequest request) throws CompileException {
        List<RowScope> unseen = new ArrayList<>();
        for (RowScope s : of(access)) {
            if (served.whole().semantic().entity(s.entity()).isEmpty()) {
                // A filter on no entity would limit nothing: the policy is wrong, and the rows must not go unfiltered.
                throw new CompileException(ErrorKind.POLICY_BLOCKED, "This caller's role has a row"
                        + " filter on " + s.entity() + ", which is no entity of the semantic layer, so no statement can be"
                        + " limited by it; the operator must fix that row filter of the access policy.", List.of());
            }
            if (served.semantic().entity(s.entity()).isEmpty()) {
                unseen.add(RowScope.refused(s.label(), s.entity(), "the role cannot see the"
                        + " table that filter is on, so it cannot be applied; the operator must allow that table to the role."));
            }
        }
        if (unseen.isEmpty()) {
            return;
        }
        ServedCatalog whole = served.whole();
        try {
            new MetricCompiler(whole.catalog(), whole.semantic(), unseen).compile(request, Engines.POSTGRESQL);
        } catch (CompileException e) {
            if (e.problem() == ErrorKind.POLICY_BLOCKED) {
                throw e;
            }
        }
    }

    /** The column of {@code table.column} (or a bare column). */
    private static String column(RowFilter f) {
        return f.column().substring(f.column().lastIndexOf('.') + 1);
    }
}
