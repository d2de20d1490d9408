package dev.schemabrain.semantic.model;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Entities, joins and metrics of one source, each list sorted by name. Immutable; lookups by name and the
 * joins touching an entity come from an index built on first use, because draft inference and the served
 * catalog walk them per entity (at 100,000 tables a linear search per step took minutes).
 */
public final class SemanticModel {

    public static final SemanticModel EMPTY = new SemanticModel(List.of(), List.of(), List.of());

    private final List<Entity> entities;
    private final List<Join> joins;
    private final List<Metric> metrics;
    /** Who reviewed each reviewed metric, by name; bookkeeping beside the definitions, so not part of equality. */
    private final Map<String, MetricReview> reviews;
    private volatile Index index;

    /** The first of equal names wins, as a search of the sorted lists would find. */
    private record Index(Map<String, Entity> entities, Map<String, Join> joins, Map<String, Metric> metrics,
                         Map<String, List<Join>> joinsByEntity) {

        static Index of(SemanticModel m) {
            Map<String, Entity> entities = new HashMap<>();
            m.entities.forEach(e -> entities.putIfAbsent(e.name(), e));
            Map<String, Join> joins = new HashMap<>();
            Map<String, List<Join>> byEntity = new HashMap<>();
            for (Join j : m.joins) {
                joins.putIfAbsent(j.name(), j);
                byEntity.computeIfAbsent(j.sourceEntity(), k -> new ArrayList<>()).add(j);
                if (!j.targetEntity().equals(j.sourceEntity())) {
                    byEntity.computeIfAbsent(j.targetEntity(), k -> new ArrayList<>()).add(j);
                }
            }
            byEntity.replaceAll((k, v) -> List.copyOf(v));
            Map<String, Metric> metrics = new HashMap<>();
            m.metrics.forEach(x -> metrics.putIfAbsent(x.name(), x));
            return new Index(entities, joins, metrics, byEntity);
        }
    }

    public SemanticModel(List<Entity> entities, List<Join> joins, List<Metric> metrics) {
        this(entities, joins, metrics, Map.of());
    }

    /** @param reviews the review of each metric the operator confirmed or authored, by metric name */
    public SemanticModel(List<Entity> entities, List<Join> joins, List<Metric> metrics, Map<String, MetricReview> reviews) {
        this.reviews = Map.copyOf(reviews);
        this.entities = entities.stream().sorted(Comparator.comparing(Entity::name)).toList();
        this.joins = joins.stream().sorted(Comparator.comparing(Join::name)).toList();
        this.metrics = metrics.stream().sorted(Comparator.comparing(Metric::name)).toList();
    }

    public List<Entity> entities() {
        return entities;
    }

    public List<Join> joins() {
        return joins;
    }

    public List<Metric> metrics() {
        return metrics;
    }

    private Index index() {
        Index i = index;
        if (i == null) {
            i = Index.of(this);
            index = i;   // a race builds the same index twice, never a wrong one
        }
        return i;
    }

    public Optional<Entity> entity(String name) {
        return Optional.ofNullable(index().entities().get(name));
    }

    public Optional<Join> join(String name) {
        return Optional.ofNullable(index().joins().get(name));
    }

    public Optional<Metric> metric(String name) {
        return Optional.ofNullable(index().metrics().get(name));
    }

    /** Who reviewed the metric {@code name} and when; empty for a draft, an import, or a metric this model lacks. */
    public Optional<MetricReview> review(String name) {
        return metric(name).isPresent() ? Optional.ofNullable(reviews.get(name)) : Optional.empty();
    }

    /** Every metric's review, by name, for a model cut from this one. */
    public Map<String, MetricReview> reviews() {
        return reviews;
    }

    /** The joins with {@code entity} at either end, sorted by name. */
    public List<Join> joinsOf(String entity) {
        return index().joinsByEntity().getOrDefault(entity, List.of());
    }

    public boolean isEmpty() {
        return entities.isEmpty() && joins.isEmpty() && metrics.isEmpty();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SemanticModel m && entities.equals(m.entities) && joins.equals(m.joins) && metrics.equals(m.metrics);
    }

    @Override
    public int hashCode() {
        return Objects.hash(entities, joins, metrics);
    }

    @Override
    public String toString() {
        return "SemanticModel[entities=" + entities + ", joins=" + joins + ", metrics=" + metrics + "]";
    }
}
