package dev.schemabrain.semantic.compile;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.Identifiers;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.TypeClass;
import dev.schemabrain.semantic.model.Cardinality;
import dev.schemabrain.semantic.model.ColumnPair;
import dev.schemabrain.semantic.model.Entity;
import dev.schemabrain.semantic.model.Join;
import dev.schemabrain.semantic.model.SemanticModel;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How each fact reaches the person it is about, walked once per served catalog and cached per entity.
 * <p>
 * A fact's subject is the nearest person entity reachable by many-to-one steps (foreign keys, declared joins and
 * person keys without a foreign key), at most {@value #MAX_DEPTH} steps away. A walk stops at the first person
 * and at an organisation (an organisation's contact is not the subject of the organisation's orders). Where
 * several people are reachable, the one the fact is about wins over the one who handled it: a reference whose
 * column or target names a role of staff ({@code staff_id}, {@code approved_by}, {@code sales_rep_id}) is an
 * agent, counted only when a call groups or filters by it. A fact that reaches only an agent (a payslip's
 * employee) is about that agent, unless it also references an organisation (a B2B order's sales rep is the
 * company's clerk, not the order's subject). The operator's {@code subject_of} overrides the draft.
 */
public final class SubjectGraph {

    public static final int MAX_DEPTH = 4;
    public static final SubjectGraph EMPTY = new SubjectGraph(null, null, DataSubjects.NONE);

    private static final Set<String> AGENT_WORDS = Set.of("staff", "employee", "employees", "rep", "representative",
            "agent", "clerk", "cashier", "seller", "salesperson", "salesman", "sales", "approver", "approved", "created",
            "updated", "modified", "assigned", "assignee", "handled", "handler", "processed", "manager", "supervisor",
            "reviewer", "reviewed", "operator", "recorded", "entered", "issued", "signed", "booked", "teller",
            "dispatcher", "courier", "by",
            // Occupations whose holders serve the fact's subject: a shipment's driver, a patient's nurse.
            "driver", "pilot", "technician", "mechanic", "inspector", "nurse", "doctor", "physician", "clinician",
            "therapist", "instructor", "teacher", "tutor", "advisor", "adviser", "consultant", "broker", "installer");
    private static final Set<String> KEY_SUFFIXES = Set.of("id", "ref", "key", "no", "num", "number", "code", "nr");

    /** One many-to-one step: {@code on} pairs the {@code from} entity's columns with the {@code to} entity's. */
    public record Hop(String from, String to, List<ColumnPair> on, String join) {
        public Hop {
            on = List.copyOf(on);
        }

        /** The {@code from} side column holding the key of a {@code to} row. */
        public String keyColumn() {
            return on.get(0).source();
        }
    }

    /** The path from an entity to its subject; empty when the entity's own rows are the people. */
    public record Path(String subject, List<Hop> hops) {
        public Path {
            hops = List.copyOf(hops);
        }
    }

    private final SemanticModel model;
    private final Catalog catalog;
    private final DataSubjects subjects;
    private final Map<String, List<Hop>> steps = new HashMap<>();
    private final Map<String, Optional<Path>> paths = new ConcurrentHashMap<>();

    public SubjectGraph(SemanticModel model, Catalog catalog, DataSubjects subjects) {
        this.model = model;
        this.catalog = catalog;
        this.subjects = subjects;
        if (model == null || subjects.people().isEmpty()) {
            return;
        }
        Map<String, Entity> entities = new HashMap<>();
        model.entities().forEach(e -> entities.put(e.name(), e));
        for (Join j : model.joins()) {
            if (j.bridge() != null || j.on().isEmpty() || j.sourceEntity().equals(j.targetEntity())) {
                continue;
            }
            if (j.cardinality() == Cardinality.MANY_TO_ONE || j.cardinality() == Cardinality.ONE_TO_ONE) {
                add(new Hop(j.sourceEntity(), j.targetEntity(), j.on(), j.name()));
            }
            Cardinality back = j.cardinality().reversed();
            if (back == Cardinality.MANY_TO_ONE || back == Cardinality.ONE_TO_ONE) {
                add(new Hop(j.targetEntity(), j.sourceEntity(), j.on().stream().map(ColumnPair::swapped).toList(), j.name()));
            }
        }
        personKeys(entities).forEach((ref, person) -> {
            int dot = ref.indexOf('.');
            Entity target = entities.get(person);
            if (target != null && target.identity().size() == 1) {
                add(new Hop(ref.substring(0, dot), person, List.of(new ColumnPair(ref.substring(dot + 1), target.identity().get(0))),
                        null));
            }
        });
    }

    private void add(Hop hop) {
        List<Hop> from = steps.computeIfAbsent(hop.from(), k -> new ArrayList<>());
        if (from.stream().noneMatch(h -> h.to().equals(hop.to()) && h.keyColumn().equals(hop.keyColumn()))) {
            from.add(hop);
        }
    }

    public boolean hasPeople() {
        return !subjects.people().isEmpty();
    }

    public boolean person(String entity) {
        return subjects.people().contains(entity);
    }

    /** The person entity whose key {@code entity.column} holds, if any (a foreign key or a person key). */
    public Optional<String> personKeyTarget(String entity, String column) {
        for (Hop h : steps.getOrDefault(entity, List.of())) {
            if (person(h.to()) && h.on().size() == 1 && h.keyColumn().equals(column)) {
                return Optional.of(h.to());
            }
        }
        return Optional.empty();
    }

    /** The subject of {@code entity}'s rows, with the hops to it; empty when its rows are about no person. */
    public Optional<Path> subjectOf(String entity) {
        return paths.computeIfAbsent(entity, this::walk);
    }

    private record Reached(String entity, List<Hop> hops, boolean agent) {
    }

    private Optional<Path> walk(String entity) {
        if (person(entity)) {
            return Optional.of(new Path(entity, List.of()));
        }
        String named = subjects.subjectOf().get(entity);
        List<Reached> people = new ArrayList<>();
        int organisationDepth = Integer.MAX_VALUE;
        Deque<Reached> queue = new ArrayDeque<>(List.of(new Reached(entity, List.of(), false)));
        Set<String> seen = new HashSet<>(Set.of(entity));
        while (!queue.isEmpty()) {
            Reached at = queue.removeFirst();
            if (at.hops().size() >= MAX_DEPTH) {
                continue;
            }
            for (Hop h : steps.getOrDefault(at.entity(), List.of())) {
                List<Hop> hops = new ArrayList<>(at.hops());
                hops.add(h);
                boolean agent = at.agent() || agent(h);
                if (person(h.to())) {
                    people.add(new Reached(h.to(), hops, agent));
                    continue;
                }
                if (subjects.organisations().contains(h.to())) {
                    if (!agent) {
                        organisationDepth = Math.min(organisationDepth, hops.size());
                    }
                    continue;
                }
                if (seen.add(h.to())) {
                    queue.addLast(new Reached(h.to(), hops, agent));
                }
            }
        }
        if (named != null) {
            Optional<Reached> chosen = people.stream().filter(r -> r.entity().equals(named))
                    .min(Comparator.comparingInt(r -> r.hops().size()));
            if (chosen.isPresent()) {
                return Optional.of(new Path(named, chosen.get().hops()));
            }
        }
        Comparator<Reached> nearest = Comparator.<Reached>comparingInt(r -> r.hops().size())
                .thenComparing(r -> -rows(r.entity())).thenComparing(Reached::entity);
        Optional<Reached> subject = people.stream().filter(r -> !r.agent()).min(nearest);
        if (subject.isEmpty()) {
            int depth = organisationDepth;
            subject = people.stream().filter(r -> r.hops().size() < depth).min(nearest);
        }
        return subject.map(r -> new Path(r.entity(), r.hops()));
    }

    /** A step through a column or to an entity named for staff: whoever handled the fact, not whom it is about. */
    private static boolean agent(Hop h) {
        return Identifiers.words(h.keyColumn()).stream().anyMatch(AGENT_WORDS::contains)
                || Identifiers.words(h.to()).stream().anyMatch(AGENT_WORDS::contains);
    }

    private long rows(String entity) {
        if (model == null || catalog == null) {
            return 0;
        }
        return model.entity(entity).flatMap(e -> catalog.table(e.table())).map(Table::rowEstimate)
                .map(Long::longValue).orElse(0L);
    }

    /**
     * The operator's person keys, then the ones the column names give away: {@code employee_ref} on a table
     * without a foreign key on it, naming a person entity (or its table) and a key suffix, of the same type class
     * as that person's identity.
     */
    private Map<String, String> personKeys(Map<String, Entity> entities) {
        Map<String, String> out = new LinkedHashMap<>(subjects.personKeys());
        Map<String, String> stems = new HashMap<>();
        for (String p : subjects.people()) {
            Entity e = entities.get(p);
            if (e == null || e.identity().size() != 1) {
                continue;
            }
            stems.put(stem(p), p);
            stems.put(stem(e.table().table()), p);
        }
        if (stems.isEmpty()) {
            return out;
        }
        for (Entity e : model.entities()) {
            Optional<Table> table = catalog.table(e.table());
            if (table.isEmpty()) {
                continue;
            }
            Set<String> keyed = new HashSet<>();
            table.get().foreignKeys().forEach(fk -> keyed.addAll(fk.columns()));
            steps.getOrDefault(e.name(), List.of()).forEach(h -> keyed.add(h.keyColumn()));
            for (Column c : table.get().columns()) {
                if (keyed.contains(c.name()) || table.get().isPrimaryKey(c.name()) || out.containsKey(e.name() + "." + c.name())) {
                    continue;
                }
                List<String> w = Identifiers.words(c.name());
                if (w.size() < 2 || !KEY_SUFFIXES.contains(w.get(w.size() - 1))) {
                    continue;
                }
                String person = stems.get(stem(String.join("_", w.subList(0, w.size() - 1))));
                if (person == null || person.equals(e.name())) {
                    continue;
                }
                Entity target = entities.get(person);
                Optional<Column> id = catalog.table(target.table()).flatMap(t -> t.column(target.identity().get(0)));
                if (id.isPresent() && compatible(TypeClass.of(c), TypeClass.of(id.get()))) {
                    out.put(e.name() + "." + c.name(), person);
                }
            }
        }
        return out;
    }

    private static boolean compatible(TypeClass a, TypeClass b) {
        return a == b || a == TypeClass.OTHER || b == TypeClass.OTHER
                || (a == TypeClass.TEXT || a == TypeClass.NUMBER) && (b == TypeClass.TEXT || b == TypeClass.NUMBER);
    }

    /** A name as the singular of its words ({@code employees} → {@code employee}), for matching a key's name. */
    private static String stem(String name) {
        List<String> w = new ArrayList<>(Identifiers.words(name));
        if (!w.isEmpty()) {
            w.set(w.size() - 1, Identifiers.singular(w.get(w.size() - 1)));
        }
        return String.join("_", w);
    }
}
