package dev.schemabrain.semantic.compile;

import dev.schemabrain.error.ErrorKind;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.engine.Dialect;
import dev.schemabrain.semantic.model.ColumnPair;
import dev.schemabrain.semantic.model.Entity;
import dev.schemabrain.semantic.model.SemanticModel;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What small-cell suppression counts in one query: distinct people, never rows.
 * <ul>
 * <li>the subject of the metric's rows ({@link SubjectGraph}), through many-to-one LEFT JOINs of its own, which
 *     never repeat a row, so it is the same people whichever column expresses the grouping
 *     ({@code invoice.billing_country} and {@code customer.country} count the same customers);</li>
 * <li>every other person the call groups or filters by: a column of a person entity, or a person's key
 *     ({@code payment.staff_id}) — revenue by clerk is per-person data, total revenue over two clerks is not.</li>
 * </ul>
 */
final class Subjects {

    /** The joins the counts need (appended to the FROM) and the counted expressions, each with what it counts. */
    record Plan(String joins, Map<String, String> counted) {
    }

    /** The table of an entity, or schema drift. */
    interface Tables {
        Table of(Entity entity) throws CompileException;
    }

    private final SemanticModel model;
    private final Tables tables;
    private final SubjectGraph graph;

    Subjects(SemanticModel model, Tables tables, SubjectGraph graph) {
        this.model = model;
        this.tables = tables;
        this.graph = graph;
    }

    /**
     * @param alias every entity of the query and its alias (the metric's is t0)
     * @param base  the metric's entity
     * @param used  the group_by and filter references
     */
    Plan of(Dialect dialect, Map<String, String> alias, String base, List<MetricCompiler.Ref> used) throws CompileException {
        Map<String, String> counted = new LinkedHashMap<>();
        StringBuilder joins = new StringBuilder();
        Optional<SubjectGraph.Path> subject = graph.subjectOf(base);
        if (subject.isPresent()) {
            List<SubjectGraph.Hop> hops = subject.get().hops();
            String at = "t0";
            for (int i = 0; i + 1 < hops.size(); i++) {
                SubjectGraph.Hop hop = hops.get(i);
                String next = "s" + (i + 1);
                joins.append(" LEFT JOIN ").append(dialect.qualified(tables.of(entity(hop.to())).name())).append(" AS ")
                        .append(dialect.quote(next)).append(" ON ");
                List<String> terms = new ArrayList<>();
                for (ColumnPair p : hop.on()) {
                    terms.add(dialect.quote(at) + "." + dialect.quote(p.source()) + " = " + dialect.quote(next) + "."
                            + dialect.quote(p.target()));
                }
                joins.append(String.join(" AND ", terms));
                at = next;
            }
            String column = hops.isEmpty() ? entity(base).identity().get(0) : hops.get(hops.size() - 1).keyColumn();
            String through = hops.isEmpty() ? "" : " via " + String.join(", ", hops.stream().map(h -> h.from() + "." + h.keyColumn()).toList());
            counted.put(dialect.quote(at) + "." + dialect.quote(column), subject.get().subject() + through);
        }
        for (MetricCompiler.Ref r : used) {
            String name = r.entity().name();
            String a = alias.get(name);
            if (a == null) {
                continue;
            }
            // A person's key, on any entity (a customer's support_rep_id is the rep's, not the customer's).
            Optional<String> person = graph.personKeyTarget(name, r.column().name());
            if (person.isPresent()) {
                counted.putIfAbsent(dialect.quote(a) + "." + dialect.quote(r.column().name()), person.get() + " via " + name + "."
                        + r.column().name());
            }
            boolean theSubject = subject.isPresent() && subject.get().subject().equals(name);
            if (graph.person(name) && !theSubject) {
                counted.putIfAbsent(dialect.quote(a) + "." + dialect.quote(r.entity().identity().get(0)), name);
            }
        }
        return new Plan(joins.toString(), counted);
    }

    private Entity entity(String name) throws CompileException {
        return model.entity(name).orElseThrow(() -> new CompileException(ErrorKind.SCHEMA_DRIFT, "The semantic layer refers to"
                + " entity " + name + ", which the index does not have; run schemabrain index, then apply the project again.",
                List.of()));
    }
}
