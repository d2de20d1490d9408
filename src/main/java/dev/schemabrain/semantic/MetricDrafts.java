package dev.schemabrain.semantic;

import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.ForeignKey;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.TypeClass;
import dev.schemabrain.semantic.model.Aggregation;
import dev.schemabrain.semantic.model.Entity;
import dev.schemabrain.semantic.model.Filter;
import dev.schemabrain.semantic.model.FilterOp;
import dev.schemabrain.semantic.model.Measure;
import dev.schemabrain.semantic.model.Metric;
import dev.schemabrain.semantic.model.NonAdditive;
import dev.schemabrain.semantic.model.Segment;
import dev.schemabrain.semantic.model.Origin;
import dev.schemabrain.semantic.model.SemanticModel;
import dev.schemabrain.semantic.model.TimeGrain;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The metrics an analyst would draft for one entity: the count of its rows; a sum of each amount, quantity
 * or total and an average of each money total (average order value); an average of each price, rate, percentage or
 * duration ({@link MeasureMeaning}); a snapshot (balance, MRR, stock) summed on an undated entity, averaged on a dated
 * one, and on a table of snapshots ({@link SnapshotMoment}) also summed at each thing's last snapshot of the period;
 * and, on a line item with a price and a quantity but no amount of its own, its revenue as an expression
 * ({@code unit_price * quantity}, times {@code (1 - discount)} when a discount rate sits beside them). Each takes the
 * entity's default time dimension and the filters its rows' signals call for ({@link RowSignals}, its own and those of
 * the rows it is a line of): money counts only settled statuses, test and soft-deleted rows never count, and an
 * amount beside a currency says to group by it. No count_distinct of a single-column key: on its own table it is the
 * count again, and across a join that repeats rows the compiler flags the count as fan_out_join.
 */
final class MetricDrafts {

    /** How a measure relates to the entity's status: what it is filtered to, if anything. */
    private enum Kind { COUNT, ATTRIBUTE, FLOW, RECEIVABLE, SNAPSHOT }

    private final Entity entity;
    private final Table table;
    private final String time;
    private final String dated;
    /** The snapshot a level on this table is read at, when its own time column is a snapshot's moment. */
    private final Optional<NonAdditive> snapshot;
    private final Optional<RowSignals.Status> status;
    private final List<RowSignals.Exclusion> exclusions = new ArrayList<>();
    private final Optional<String> currency;
    private final Optional<String> onlyCurrency;
    /** What a line with a price sells: its parents' entities other than the rows it is a line of ("track"). */
    private final List<String> sold;
    private final List<Metric> out = new ArrayList<>();
    private final Set<String> names = new HashSet<>();

    private MetricDrafts(Entity entity, Table table, TimeAxis axis, SemanticModel structure, Map<QualifiedName, Table> tables,
                         Map<QualifiedName, Entity> entities) {
        this.entity = entity;
        this.table = table;
        Optional<TimeAxis.Candidate> chosen = axis.chosen();
        this.time = chosen.map(TimeAxis.Candidate::reference).orElse(null);
        this.snapshot = chosen.filter(c -> c.joins().isEmpty()).flatMap(c -> SnapshotMoment.of(table, c.column()));
        this.dated = chosen.map(c -> ", dated by " + c.reference()
                + (c.joins().isEmpty() ? "" : " (through " + String.join(", ", c.joins()) + ")")).orElse("");
        // The rows this entity's rows are lines of (an item of its booking): a void booking's lines are void too.
        List<RowSignals> signals = new ArrayList<>();
        signals.add(RowSignals.of(entity.name(), table));
        axis.candidates().stream().map(TimeAxis.Candidate::entity).filter(e -> !e.equals(entity.name())).distinct()
                .forEach(e -> structure.entity(e).map(Entity::table).map(tables::get)
                        .ifPresent(t -> signals.add(RowSignals.of(e, t))));
        signals.forEach(s -> exclusions.addAll(s.exclusions()));
        testParents(structure, tables).forEach(x -> {
            if (exclusions.stream().noneMatch(e -> e.filter().equals(x.filter()))) {
                exclusions.add(x);
            }
        });
        // A level read at a moment is not undone by what its header's status says now (a lease ended since).
        this.status = (snapshot.isPresent() ? signals.subList(0, 1) : signals).stream().flatMap(s -> s.status().stream()).findFirst();
        Optional<AmountCurrency> money = signals.stream().filter(s -> s.currency().isPresent()).findFirst()
                .map(s -> new AmountCurrency(s.currency().get(), s.currencies()))
                .or(() -> AmountCurrency.ofParent(structure, q -> Optional.ofNullable(tables.get(q)), entity.name()));
        this.currency = money.map(AmountCurrency::reference);
        this.onlyCurrency = money.flatMap(AmountCurrency::only);
        Set<String> headers = new HashSet<>();
        axis.candidates().forEach(c -> headers.add(c.entity()));
        this.sold = table.foreignKeys().stream().map(fk -> entities.get(fk.target())).filter(e -> e != null)
                .map(Entity::name).filter(e -> !e.equals(entity.name()) && !headers.contains(e)).distinct()
                .map(e -> e.replace('_', ' ')).toList();
    }

    /**
     * @param structure the entities and joins (the headers' entities are looked up by name)
     * @param tables    every table by name
     * @param entities  the entity of each table that has one (a parent's currency is looked up by table)
     */
    static Drafted of(Entity entity, Table table, TimeAxis axis, SemanticModel structure, Map<QualifiedName, Table> tables,
                      Map<QualifiedName, Entity> entities) {
        MetricDrafts drafts = new MetricDrafts(entity, table, axis, structure, tables, entities);
        drafts.draft();
        Optional<Segment> live = drafts.exclusions.isEmpty() ? Optional.empty() : Optional.of(new Segment(LIVE_SEGMENT,
                "Leaves out " + String.join(" and ", drafts.exclusions.stream().map(RowSignals.Exclusion::phrase).toList())
                        + "; pass default_segments: false to count them", drafts.exclusions.stream().map(RowSignals.Exclusion::filter)
                        .toList(), true));
        return new Drafted(List.copyOf(drafts.out), live);
    }

    /** The default segment of a drafted entity: the rows its signals say are not real (test rows, soft-deleted rows). */
    static final String LIVE_SEGMENT = "live";

    /** An entity's drafts, and the default segment every one of them is read through. */
    record Drafted(List<Metric> metrics, Optional<Segment> live) {
    }

    /**
     * The test flags of the rows this entity's rows cannot exist without: each parent reached by one shortest path of
     * many-to-one steps whose keys are NOT NULL (a refund's order's restaurant). A test restaurant's orders, their
     * lines, refunds and reviews are not real either. A nullable reference is not followed (an order without a courier
     * would be dropped by the join), nor an ambiguous one (the filter could not say which path it means).
     */
    private List<RowSignals.Exclusion> testParents(SemanticModel structure, Map<QualifiedName, Table> tables) {
        List<RowSignals.Exclusion> out = new ArrayList<>();
        for (Parents.Reached r : Parents.of(structure, entity.name())) {
            if (r.distance() == 0 || r.ambiguous()
                    || !Parents.required(structure, q -> Optional.ofNullable(tables.get(q)), entity.name(), r.joins())) {
                continue;
            }
            structure.entity(r.entity()).map(Entity::table).map(tables::get).ifPresent(t ->
                    RowSignals.of(r.entity(), t).exclusions().stream().filter(RowSignals.Exclusion::test).forEach(out::add));
        }
        return out;
    }

    private void draft() {
        String things = entity.name().replace('_', ' ');
        String key = countedColumn();
        add("count", "Number of " + things + " rows", Measure.of(Aggregation.COUNT, key), Kind.COUNT, false);
        Optional<String> revenue = revenue();
        revenue.ifPresent(expression -> add("revenue", "Sales revenue of " + things + " rows (" + expression.replace("*", "×")
                + ") summed", new Measure(Aggregation.SUM, null, expression), Kind.FLOW, true));
        for (Column c : table.columns()) {
            // An amount whose name states its currency (label_cost_usd) is in that currency, not the row's.
            String words = c.name().replace('_', ' ') + AmountCurrency.named(c).map(code -> " (in " + code + ")").orElse("");
            String id = SemanticInference.identifier(c.name());
            boolean money = MeasureMeaning.isMoney(c) && AmountCurrency.named(c).isEmpty();
            switch (MeasureMeaning.of(table, c)) {
                case ADDITIVE -> {
                    Kind kind = MeasureMeaning.isReceivable(c) ? Kind.RECEIVABLE : Kind.FLOW;
                    add(id + "_sum", unitsSold(c) ? "Units sold: sum of " + words + " over " + things + " rows, the units of "
                                    + (sold.isEmpty() ? "what they sell" : String.join(" and ", sold) + " they sell")
                                    : "Sum of " + words + " over " + things + " rows", Measure.of(Aggregation.SUM, c.name()), kind, money);
                    if (MeasureMeaning.isMoneyTotal(c)) {
                        add(id + "_avg", "Average " + words + " per " + things + " row", Measure.of(Aggregation.AVG, c.name()), kind, money);
                    }
                }
                case AVERAGED -> {
                    if (time != null && !money && MeasureMeaning.isExtent(c)) {
                        // On a dated fact an extent flows, counted over the rows that went through, like an amount.
                        add(id + "_sum", "Total " + words + " over " + things + " rows", Measure.of(Aggregation.SUM, c.name()),
                                Kind.FLOW, false);
                        add(id + "_avg", "Average " + words + " per " + things + " row", Measure.of(Aggregation.AVG, c.name()),
                                Kind.FLOW, false);
                    } else if (revenue.isEmpty() || !MeasureMeaning.isPrice(c)) {   // a line's price is in its revenue
                        add(id + "_avg", "Average " + words + " over " + things + " rows", Measure.of(Aggregation.AVG, c.name()),
                                Kind.ATTRIBUTE, money);
                    }
                }
                case SNAPSHOT -> {
                    if (time == null) {   // things, each at its current level: their total is a current total
                        add(id + "_sum", "Current total of " + words + " over " + things + " rows",
                                Measure.of(Aggregation.SUM, c.name()), Kind.SNAPSHOT, money);
                    } else {
                        snapshot.ifPresent(n -> add(id + "_sum", "Total of " + words + " at the last " + n.column()
                                + (n.groupings().isEmpty() ? "" : " of each " + String.join(", ", n.groupings()))
                                + " in the period, summed over " + things + " rows (a level at a moment: summed across "
                                + (n.groupings().isEmpty() ? "the rows of one moment" : String.join(", ", n.groupings()))
                                + ", never over time)", new Measure(Aggregation.SUM, c.name(), null, n), Kind.SNAPSHOT, money));
                        add(id + "_avg", "Average " + words + " over " + things + " rows (a level at a moment: never summed"
                                + " over time)", Measure.of(Aggregation.AVG, c.name()), Kind.SNAPSHOT, money);
                    }
                }
                case NONE -> {
                }
            }
        }
    }

    /** A quantity beside a price is how many units the line sold: the words a question about sales uses. */
    private boolean unitsSold(Column c) {
        return MeasureMeaning.isQuantity(c) && table.columns().stream()
                .anyMatch(p -> MeasureMeaning.isPrice(p) && MeasureMeaning.of(table, p) == MeasureMeaning.AVERAGED);
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

    private void add(String suffix, String sentence, Measure measure, Kind kind, boolean money) {
        String base = SemanticInference.identifier(entity.name() + "_" + suffix);
        String name = base;
        for (int i = 2; !names.add(name); i++) {
            name = SemanticInference.fit(base + "_" + i);
        }
        List<TimeGrain> grains = time == null ? List.of() : Arrays.asList(TimeGrain.values());
        List<Filter> filters = new ArrayList<>();
        StringBuilder text = new StringBuilder(sentence).append(dated).append('.');
        status.ifPresent(s -> text.append(statusClause(s, kind, filters)));
        if (!exclusions.isEmpty()) {
            text.append(" Excludes ").append(String.join(" and ", exclusions.stream().map(RowSignals.Exclusion::phrase).toList()))
                    .append(" (the default segment ").append(LIVE_SEGMENT).append(").");
        }
        if (money && currency.isPresent()) {
            String c = currency.get();
            text.append(onlyCurrency.map(only -> " All in " + only + " (" + c + ").")
                    .orElse(" In the currency of " + c + ": group or filter by " + c + "; never add amounts in different currencies."));
        }
        out.add(new Metric(name, text.toString(), entity.name(), measure, time, grains, filters, Origin.HEURISTIC_DRAFT));
    }

    /** The status filter a measure of this kind takes, said plainly; or, when none fits, that it spans every status. */
    private static String statusClause(RowSignals.Status s, Kind kind, List<Filter> filters) {
        String ref = s.reference();
        String known = s.values().isEmpty() ? "its values are unknown" : String.join(", ", s.values());
        List<String> kept = switch (kind) {
            case FLOW -> s.settled();
            case SNAPSHOT -> s.live();
            default -> List.of();
        };
        if (!kept.isEmpty()) {
            filters.add(new Filter(ref, FilterOp.IN, kept));
            List<String> notes = new ArrayList<>();
            if (!s.others(kept).isEmpty()) {
                notes.add(String.join(", ", s.others(kept)) + " excluded");
            }
            if (!s.source().equals("declared")) {
                notes.add("values as " + s.source() + ", so a rare one may be missing");   // a declared list is complete
            }
            return " Includes only rows whose " + ref + " is " + String.join(" or ", kept)
                    + (notes.isEmpty() ? "" : " (" + String.join("; ", notes) + ")") + ".";
        }
        return switch (kind) {
            case COUNT, ATTRIBUTE -> " Spans every " + ref + " (" + known + ").";
            case RECEIVABLE -> " Spans every " + ref + " (" + known + "): filter " + ref + " to the rows still owed.";
            default -> " Spans every " + ref + " (" + known + "): no " + (kind == Kind.SNAPSHOT ? "active" : "settled")
                    + " value is recognisable, so filter " + ref + " to the rows that count.";
        };
    }
}
