package dev.schemabrain.semantic.model;

import dev.schemabrain.catalog.InferenceMethod;
import dev.schemabrain.catalog.ValidationState;

import java.util.Objects;

/** Where a semantic object came from and how far it has been validated: two axes. */
public record Origin(InferenceMethod method, ValidationState state) {

    public static final Origin HEURISTIC_DRAFT = new Origin(InferenceMethod.HEURISTIC, ValidationState.DRAFT);
    public static final Origin FOREIGN_KEY = new Origin(InferenceMethod.FK_CONSTRAINT, ValidationState.APPLIED);
    /** A many-to-many bridge: built from two foreign keys, but that the link table is one is a guess. */
    public static final Origin BRIDGE_DRAFT = new Origin(InferenceMethod.FK_CONSTRAINT, ValidationState.DRAFT);
    public static final Origin AUTHORED = new Origin(InferenceMethod.MANUALLY_AUTHORED, ValidationState.APPLIED);
    public static final Origin DBT = new Origin(InferenceMethod.DBT_IMPORT, ValidationState.APPLIED);

    public Origin {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(state, "state");
    }

    /**
     * Inferred (at index time, or from the query log at mine time) and not confirmed: re-inference may replace it;
     * anything else is the operator's.
     */
    public boolean inferred() {
        return state != ValidationState.CONFIRMED && state != ValidationState.REJECTED
                && (method == InferenceMethod.HEURISTIC || method == InferenceMethod.FK_CONSTRAINT
                || method == InferenceMethod.OBSERVED_IN_QUERY_LOG);
    }

    /**
     * The operator's through {@code apply}: an object they wrote or changed, or one they confirmed. The project
     * holds these, so an apply without its file removes it.
     */
    public boolean reviewed() {
        return method == InferenceMethod.MANUALLY_AUTHORED || state == ValidationState.CONFIRMED;
    }

    /** Rejected by a reviewer: kept in the store so no index drafts it again, and never served. */
    public boolean rejected() {
        return state == ValidationState.REJECTED;
    }

    /** This origin, rejected by a reviewer. */
    public Origin asRejected() {
        return new Origin(method, ValidationState.REJECTED);
    }

    /** This origin, confirmed by the operator. */
    public Origin confirmed() {
        return new Origin(method, ValidationState.CONFIRMED);
    }
}
