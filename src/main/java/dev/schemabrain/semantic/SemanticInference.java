package dev.schemabrain.semantic;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.ForeignKey;
import dev.schemabrain.catalog.InferenceMethod;
import dev.schemabrain.catalog.NameSyntax;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.TypeClass;
import dev.schemabrain.semantic.model.Bridge;
import dev.schemabrain.semantic.model.Cardinality;
import dev.schemabrain.semantic.model.ColumnPair;
import dev.schemabrain.semantic.model.Entity;
import dev.schemabrain.semantic.model.Join;
import dev.schemabrain.semantic.model.Metric;
import dev.schemabrain.semantic.model.Origin;
import dev.schemabrain.semantic.model.Segment;
import dev.schemabrain.semantic.model.SemanticModel;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiPredicate;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Drafts a semantic model from the catalog at index time: an entity per non-junction table
 * with a primary key (and per link table that carries facts of its own, such as a quantity); a join per foreign key between two entities (fk_constraint, applied; cardinality
 * from the keys on the referencing side); a many-to-many bridge across each junction table; and
 * suggested metrics by meaning ({@link MetricDrafts}), each with the event time of its entity or of the entity its
 * rows belong to ({@link TimeAxis}). A pure function of the catalog.
 */
public final class SemanticInference {

    private static final Pattern NOT_AN_IDENTIFIER_CHARACTER = Pattern.compile("[^a-z0-9_]+");
    private static final int MAX_NAME = NameSyntax.MAX_PART_LENGTH;

    private final Function<QualifiedName, String> descriptions;

    /** @param descriptions a table's description for its entity, or null */
    public SemanticInference(Function<QualifiedName, String> descriptions) {
        this.descriptions = descriptions;
    }

    public SemanticModel infer(Catalog catalog) {
        return infer(catalog, List.of(), List.of(), (table, column) -> true);
    }

    /**
     * With the joins the query log showed: each becomes a join (observed_in_query_log) between its two entities
     * unless a foreign key already joins them, which always wins. With the filters the query log showed too: frequent ones on an entity's own table become draft segments of it
     * ({@link ObservedSegments}), and one on its status ENUM a filtered twin of each unfiltered draft metric
     * ({@link ObservedMetricFilters}).
     *
     * @param sensitive whether a column is PII-tagged or above internal sensitivity: never a segment
     */
    public SemanticModel infer(Catalog catalog, List<QueryLogJoin> observed, List<QueryLogFilter> filters,
                               BiPredicate<QualifiedName, String> sensitive) {
        Map<QualifiedName, Entity> entities = entities(catalog);
        List<Join> joins = new ArrayList<>();
        Set<String> joinNames = new HashSet<>();
        for (Table t : catalog.tables()) {
            if (t.isJunction()) {
                bridge(t, entities).ifPresent(j -> joins.add(unique(j, joinNames)));
                if (!carriesFacts(t)) {
                    continue;
                }
            }
            Entity source = entities.get(t.name());
            if (source == null) {
                continue;
            }
            for (ForeignKey fk : t.foreignKeys()) {
                Entity target = entities.get(fk.target());
                if (target == null || fk.target().equals(t.name())) {
                    continue;  // a self-reference would join an entity to itself: left to the operator
                }
                List<ColumnPair> on = new ArrayList<>();
                for (int i = 0; i < fk.columns().size(); i++) {
                    on.add(new ColumnPair(fk.columns().get(i), fk.targetColumns().get(i)));
                }
                Cardinality cardinality = t.isUnique(fk.columns()) ? Cardinality.ONE_TO_ONE : Cardinality.MANY_TO_ONE;
                String name = source.name() + "_" + target.name();
                joins.add(unique(new Join(name, source.name(), target.name(), on, null, cardinality, Origin.FOREIGN_KEY),
                        joinNames, fk.columns()));
            }
        }
        Set<List<String>> joined = new HashSet<>();
        joins.forEach(j -> joined.add(entityPair(j.sourceEntity(), j.targetEntity())));
        for (QueryLogJoin o : observed) {
            Entity source = entities.get(o.many());
            Entity target = entities.get(o.one());
            if (source == null || target == null || source == target || !joined.add(entityPair(source.name(), target.name()))) {
                continue;
            }
            List<ColumnPair> on = new ArrayList<>();
            for (int i = 0; i < o.manyColumns().size(); i++) {
                on.add(new ColumnPair(o.manyColumns().get(i), o.oneColumns().get(i)));
            }
            Table many = catalog.byName().get(o.many());
            Cardinality cardinality = many.isUnique(o.manyColumns()) ? Cardinality.ONE_TO_ONE : Cardinality.MANY_TO_ONE;
            joins.add(unique(new Join(source.name() + "_" + target.name(), source.name(), target.name(), on, null, cardinality,
                    new Origin(InferenceMethod.OBSERVED_IN_QUERY_LOG, o.state())), joinNames, o.manyColumns()));
        }
        SemanticModel structure = new SemanticModel(List.copyOf(entities.values()), joins, List.of());
        List<Metric> metrics = new ArrayList<>();
        List<Entity> drafted = new ArrayList<>();
        Map<QualifiedName, Table> tables = catalog.byName();
        for (Entity e : entities.values()) {
            MetricDrafts.Drafted d = MetricDrafts.of(e, tables.get(e.table()), TimeAxis.of(catalog, structure, e.name()), structure,
                    tables, entities);
            metrics.addAll(d.metrics());
            // Test and soft-deleted rows leave every metric of the entity through its default segment, which a caller can set aside.
            drafted.add(d.live().map(live -> new Entity(e.name(), e.description(), e.table(), e.identity(), e.group(), e.origin(),
                    List.of(live))).orElse(e));
        }
        if (filters.isEmpty()) {
            return new SemanticModel(drafted, joins, metrics);
        }
        Set<String> metricNames = new HashSet<>();
        metrics.forEach(m -> metricNames.add(m.name()));
        List<Entity> withObserved = new ArrayList<>();
        List<Metric> proposals = new ArrayList<>();
        for (Entity e : drafted) {
            Table t = tables.get(e.table());
            List<Segment> segments = new ArrayList<>(e.segments());
            segments.addAll(ObservedSegments.of(e, t, filters, sensitive));
            Entity observedOn = new Entity(e.name(), e.description(), e.table(), e.identity(), e.group(), e.origin(), segments);
            withObserved.add(observedOn);
            proposals.addAll(ObservedMetricFilters.of(observedOn, t,
                    metrics.stream().filter(m -> m.entity().equals(e.name())).toList(), metricNames));
        }
        metrics.addAll(proposals);
        return new SemanticModel(withObserved, joins, metrics);
    }

    private Map<QualifiedName, Entity> entities(Catalog catalog) {
        Map<String, Integer> tableNameCount = new HashMap<>();
        for (Table t : catalog.tables()) {
            tableNameCount.merge(identifier(t.name().table()), 1, Integer::sum);
        }
        Map<QualifiedName, Entity> entities = new LinkedHashMap<>();
        Set<String> taken = new HashSet<>();
        for (Table t : catalog.tables()) {
            if (t.primaryKey().isEmpty() || t.isJunction() && !carriesFacts(t)) {
                continue;
            }
            String base = identifier(t.name().table());
            // A table name found in several schemas takes its schema as prefix, so names stay unique.
            String name = tableNameCount.get(base) > 1 ? identifier(t.name().schema()) + "_" + base : base;
            String candidate = fit(name);
            for (int i = 2; !taken.add(candidate); i++) {
                candidate = fit(name + "_" + i);
            }
            String description = descriptions.apply(t.name());
            entities.put(t.name(), new Entity(candidate, description, t.name(), t.primaryKey(), t.name().schema(),
                    Origin.HEURISTIC_DRAFT));
        }
        return entities;
    }

    /** A many-to-many join between the first two entities a junction table references. */
    private static Optional<Join> bridge(Table junction, Map<QualifiedName, Entity> entities) {
        List<ForeignKey> keys = junction.foreignKeys().stream()
                .filter(fk -> entities.containsKey(fk.target()) && junction.primaryKey().containsAll(fk.columns()))
                .toList();
        if (keys.size() < 2 || keys.get(0).target().equals(keys.get(1).target())) {
            return Optional.empty();
        }
        ForeignKey a = keys.get(0);
        ForeignKey b = keys.get(1);
        List<ColumnPair> sourceOn = new ArrayList<>();
        for (int i = 0; i < a.columns().size(); i++) {
            sourceOn.add(new ColumnPair(a.targetColumns().get(i), a.columns().get(i)));
        }
        List<ColumnPair> targetOn = new ArrayList<>();
        for (int i = 0; i < b.columns().size(); i++) {
            targetOn.add(new ColumnPair(b.columns().get(i), b.targetColumns().get(i)));
        }
        Entity source = entities.get(a.target());
        Entity target = entities.get(b.target());
        return Optional.of(new Join(source.name() + "_" + target.name(), source.name(), target.name(), List.of(),
                new Bridge(junction.name(), sourceOn, targetOn), Cardinality.MANY_TO_MANY,
                Origin.BRIDGE_DRAFT));
    }

    /** Two entities in a fixed order: a join connects them whichever is its source. */
    private static List<String> entityPair(String a, String b) {
        return a.compareTo(b) <= 0 ? List.of(a, b) : List.of(b, a);
    }

    private static Join unique(Join join, Set<String> taken) {
        return unique(join, taken, List.of());
    }

    /** Two keys between the same entities (billing and shipping address) get the key's columns as suffix. */
    private static Join unique(Join join, Set<String> taken, List<String> columns) {
        String name = join.name();
        if (taken.contains(name) && !columns.isEmpty()) {
            name = name + "_by_" + identifier(String.join("_", columns));
        }
        String candidate = fit(name);
        for (int i = 2; !taken.add(candidate); i++) {
            candidate = fit(name + "_" + i);
        }
        return candidate.equals(join.name()) ? join
                : new Join(candidate, join.sourceEntity(), join.targetEntity(), join.on(), join.bridge(), join.cardinality(), join.origin());
    }

    /**
     * A link table with columns of its own beyond keys and timestamps (Northwind's order_details: price,
     * quantity) records facts worth measuring: it is an entity as well as a bridge.
     */
    private static boolean carriesFacts(Table t) {
        return t.columns().stream().anyMatch(c -> !t.isPrimaryKey(c.name()) && !isReference(t, c.name())
                && TypeClass.of(c) != TypeClass.TEMPORAL);
    }

    private static boolean isReference(Table t, String column) {
        return t.foreignKeys().stream().anyMatch(fk -> fk.columns().contains(column));
    }

    /** A safe object name: lower case, runs of other characters as one underscore, not starting with a digit. */
    public static String identifier(String text) {
        String s = NOT_AN_IDENTIFIER_CHARACTER.matcher(text.toLowerCase(Locale.ROOT)).replaceAll("_").replaceAll("^_+|_+$", "");
        if (s.isEmpty() || Character.isDigit(s.charAt(0))) {
            s = "t_" + s;
        }
        return fit(s);
    }

    /**
     * {@code name} if it is at most 63 characters (an identifier's limit: the store refuses longer ones on load),
     * else its first 54 and a hash of the whole, so long names made of two entities' names stay distinct and stable.
     */
    public static String fit(String name) {
        if (name.length() <= MAX_NAME) {
            return name;
        }
        return name.substring(0, MAX_NAME - 9) + "_" + String.format(Locale.ROOT, "%08x", name.hashCode());
    }
}
