package dev.schemabrain.semantic;

import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.TypeClass;
import dev.schemabrain.semantic.model.Aggregation;
import dev.schemabrain.semantic.model.Entity;
import dev.schemabrain.semantic.model.Measure;
import dev.schemabrain.semantic.model.Metric;
import dev.schemabrain.semantic.model.Origin;
import dev.schemabrain.semantic.model.TimeGrain;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The metrics an analyst would draft for one entity (issue 19): the count of its rows and of its distinct
 * identities; a sum of each amount, quantity or total and an average of each money total (average order value);
 * an average of each price, rate, percentage or duration ({@link MeasureMeaning}); and, on a line item with a price
 * and a quantity but no amount of its own, its revenue as an expression ({@code unit_price * quantity}, times
 * {@code (1 - discount)} when a discount rate sits beside them). Each takes the entity's default time dimension.
 */
final class MetricDrafts {

    private final Entity entity;
    private final Table table;
    private final String time;
    private final String dated;
    private final List<Metric> out = new ArrayList<>();
    private final Set<String> names = new HashSet<>();

    private MetricDrafts(Entity entity, Table table, TimeAxis axis) {
        this.entity = entity;
        this.table = table;
        Optional<TimeAxis.Candidate> chosen = axis.chosen();
        this.time = chosen.map(TimeAxis.Candidate::reference).orElse(null);
        this.dated = chosen.map(c -> ", dated by " + c.reference()
                + (c.joins().isEmpty() ? "" : " (through " + String.join(", ", c.joins()) + ")")).orElse("");
    }

    static List<Metric> of(Entity entity, Table table, TimeAxis axis) {
        MetricDrafts drafts = new MetricDrafts(entity, table, axis);
        drafts.draft();
        return List.copyOf(drafts.out);
    }

    private void draft() {
        String things = entity.name().replace('_', ' ');
        String key = countedColumn();
        add("count", "Number of " + things + " rows", Measure.of(Aggregation.COUNT, key));
        if (entity.identity().size() == 1) {
            add("distinct_count", "Number of distinct " + things + " by " + key + ", each counted once even where a join repeats it",
                    Measure.of(Aggregation.COUNT_DISTINCT, key));
        }
        Optional<String> revenue = revenue();
        revenue.ifPresent(expression -> add("revenue", "Revenue of " + things + " rows (" + expression.replace("*", "×")
                + ") summed", new Measure(Aggregation.SUM, null, expression)));
        for (Column c : table.columns()) {
            String words = c.name().replace('_', ' ');
            switch (MeasureMeaning.of(table, c)) {
                case ADDITIVE -> {
                    add(SemanticInference.identifier(c.name()) + "_sum", "Sum of " + words + " over " + things + " rows",
                            Measure.of(Aggregation.SUM, c.name()));
                    if (MeasureMeaning.isMoneyTotal(c)) {
                        add(SemanticInference.identifier(c.name()) + "_avg", "Average " + words + " per " + things + " row",
                                Measure.of(Aggregation.AVG, c.name()));
                    }
                }
                case AVERAGED -> {
                    if (revenue.isEmpty() || !MeasureMeaning.isPrice(c)) {   // a line's price is in its revenue
                        add(SemanticInference.identifier(c.name()) + "_avg", "Average " + words + " over " + things + " rows",
                                Measure.of(Aggregation.AVG, c.name()));
                    }
                }
                case NONE -> {
                }
            }
        }
    }

    /** What a count counts: an identity column that is not a date (Pagila's payment key leads with payment_date). */
    private String countedColumn() {
        return entity.identity().stream()
                .filter(n -> table.column(n).map(c -> TypeClass.of(c) != TypeClass.TEMPORAL).orElse(false))
                .findFirst().orElse(entity.identity().get(0));
    }

    /** price × quantity (× (1 − discount)) on a line without an amount or total of its own. */
    private Optional<String> revenue() {
        List<Column> columns = table.columns();
        if (columns.stream().anyMatch(c -> MeasureMeaning.of(table, c) == MeasureMeaning.ADDITIVE && MeasureMeaning.isMoneyTotal(c))) {
            return Optional.empty();
        }
        Optional<Column> price = columns.stream()
                .filter(c -> MeasureMeaning.isPrice(c) && MeasureMeaning.of(table, c) == MeasureMeaning.AVERAGED).findFirst();
        Optional<Column> quantity = columns.stream()
                .filter(c -> MeasureMeaning.isQuantity(c) && MeasureMeaning.of(table, c) == MeasureMeaning.ADDITIVE).findFirst();
        if (price.isEmpty() || quantity.isEmpty()) {
            return Optional.empty();
        }
        Optional<Column> discount = columns.stream()
                .filter(c -> MeasureMeaning.isDiscountRate(c) && MeasureMeaning.of(table, c) == MeasureMeaning.AVERAGED).findFirst();
        String line = price.get().name() + " * " + quantity.get().name();
        return Optional.of(discount.map(d -> line + " * (1 - " + d.name() + ")").orElse(line));
    }

    private void add(String suffix, String sentence, Measure measure) {
        String base = SemanticInference.identifier(entity.name() + "_" + suffix);
        String name = base;
        for (int i = 2; !names.add(name); i++) {
            name = SemanticInference.fit(base + "_" + i);
        }
        List<TimeGrain> grains = time == null ? List.of() : Arrays.asList(TimeGrain.values());
        out.add(new Metric(name, sentence + dated + ".", entity.name(), measure, time, grains, List.of(), Origin.HEURISTIC_DRAFT));
    }
}
