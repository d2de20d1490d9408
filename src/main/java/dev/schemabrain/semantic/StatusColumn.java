package dev.schemabrain.semantic;

import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.semantic.model.Entity;
import dev.schemabrain.semantic.model.SemanticModel;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The status column of an entity's rows and the values it is known to hold, so an answer can say which statuses it
 * counted ({@link RowSignals} picks the column).
 *
 * @param reference {@code entity.column}
 * @param values    its values as declared or indexed, empty when unknown
 */
public record StatusColumn(String reference, List<String> values) {

    public StatusColumn {
        values = List.copyOf(values);
    }

    public static Optional<StatusColumn> of(SemanticModel model, Function<QualifiedName, Optional<Table>> tables, String entity) {
        return model.entity(entity).map(Entity::table).flatMap(tables)
                .flatMap(t -> RowSignals.of(entity, t).status())
                .map(s -> new StatusColumn(s.reference(), s.values()));
    }
}
