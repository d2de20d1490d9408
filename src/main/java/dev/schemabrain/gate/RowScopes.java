package dev.schemabrain.gate;

import dev.schemabrain.served.ServedCatalog;
import dev.schemabrain.access.Access;
import dev.schemabrain.access.BoundRowFilter;
import dev.schemabrain.access.RowFilter;
import dev.schemabrain.engine.Dialect;
import dev.schemabrain.error.ErrorKind;
import dev.schemabrain.semantic.compile.CompileException;
import dev.schemabrain.semantic.compile.CompiledMetric;
import dev.schemabrain.semantic.compile.MetricCompiler;
import dev.schemabrain.semantic.compile.MetricRequest;
import dev.schemabrain.semantic.compile.RowScope;
import dev.schemabrain.semantic.model.Entity;
import dev.schemabrain.semantic.model.Filter;
import dev.schemabrain.semantic.model.FilterOp;
import dev.schemabrain.semantic.model.SemanticModel;

import java.util.ArrayList;
import java.util.List;

/**
 * A caller's row filters as the metric compiler applies them: each bound to the caller's claim as a
 * parameter, ANDed into every aggregate whose rows reach its entity ({@link RowScope}); one whose claim the credential
 * lacks refuses every such request (policy_blocked: the request is fine, the credential is not).
 */
final class RowScopes {

    private RowScopes() {
    }

    /**
     * The caller's row filters as the compiler applies them, checked against the whole semantic layer: a filter on
     * no entity, or whose column's table is not its entity's table, is a policy error that refuses (the rows must
     * not go unfiltered, nor filtered by another column than the operator wrote). A filter holds for every entity
     * over its entity's table: a second entity on the same table is the same rows.
     *
     * @param access this call's caller (its claims are its own; a view is shared by every caller of a role)
     */
    static List<RowScope> of(Access access, SemanticModel whole) throws CompileException {
        List<RowScope> scopes = new ArrayList<>();
        for (BoundRowFilter bound : access.rowFilters()) {
            RowFilter f = bound.filter();
            for (Entity e : sameRows(f, whole)) {
                String reference = e.name() + "." + column(f);
                Filter filter = f.op() == RowFilter.Op.IN ? new Filter(reference, FilterOp.IN, List.copyOf(bound.values()))
                        : new Filter(reference, FilterOp.EQ, bound.values().get(0));
                scopes.add(RowScope.applied(label(f), e.name(), filter));
            }
        }
        for (RowFilter f : access.missingClaims()) {
            for (Entity e : sameRows(f, whole)) {
                scopes.add(RowScope.refused(label(f), e.name(), "the credential carries no usable " + f.claim()
                        + " claim, which it needs; ask the operator for a credential that has it."));
            }
        }
        return scopes;
    }

    /** The filter's entity and every other entity over its table; refuses a filter that cannot mean what it says. */
    private static List<Entity> sameRows(RowFilter f, SemanticModel whole) throws CompileException {
        Entity entity = whole.entity(f.entity()).orElseThrow(() -> new CompileException(ErrorKind.POLICY_BLOCKED,
                "This caller's role has a row filter on no entity of the semantic layer, so no statement can be limited"
                        + " by it; the operator must fix that row filter of the access policy ('policy explain' shows it).",
                List.of()));
        int dot = f.column().lastIndexOf('.');
        if (dot > 0 && !f.column().substring(0, dot).equalsIgnoreCase(entity.table().table())
                && !f.column().substring(0, dot).equalsIgnoreCase(entity.name())) {
            // The names stay out of the answer: they may be hidden from the role; 'policy explain' shows them.
            throw new CompileException(ErrorKind.POLICY_BLOCKED, "This caller's role has a row filter whose column is"
                    + " not on its entity's table, so it cannot mean what it says; the operator must fix that row filter"
                    + " of the access policy ('policy explain' shows it).", List.of());
        }
        return whole.entities().stream().filter(e -> e.table().equals(entity.table())).toList();
    }

    /**
     * Refuses an answer whose rows, in the whole semantic layer, reach a row filter's entity that the caller's view
     * did not filter by: the view can lack the table in between (the filter would be silently dropped), or the
     * caller's {@code via} can move the filter onto another row of the same entity (a ticket's user's organisation
     * instead of the ticket's own). The whole layer's compile of the same request says which filters must apply.
     *
     * @param applied the filters the compile in the caller's view applied
     * @param dialect the engine the caller's compile was for
     */
    static void checkWhole(List<RowScope> scopes, ServedCatalog served, MetricRequest request, List<String> applied,
                           Dialect dialect) throws CompileException {
        if (scopes.isEmpty()) {
            return;
        }
        if (!request.via().isEmpty() && !applied.isEmpty()) {
            throw new CompileException(ErrorKind.POLICY_BLOCKED, "This caller's role limits these rows by a row filter,"
                    + " which holds along the metric's own join path; call again without via.", List.of());
        }
        ServedCatalog whole = served.whole();
        MetricCompiler compiler = new MetricCompiler(whole.catalog(), whole.semantic(), scopes);
        CompiledMetric compiled;
        try {
            compiled = compiler.compile(request, dialect);
        } catch (CompileException e) {
            if (e.problem() == ErrorKind.POLICY_BLOCKED) {
                throw e;
            }
            throw new CompileException(ErrorKind.POLICY_BLOCKED, "This caller's role limits rows by a row filter, and"
                    + " whether this request stays within it cannot be checked (" + e.getMessage() + "); ask without"
                    + " the part that needs it, or ask the operator to allow the tables in between.", List.of());
        }
        List<String> missed = compiled.rowFilters().stream().filter(l -> !applied.contains(l)).toList();
        if (!missed.isEmpty()) {
            // Not named: the filter's entity, or the tables in between, may be hidden from this role.
            throw new CompileException(ErrorKind.POLICY_BLOCKED, "This metric's rows are limited for this caller's role by"
                    + " a row filter that cannot be applied through the tables the role sees; the operator must allow"
                    + " the tables linking them to the role.", List.of());
        }
    }

    private static String label(RowFilter f) {
        return f.entity() + "." + column(f);
    }

    /** The column of {@code table.column} (or a bare column). */
    private static String column(RowFilter f) {
        return f.column().substring(f.column().lastIndexOf('.') + 1);
    }
}
