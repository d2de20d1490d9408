package dev.schemabrain.gate;

import dev.schemabrain.served.ScopedView;
import dev.schemabrain.served.ServedCatalog;
import dev.schemabrain.access.Access;
import dev.schemabrain.catalog.NameSyntax;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.error.ErrorKind;
import dev.schemabrain.semantic.model.Entity;
import dev.schemabrain.semantic.model.Metric;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The refusal for a named object outside the caller's role, built once for every tool:
 * {@code allowlist_violation} with a widening hint saying which role or allow entry would open it.
 * <p>
 * A qualified table name ({@code schema.table}) outside the role's allow list is refused whether or not the table
 * exists, so the refusal tells nothing about what is indexed. A bare table name resolves among the visible tables
 * only (unknown_name otherwise): answering it from the hidden ones would name their schema. An entity or metric is
 * refused by the name the caller gave, and its hint names roles, never the tables behind it.
 */
public final class ViewRefusals {

    private ViewRefusals() {
    }

    private static final List<String> HINTS = List.of("list_indexed_schemas", "find_relevant_tables");

    /**
     * The refusal for {@code input}, a table ({@code tableParts} = 2, {@code schema.table}) or column ({@code 3},
     * {@code schema.table.column}) name whose table the caller's role does not allow; empty when it allows it, or
     * when the name is not qualified.
     */
    public static Optional<Refused> table(ServedCatalog served, String input, int qualifiedParts) {
        Access access = served.access();
        if (!access.restricted() || !(NameSyntax.parse(input, 1, 3) instanceof NameSyntax.Parts parsed)
                || parsed.parts().size() != qualifiedParts) {
            return Optional.empty();
        }
        QualifiedName table = QualifiedName.of(parsed.parts().get(0), parsed.parts().get(1));
        if (access.sees(table) || served.lookup().table(table).isPresent()) {
            return Optional.empty();
        }
        return Optional.of(refused("Table " + NameSyntax.render(table) + " is outside what this caller's "
                + role(access) + " may reach.", access.wideningHint(table), "list_indexed_schemas",
                HINTS));
    }

    /** The refusal for an entity the whole catalog has and this caller's view does not; empty otherwise. */
    public static Optional<Refused> entity(ServedCatalog served, String name) {
        if (!served.access().restricted() || served.semantic().entity(name).isPresent()) {
            return Optional.empty();
        }
        Optional<Entity> hidden = served.whole().semantic().entity(name);
        return hidden.map(e -> refused("Entity " + name + " is outside what this caller's " + role(served.access())
                        + " may reach.", served.access().wideningHint("Entity " + name, Set.of(e.table()), null),
                "list_entities", List.of("list_entities", "find_relevant_entities")));
    }

    /** The refusal for a metric the whole catalog has and this caller's view does not; empty otherwise. */
    public static Optional<Refused> metric(ServedCatalog served, String name) {
        if (!served.access().restricted() || served.semantic().metric(name).isPresent()) {
            return Optional.empty();
        }
        Optional<Metric> hidden = served.whole().semantic().metric(name);
        return hidden.map(m -> refused("Metric " + name + " is outside what this caller's " + role(served.access())
                        + " may reach.", served.access().wideningHint("Metric " + name,
                        ScopedView.reach(served.whole(), m), name),
                "list_metrics", List.of("list_metrics", "find_relevant_metrics")));
    }

    private static String role(Access access) {
        return access.role().map(r -> "role " + r).orElse("role");
    }

    private static Refused refused(String message, String hint, String tool, List<String> hints) {
        return new Refused(ErrorKind.ALLOWLIST_VIOLATION, message, tool, Map.of(), List.of(), null, hint, List.of(), hints);
    }
}
