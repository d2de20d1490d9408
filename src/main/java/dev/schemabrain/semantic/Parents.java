package dev.schemabrain.semantic;

import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.semantic.model.Cardinality;
import dev.schemabrain.semantic.model.Entity;
import dev.schemabrain.semantic.model.Join;
import dev.schemabrain.semantic.model.SemanticModel;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiPredicate;
import java.util.function.Function;

/**
 * The entities an entity's rows belong to: those reached from it along joins walked towards "one" (many_to_one,
 * one_to_one), breadth first. Each row has at most one partner there, so a metric may take a time dimension or a
 * group_by column from them without counting a row twice. An entity reached by two equally short such paths is
 * {@code ambiguous}: get_metric would need {@code via} to pick one.
 */
public final class Parents {

    /** How far to look: an order line's order's customer's country is three hops. */
    public static final int MAX_HOPS = 3;

    /**
     * An entity reached, with the joins walked to it (empty for the entity itself).
     *
     * @param ambiguous whether another path of the same length reaches it too
     */
    public record Reached(String entity, List<String> joins, boolean ambiguous) {
        public Reached {
            joins = List.copyOf(joins);
        }

        public int distance() {
            return joins.size();
        }
    }

    private Parents() {
    }

    /** {@code base} first, then each entity reached, nearest first. */
    public static List<Reached> of(SemanticModel model, String base) {
        Map<String, Reached> reached = new LinkedHashMap<>();
        reached.put(base, new Reached(base, List.of(), false));
        List<String> ring = List.of(base);
        for (int hop = 1; hop <= MAX_HOPS && !ring.isEmpty(); hop++) {
            Map<String, Reached> next = new LinkedHashMap<>();
            Map<String, Integer> ways = new HashMap<>();
            for (String from : ring) {
                Reached at = reached.get(from);
                for (Join j : model.joinsOf(from)) {
                    if (j.sourceEntity().equals(j.targetEntity())) {
                        continue;
                    }
                    Cardinality walked = j.sourceEntity().equals(from) ? j.cardinality() : j.cardinality().reversed();
                    String to = j.other(from);
                    if (walked.fansOut() || reached.containsKey(to)) {
                        continue;
                    }
                    int n = ways.merge(to, at.ambiguous() ? 2 : 1, Integer::sum);
                    List<String> joins = new ArrayList<>(at.joins());
                    joins.add(j.name());
                    next.merge(to, new Reached(to, joins, n > 1), (old, fresh) -> new Reached(to, old.joins(), true));
                }
            }
            reached.putAll(next);
            ring = List.copyOf(next.keySet());
        }
        return List.copyOf(reached.values());
    }

    /**
     * Whether each step of {@code joins}, walked from {@code base}, is taken by key columns that are never null: every
     * {@code base} row then has its partner at the end (a refund's order's restaurant), and an inner join drops none.
     */
    public static boolean required(SemanticModel model, Function<QualifiedName, Optional<Table>> tables, String base,
                                   List<String> joins) {
        return everyStep(model, tables, base, joins, Parents::keyNeverNull);
    }

    /**
     * Whether each step of {@code joins}, walked from {@code base} (no bridge), passes {@code step}, given the table the
     * step leaves and its key columns on that side.
     */
    public static boolean everyStep(SemanticModel model, Function<QualifiedName, Optional<Table>> tables, String base,
                                    List<String> joins, BiPredicate<Table, List<String>> step) {
        String at = base;
        for (String name : joins) {
            Optional<Join> join = model.join(name);
            Optional<Table> from = model.entity(at).map(Entity::table).flatMap(tables);
            if (join.isEmpty() || from.isEmpty() || join.get().bridge() != null) {
                return false;
            }
            Join j = join.get();
            boolean forward = j.sourceEntity().equals(at);
            if (!step.test(from.get(), j.on().stream().map(p -> forward ? p.source() : p.target()).toList())) {
                return false;
            }
            at = j.other(at);
        }
        return true;
    }

    /** Whether every column of {@code key} is in {@code table} and never null. */
    public static boolean keyNeverNull(Table table, List<String> key) {
        return key.stream().allMatch(k -> table.column(k).map(c -> !c.nullable()).orElse(false));
    }
}
