package dev.schemabrain.semantic.compile;

import dev.schemabrain.catalog.Table;
import dev.schemabrain.semantic.model.Cardinality;
import dev.schemabrain.semantic.model.Entity;
import dev.schemabrain.semantic.model.Join;
import dev.schemabrain.semantic.model.SemanticModel;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Who the people in a metric's group are, for small-cell suppression: the columns whose distinct values
 * count them. People are counted by key, not by row (a customer with seven invoices is still one person):
 * <ul>
 * <li>every entity of the query (the metric's and each joined one) on a personal table, by its first
 *     identity column;</li>
 * <li>a group_by or filter column that is a person's key (the source side of a many-to-one join to a
 *     personal entity: {@code invoice.customer_id}) — grouping by it is grouping by the person;</li>
 * <li>when the metric's own entity is not personal, each of its many-to-one keys to a personal entity
 *     (an invoice line belongs to its invoice).</li>
 * </ul>
 * A personal entity's other references (a customer's support rep) are attributes, not the subject, and
 * are not counted: Chinook's 59 customers share three reps, and counting them would suppress every
 * country. COUNT(DISTINCT) of the first identity column never counts more people than there are, so a
 * composite identity only suppresses more.
 */
final class Subjects {

    /** A column of an entity of the query whose distinct values count people. */
    record Key(String entity, String column) {
    }

    /** The table of an entity, or schema drift. */
    interface Tables {
        Table of(Entity entity) throws CompileException;
    }

    private final SemanticModel model;
    private final Tables tables;
    private final SmallCells cells;

    Subjects(SemanticModel model, Tables tables, SmallCells cells) {
        this.model = model;
        this.tables = tables;
        this.cells = cells;
    }

    /**
     * @param entities every entity of the query (the metric's first)
     * @param base     the metric's entity
     * @param used     the group_by and filter references
     */
    List<Key> of(Collection<String> entities, String base, List<MetricCompiler.Ref> used) throws CompileException {
        Set<Key> keys = new LinkedHashSet<>();
        for (String name : entities) {
            Entity entity = entity(name);
            Table table = tables.of(entity);
            if (cells.personal().contains(table.name()) && table.column(entity.identity().get(0)).isPresent()) {
                keys.add(new Key(entity.name(), entity.identity().get(0)));
            }
        }
        for (MetricCompiler.Ref r : used) {
            if (personalKeys(r.entity()).contains(r.column().name())) {
                keys.add(new Key(r.entity().name(), r.column().name()));
            }
        }
        Entity own = entity(base);
        if (!cells.personal().contains(own.table())) {
            for (String column : personalKeys(own)) {
                keys.add(new Key(base, column));
            }
        }
        return List.copyOf(keys);
    }

    /** The columns of {@code entity} that hold the key of a row of a personal entity (many-to-one or one-to-one). */
    private List<String> personalKeys(Entity entity) throws CompileException {
        Table table = tables.of(entity);
        List<String> out = new ArrayList<>();
        for (Join j : model.joins()) {
            if (j.bridge() != null || j.on().isEmpty() || !j.connects(entity.name()) || j.sourceEntity().equals(j.targetEntity())) {
                continue;
            }
            boolean fromSource = j.sourceEntity().equals(entity.name());
            Cardinality walked = fromSource ? j.cardinality() : j.cardinality().reversed();
            if (walked != Cardinality.MANY_TO_ONE && walked != Cardinality.ONE_TO_ONE) {
                continue;
            }
            Optional<Entity> other = model.entity(j.other(entity.name()));
            if (other.isEmpty() || !cells.personal().contains(other.get().table())) {
                continue;
            }
            String column = fromSource ? j.on().get(0).source() : j.on().get(0).target();
            if (table.column(column).isPresent() && !out.contains(column)) {
                out.add(column);
            }
        }
        return out;
    }

    private Entity entity(String name) throws CompileException {
        return model.entity(name).orElseThrow(() -> new CompileException(Problem.SCHEMA_DRIFT, "The semantic layer refers to"
                + " entity " + name + ", which the index does not have; run schemabrain index, then apply the project again.",
                List.of()));
    }
}
