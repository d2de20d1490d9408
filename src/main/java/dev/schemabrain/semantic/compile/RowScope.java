package dev.schemabrain.semantic.compile;

import dev.schemabrain.semantic.model.Filter;

import java.util.Objects;

/**
 * An access role's row filter as the compiler applies it: ANDed, as bound parameters, into every simple
 * aggregate whose rows reach {@code entity}. Rows reach an entity when it is the aggregate's own, when a chain of
 * many-to-one joins leads to it (an invoice belongs to one customer), when the request joins it anyway (a group_by
 * or filter on its columns), or when the statement's join path passes through an entity whose rows reach it. {@code filter} is null when it cannot be applied (the caller's credential lacks its
 * claim): a request reaching the entity is then refused with {@code refusal}.
 *
 * @param label   how the audit row names it ({@code entity.column})
 * @param refusal why a request reaching the entity is refused when {@code filter} is null: a sentence saying what to do
 */
public record RowScope(String label, String entity, Filter filter, String refusal) {

    public RowScope {
        Objects.requireNonNull(label, "label");
        Objects.requireNonNull(entity, "entity");
        if ((filter == null) == (refusal == null)) {
            throw new IllegalArgumentException("a row scope has a filter or a refusal, not both");
        }
    }

    public static RowScope applied(String label, String entity, Filter filter) {
        return new RowScope(label, entity, filter, null);
    }

    public static RowScope refused(String label, String entity, String refusal) {
        return new RowScope(label, entity, null, refusal);
    }

    public boolean missing() {
        return filter == null;
    }
}
