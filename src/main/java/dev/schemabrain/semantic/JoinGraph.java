package dev.schemabrain.semantic;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.ForeignKey;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.ValidationState;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * The tables of a catalog joined by their foreign keys (and, where none connects two tables, by the joins the
 * query log showed), for {@code suggest_joins}.
 *
 * <p>Undirected: a foreign key joins its two tables whichever way a path walks it, and each step
 * keeps the key's own direction and columns. Paths are shortest by hop count. Among equally short
 * paths the one crossing more junction tables wins, because an explicit M:N link table
 * ({@code team_members}) is the join people mean, not a shared parent ({@code users → organizations
 * → teams}); remaining ties go to breadth-first order with neighbours expanded by qualified name,
 * then foreign-key name, so results never change between runs.
 *
 * <p>Only tables in the catalog are nodes: a foreign key to a table that was not introspected is
 * left out. Immutable and thread-safe.
 */
public final class JoinGraph {

    /** How a step joins its tables. Wire names as in the charter. */
    public enum Via {
        FOREIGN_KEY, JUNCTION,
        /** A join mine-queries observed between two tables no foreign key connects. */
        QUERY_LOG;

        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Which way a step walks its foreign key. */
    public enum Direction {
        /** From the table holding the foreign key to the table it references. */
        FORWARD,
        /** From the referenced table to the table holding the foreign key. */
        REVERSE;

        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Rows on the {@code from} side to rows on the {@code to} side. */
    public enum Cardinality {
        MANY_TO_ONE, ONE_TO_MANY, ONE_TO_ONE;

        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * One join: {@code from.fromColumns = to.toColumns}.
     *
     * @param holder       the table that declares {@code foreignKey}
     * @param direction    FORWARD when walking from {@code holder} to the referenced table
     * @param junction     the junction table this step enters or leaves, when {@code via} is JUNCTION
     * @param alternatives how many other foreign keys join the same two tables (this one's name sorts first)
     * @param observed     for a QUERY_LOG step, APPLIED when seen often enough for MEDIUM confidence, else DRAFT; null otherwise
     */
    public record Step(QualifiedName from, List<String> fromColumns, QualifiedName to, List<String> toColumns,
                       QualifiedName holder, ForeignKey foreignKey, Direction direction, Via via,
                       QualifiedName junction, Cardinality cardinality, int alternatives, ValidationState observed) {
        public Step {
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(to, "to");
            fromColumns = List.copyOf(fromColumns);
            toColumns = List.copyOf(toColumns);
        }

        /** The foreign key's name, or null for an unnamed key. */
        public String foreignKeyName() {
            return foreignKey.name();
        }

        Step asJunction(QualifiedName junctionTable) {
            return new Step(from, fromColumns, to, toColumns, holder, foreignKey, direction, Via.JUNCTION,
                    junctionTable, cardinality, alternatives, observed);
        }
    }

    /** A shortest path between a pair of the requested tables; no steps when both are the same table. */
    public record Path(QualifiedName from, QualifiedName to, List<Step> steps) {
        public Path {
            steps = List.copyOf(steps);
        }

        public int hops() {
            return steps.size();
        }

        public boolean crossesJunction() {
            return steps.stream().anyMatch(s -> s.via() == Via.JUNCTION);
        }

        /** The junction tables crossed, in path order. */
        public List<QualifiedName> junctions() {
            return steps.stream().filter(s -> s.via() == Via.JUNCTION).map(Step::junction).distinct().toList();
        }
    }

    /** Why a pair has no path. */
    public enum Reason {
        /** No chain of foreign keys connects the two tables. */
        NO_PATH,
        /** A path exists but needs more hops than allowed; {@code hopsNeeded} says how many. */
        TOO_MANY_HOPS,
        /** One of the two is not a table of this catalog. */
        UNKNOWN_TABLE;

        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** @param hopsNeeded the shortest path's length when {@code reason} is TOO_MANY_HOPS, else null */
    public record Unreachable(QualifiedName from, QualifiedName to, Reason reason, Integer hopsNeeded) {
    }

    /** Every pair of the requested tables, in input order, either joined or unreachable. */
    public record JoinPaths(List<Path> paths, List<Unreachable> unreachable) {
        public JoinPaths {
            paths = List.copyOf(paths);
            unreachable = List.copyOf(unreachable);
        }
    }

    /** One way of walking one foreign key (or observed join, {@code observed} set), from {@code from} to {@code to}. */
    private record Link(QualifiedName from, QualifiedName to, QualifiedName holder, ForeignKey fk, boolean forward,
                        ValidationState observed) {
        Link(QualifiedName from, QualifiedName to, QualifiedName holder, ForeignKey fk, boolean forward) {
            this(from, to, holder, fk, forward, null);
        }
    }

    /** A node's best way in during the breadth-first search. */
    private record Label(int depth, int junctions, Link via, boolean enteredJunction) {
    }

    private static final Comparator<Link> LINK_ORDER = Comparator
            .comparing(Link::to)
            .thenComparing((Link l) -> l.fk().name(), Comparator.nullsLast(Comparator.naturalOrder()))
            .thenComparing(Link::holder)
            .thenComparing(l -> String.join(",", l.fk().columns()))
            .thenComparing(l -> !l.forward());

    private final Map<QualifiedName, Table> tables;
    /** Per table, its links sorted by neighbour, then foreign-key name: the BFS expansion order. */
    private final Map<QualifiedName, List<Link>> adjacency;

    /**
     * With the joins the query log showed, each an edge ({@code via = query_log}) only between two tables no
     * foreign key connects: a foreign key always wins over an observation.
     */
    public JoinGraph(Catalog catalog, List<QueryLogJoin> observed) {
        this.tables = Collections.unmodifiableMap(new TreeMap<>(catalog.byName()));
        Map<QualifiedName, List<Link>> links = new TreeMap<>();
        tables.keySet().forEach(name -> links.put(name, new ArrayList<>()));
        for (Table t : tables.values()) {
            for (ForeignKey fk : t.foreignKeys()) {
                if (!tables.containsKey(fk.target())) {
                    continue;
                }
                links.get(t.name()).add(new Link(t.name(), fk.target(), t.name(), fk, true));
                // A self-reference gets both walks too: they are different joins (report → manager, manager → reports).
                links.get(fk.target()).add(new Link(fk.target(), t.name(), t.name(), fk, false));
            }
        }
        Set<List<QualifiedName>> connected = new HashSet<>();
        links.values().forEach(list -> list.forEach(l -> connected.add(pair(l.from(), l.to()))));
        for (QueryLogJoin o : observed) {
            if (!tables.containsKey(o.many()) || !tables.containsKey(o.one()) || !connected.add(pair(o.many(), o.one()))) {
                continue;
            }
            ForeignKey seen = new ForeignKey(null, o.manyColumns(), o.one(), o.oneColumns());
            links.get(o.many()).add(new Link(o.many(), o.one(), o.many(), seen, true, o.state()));
            links.get(o.one()).add(new Link(o.one(), o.many(), o.many(), seen, false, o.state()));
        }
        links.replaceAll((name, list) -> list.stream().sorted(LINK_ORDER).toList());
        this.adjacency = Collections.unmodifiableMap(links);
    }

    /** The two tables in a fixed order, so a pair is the same whichever way it was met (a self-reference too). */
    private static List<QualifiedName> pair(QualifiedName a, QualifiedName b) {
        return a.compareTo(b) <= 0 ? List.of(a, b) : List.of(b, a);
    }

    public boolean contains(QualifiedName table) {
        return tables.containsKey(table);
    }

    /**
     * Every single-hop join from {@code table}, one per foreign-key walk, ordered by neighbour then
     * foreign-key name; empty for an unknown table. All are {@code via = foreign_key}.
     */
    public List<Step> neighbours(QualifiedName table) {
        return adjacency.getOrDefault(table, List.of()).stream().map(this::step).toList();
    }

    /**
     * The shortest path for each unordered pair of {@code requested}, in input order
     * ((t0,t1), (t0,t2), (t1,t2), …), with at most {@code maxHops} hops; the rest are unreachable.
     */
    public JoinPaths paths(List<QualifiedName> requested, int maxHops) {
        if (maxHops < 0) {
            throw new IllegalArgumentException("maxHops must not be negative");
        }
        List<Path> paths = new ArrayList<>();
        List<Unreachable> unreachable = new ArrayList<>();
        Map<QualifiedName, Map<QualifiedName, Label>> searches = new HashMap<>();
        for (int i = 0; i < requested.size(); i++) {
            QualifiedName from = requested.get(i);
            for (int j = i + 1; j < requested.size(); j++) {
                QualifiedName to = requested.get(j);
                if (!contains(from) || !contains(to)) {
                    unreachable.add(new Unreachable(from, to, Reason.UNKNOWN_TABLE, null));
                    continue;
                }
                // One unbounded search per source serves all its pairs and tells how far a too-far pair is.
                Label label = searches.computeIfAbsent(from, this::search).get(to);
                if (label == null) {
                    unreachable.add(new Unreachable(from, to, Reason.NO_PATH, null));
                } else if (label.depth() > maxHops) {
                    unreachable.add(new Unreachable(from, to, Reason.TOO_MANY_HOPS, label.depth()));
                } else {
                    paths.add(path(from, to, searches.get(from)));
                }
            }
        }
        return new JoinPaths(paths, unreachable);
    }

    // ------------------------------------------------------------------ search

    /**
     * Layered breadth-first search from {@code source}. Each node of the next layer keeps, among its
     * ways in from the current layer, the one with the most junction crossings so far; on a tie, one
     * that enters a junction on its key (so the next step can complete a crossing); then the first
     * found.
     */
    private Map<QualifiedName, Label> search(QualifiedName source) {
        Map<QualifiedName, Label> labels = new HashMap<>();
        labels.put(source, new Label(0, 0, null, false));
        List<QualifiedName> frontier = List.of(source);
        int depth = 0;
        while (!frontier.isEmpty()) {
            Map<QualifiedName, Label> next = new LinkedHashMap<>();
            for (QualifiedName u : frontier) {
                Label at = labels.get(u);
                for (Link link : adjacency.get(u)) {
                    if (labels.containsKey(link.to())) {
                        continue;
                    }
                    int junctions = at.junctions() + (completesCrossing(at, link) ? 1 : 0);
                    Label candidate = new Label(depth + 1, junctions, link, entersJunction(link));
                    Label current = next.get(link.to());
                    if (current == null || better(candidate, current)) {
                        next.put(link.to(), candidate);
                    }
                }
            }
            labels.putAll(next);
            frontier = new ArrayList<>(next.keySet());
            depth++;
        }
        return labels;
    }

    private static boolean better(Label candidate, Label current) {
        if (candidate.junctions() != current.junctions()) {
            return candidate.junctions() > current.junctions();
        }
        return candidate.enteredJunction() && !current.enteredJunction();
    }

    /** Walking into a junction table on one of its key's foreign keys. */
    private boolean entersJunction(Link link) {
        return !link.forward() && link.holder().equals(link.to()) && isJunctionKey(link.to(), link.fk());
    }

    /** Leaving a junction on another of its key's foreign keys, having entered it on one. */
    private boolean completesCrossing(Label at, Link link) {
        return at.enteredJunction() && link.forward() && link.holder().equals(link.from())
                && isJunctionKey(link.from(), link.fk()) && !link.fk().equals(at.via().fk());
    }

    /**
     * A foreign key of a junction table that lies within its primary key: a junction's other keys
     * (say {@code playlist_track.added_by}) are ordinary references, not the M:N link.
     */
    private boolean isJunctionKey(QualifiedName table, ForeignKey fk) {
        Table t = tables.get(table);
        return t.isJunction() && t.primaryKey().containsAll(fk.columns());
    }

    private Path path(QualifiedName from, QualifiedName to, Map<QualifiedName, Label> labels) {
        List<Link> links = new ArrayList<>();
        for (QualifiedName at = to; !at.equals(from); ) {
            Link link = labels.get(at).via();
            links.add(link);
            at = link.from();
        }
        Collections.reverse(links);
        List<Step> steps = new ArrayList<>(links.stream().map(this::step).toList());
        for (int i = 0; i + 1 < links.size(); i++) {
            Link in = links.get(i);
            Link out = links.get(i + 1);
            if (entersJunction(in) && out.forward() && out.holder().equals(in.to())
                    && isJunctionKey(in.to(), out.fk()) && !out.fk().equals(in.fk())) {
                steps.set(i, steps.get(i).asJunction(in.to()));
                steps.set(i + 1, steps.get(i + 1).asJunction(in.to()));
            }
        }
        return new Path(from, to, steps);
    }

    private Step step(Link link) {
        ForeignKey fk = link.fk();
        boolean unique = tables.get(link.holder()).isUnique(fk.columns());
        Cardinality cardinality = unique ? Cardinality.ONE_TO_ONE
                : link.forward() ? Cardinality.MANY_TO_ONE : Cardinality.ONE_TO_MANY;
        long parallel = adjacency.get(link.from()).stream().filter(l -> l.to().equals(link.to())).count();
        if (link.from().equals(link.to())) {
            parallel /= 2; // a self-reference is listed once per direction
        }
        Via via = link.observed() == null ? Via.FOREIGN_KEY : Via.QUERY_LOG;
        return link.forward()
                ? new Step(link.from(), fk.columns(), link.to(), fk.targetColumns(), link.holder(), fk,
                        Direction.FORWARD, via, null, cardinality, (int) parallel - 1, link.observed())
                : new Step(link.from(), fk.targetColumns(), link.to(), fk.columns(), link.holder(), fk,
                        Direction.REVERSE, via, null, cardinality, (int) parallel - 1, link.observed());
    }
}
