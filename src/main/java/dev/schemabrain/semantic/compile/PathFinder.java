package dev.schemabrain.semantic.compile;

import dev.schemabrain.error.ErrorKind;
import dev.schemabrain.catalog.Fuzzy;
import dev.schemabrain.semantic.model.Cardinality;
import dev.schemabrain.semantic.model.ColumnPair;
import dev.schemabrain.semantic.model.Join;
import dev.schemabrain.semantic.model.SemanticModel;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Paths between entities over the model's joins, walked either way. A path that never fans out wins over
 * those that do, then the shortest; two equally short ones are ambiguous unless {@code via} names a join that only
 * one of them uses.
 */
final class PathFinder {

    /** Paths longer than this are not considered. */
    static final int MAX_HOPS = 6;
    /** Enough alternatives to show a caller; more are not enumerated. */
    private static final int MAX_PATHS = 20;

    /** One join walked from {@code from} to {@code to}; {@code pairs} are (from column, to column). */
    record Step(Join join, String from, String to, boolean forward) {
        Cardinality walked() {
            return forward ? join.cardinality() : join.cardinality().reversed();
        }

        List<ColumnPair> pairs() {
            return forward ? join.on() : join.on().stream().map(ColumnPair::swapped).toList();
        }
    }

    private final SemanticModel model;
    private final Map<String, List<Step>> edges = new HashMap<>();

    PathFinder(SemanticModel model) {
        this.model = model;
        for (Join j : model.joins()) {
            edges.computeIfAbsent(j.sourceEntity(), k -> new ArrayList<>()).add(new Step(j, j.sourceEntity(), j.targetEntity(), true));
            if (!j.sourceEntity().equals(j.targetEntity())) {
                edges.computeIfAbsent(j.targetEntity(), k -> new ArrayList<>()).add(new Step(j, j.targetEntity(), j.sourceEntity(), false));
            }
        }
    }

    /** The steps joining {@code base} to every entity in {@code targets}, in an order that can be emitted. */
    List<Step> plan(String base, Set<String> targets, List<String> via) throws CompileException {
        Set<String> viaNames = new LinkedHashSet<>();
        for (String v : via) {
            if (model.join(v).isEmpty()) {
                throw new CompileException(ErrorKind.UNKNOWN_VIA_JOIN, "There is no join named '" + v
                        + "'; list_joins shows the joins there are.",
                        Fuzzy.best(v, model.joins().stream().map(Join::name).toList(), Fuzzy.DEFAULT_LIMIT));
            }
            viaNames.add(v);
        }
        Set<String> used = new HashSet<>();
        List<Step> steps = new ArrayList<>();
        for (String target : targets) {
            List<List<Step>> candidates = paths(base, target);
            if (candidates.isEmpty()) {
                throw new CompileException(ErrorKind.UNREACHABLE_ENTITY, "No chain of joins within " + MAX_HOPS
                        + " hops links " + base + " to " + target + "; list_joins shows the joins there are.", List.of());
            }
            if (!viaNames.isEmpty()) {
                int most = candidates.stream().mapToInt(p -> viaCount(p, viaNames)).max().orElse(0);
                candidates = candidates.stream().filter(p -> viaCount(p, viaNames) == most).toList();
            }
            // A dimension the rows belong to is reached without fan-out whenever it can be: that is what grouping by it means.
            if (candidates.stream().anyMatch(PathFinder::towardsOne)) {
                candidates = candidates.stream().filter(PathFinder::towardsOne).toList();
            }
            int shortest = candidates.stream().mapToInt(List::size).min().orElseThrow();
            List<List<Step>> best = candidates.stream().filter(p -> p.size() == shortest).toList();
            if (best.size() > 1) {
                List<String> rendered = best.stream().map(PathFinder::render).toList();
                throw new CompileException(ErrorKind.AMBIGUOUS_PATH, best.size() + " equally short join paths link "
                        + base + " to " + target + " (" + String.join("; ", rendered)
                        + "); pass via with the join to take.", rendered,
                        Map.of("via", List.of(distinguishing(best))));
            }
            best.get(0).forEach(s -> used.add(s.join().name()));
            steps.addAll(best.get(0));
        }
        for (String v : viaNames) {
            if (!used.contains(v)) {
                throw new CompileException(ErrorKind.UNKNOWN_VIA_JOIN, "The join " + v + " is not on any path from "
                        + base + " to the entities this request uses; drop it from via.", List.copyOf(used));
            }
        }
        return steps;
    }

    /** Whether a chain of joins that never fans out leads from {@code base} to {@code target} (each base row has one). */
    boolean towardsOne(String base, String target) {
        Set<String> seen = new HashSet<>(List.of(base));
        Deque<String> frontier = new ArrayDeque<>(List.of(base));
        for (int hop = 0; hop < MAX_HOPS && !frontier.isEmpty(); hop++) {
            Deque<String> next = new ArrayDeque<>();
            for (String at : frontier) {
                for (Step s : edges.getOrDefault(at, List.of())) {
                    if (!s.walked().fansOut() && seen.add(s.to())) {
                        if (s.to().equals(target)) {
                            return true;
                        }
                        next.add(s.to());
                    }
                }
            }
            frontier = next;
        }
        return false;
    }

    /** Every simple path from base to target of at most MAX_HOPS steps (bounded in number). */
    private List<List<Step>> paths(String base, String target) {
        List<List<Step>> found = new ArrayList<>();
        // Iterative deepening: shortest paths first, and longer ones only to honour via.
        for (int depth = 1; depth <= MAX_HOPS && found.size() < MAX_PATHS; depth++) {
            walk(base, target, depth, new ArrayDeque<>(), new HashSet<>(List.of(base)), found);
        }
        return found;
    }

    private void walk(String at, String target, int depth, Deque<Step> path, Set<String> visited, List<List<Step>> found) {
        if (found.size() >= MAX_PATHS) {
            return;
        }
        if (path.size() == depth) {
            if (at.equals(target)) {
                found.add(List.copyOf(path));
            }
            return;
        }
        for (Step s : edges.getOrDefault(at, List.of())) {
            if (visited.add(s.to())) {
                path.addLast(s);
                walk(s.to(), target, depth, path, visited, found);
                path.removeLast();
                visited.remove(s.to());
            }
        }
    }

    private static boolean towardsOne(List<Step> path) {
        return path.stream().noneMatch(s -> s.walked().fansOut());
    }

    private static int viaCount(List<Step> path, Set<String> via) {
        return (int) path.stream().filter(s -> via.contains(s.join().name())).count();
    }

    /** A join of the first path that the second does not use: the via that picks the first. */
    private static String distinguishing(List<List<Step>> paths) {
        Set<String> second = new HashSet<>();
        paths.get(1).forEach(s -> second.add(s.join().name()));
        return paths.get(0).stream().map(s -> s.join().name()).filter(n -> !second.contains(n)).findFirst()
                .orElse(paths.get(0).get(0).join().name());
    }

    private static String render(List<Step> path) {
        return String.join(" > ", path.stream().map(s -> s.join().name()).toList());
    }
}
