package dev.schemabrain.semantic.model;

import java.util.List;
import java.util.Objects;

/**
 * A named, canonical way to join two entities. {@code on} pairs a source-entity column with
 * a target-entity column; a join through a link table has {@code bridge} instead and an empty
 * {@code on}.
 */
public record Join(String name, String sourceEntity, String targetEntity, List<ColumnPair> on, Bridge bridge,
                   Cardinality cardinality, Origin origin) {

    public Join {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(sourceEntity, "sourceEntity");
        Objects.requireNonNull(targetEntity, "targetEntity");
        Objects.requireNonNull(cardinality, "cardinality");
        Objects.requireNonNull(origin, "origin");
        on = List.copyOf(on);
        if (on.isEmpty() == (bridge == null)) {
            throw new IllegalArgumentException("join " + name + " needs either on columns or a bridge, not both");
        }
    }

    public boolean connects(String entity) {
        return sourceEntity.equals(entity) || targetEntity.equals(entity);
    }

    /** The entity at the other end from {@code entity}. */
    public String other(String entity) {
        return sourceEntity.equals(entity) ? targetEntity : sourceEntity;
    }

    /** The same join, from another origin. */
    public Join withOrigin(Origin origin) {
        return new Join(name, sourceEntity, targetEntity, on, bridge, cardinality, origin);
    }
}
