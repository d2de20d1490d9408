package dev.schemabrain.semantic.model;

import java.util.List;
import java.util.Optional;

/** Entities, joins and metrics of one source, each list sorted by name. */
public record SemanticModel(List<Entity> entities, List<Join> joins, List<Metric> metrics) {

    public static final SemanticModel EMPTY = new SemanticModel(List.of(), List.of(), List.of());

    public SemanticModel {
        entities = entities.stream().sorted(java.util.Comparator.comparing(Entity::name)).toList();
        joins = joins.stream().sorted(java.util.Comparator.comparing(Join::name)).toList();
        metrics = metrics.stream().sorted(java.util.Comparator.comparing(Metric::name)).toList();
    }

    public Optional<Entity> entity(String name) {
        return entities.stream().filter(e -> e.name().equals(name)).findFirst();
    }

    public Optional<Join> join(String name) {
        return joins.stream().filter(j -> j.name().equals(name)).findFirst();
    }

    public Optional<Metric> metric(String name) {
        return metrics.stream().filter(m -> m.name().equals(name)).findFirst();
    }

    public boolean isEmpty() {
        return entities.isEmpty() && joins.isEmpty() && metrics.isEmpty();
    }
}
