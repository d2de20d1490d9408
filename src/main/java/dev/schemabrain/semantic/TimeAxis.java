package dev.schemabrain.semantic;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.semantic.model.Entity;
import dev.schemabrain.semantic.model.SemanticModel;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The time dimensions a metric over an entity can be bucketed by: its own event-time columns and those of the
 * entities its rows are lines of ({@link Parents}, {@link #partOf}: an order line takes its order's order_date), best first. Named
 * events beat generic dates, then nearer beats farther, then the better name. The first is the default unless the
 * next is as good on another entity: then the caller must choose ({@link #tied()}).
 */
public record TimeAxis(List<Candidate> candidates, boolean tied) {

    /**
     * One possible time dimension.
     *
     * @param joins the joins walked from the metric's entity to {@code entity} (empty for its own column)
     */
    public record Candidate(String entity, String column, List<String> joins, int score) {
        public Candidate {
            joins = List.copyOf(joins);
        }

        public String reference() {
            return entity + "." + column;
        }

        private boolean named() {
            return score >= EventTime.GENERIC;
        }
    }

    public TimeAxis {
        candidates = List.copyOf(candidates);
    }

    private static final Comparator<Candidate> BEST_FIRST = Comparator.comparing((Candidate c) -> !c.named())
            .thenComparingInt(c -> c.joins().size()).thenComparingInt(c -> -c.score());

    public static TimeAxis of(Catalog catalog, SemanticModel model, String entity) {
        List<Candidate> candidates = new ArrayList<>();
        for (Parents.Reached r : Parents.of(model, entity)) {
            if (r.ambiguous() || !partOf(catalog, model, entity, r.joins())) {
                continue;   // via would be needed, or the rows only refer to it (a customer's support rep's hire date)
            }
            Optional<Table> table = model.entity(r.entity()).map(Entity::table).flatMap(catalog::table);
            if (table.isEmpty()) {
                continue;
            }
            for (Column c : EventTime.candidates(table.get())) {
                candidates.add(new Candidate(r.entity(), c.name(), r.joins(), EventTime.score(table.get(), c).getAsInt()));
            }
        }
        candidates.sort(BEST_FIRST);   // stable: equal candidates keep the walk's and the table's order
        boolean tied = candidates.size() > 1 && BEST_FIRST.compare(candidates.get(0), candidates.get(1)) == 0
                && !candidates.get(0).entity().equals(candidates.get(1).entity());
        return new TimeAxis(candidates, tied);
    }

    /**
     * Whether each row of {@code base} is part of a row at the end of {@code joins}, so that row's event dates it: every
     * join is walked from a row that cannot exist without its partner (its key columns are NOT NULL) and that is a
     * line of it (the key lies in its primary key, as Northwind's order_details, or its name says line, item, detail
     * or entry, as invoice_line). A customer's nullable support_rep_id does not make the rep's hire date the customer's.
     */
    private static boolean partOf(Catalog catalog, SemanticModel model, String base, List<String> joins) {
        return Parents.everyStep(model, catalog::table, base, joins, (child, key) -> Parents.keyNeverNull(child, key)
                && (child.primaryKey().containsAll(key) || LINE.matcher(child.name().table().toLowerCase(Locale.ROOT)).find()));
    }

    private static final Pattern LINE = Pattern.compile("(^|_)(line|lines|item|items|detail|details|entry|entries|position|positions)(_|$)");

    /** The default time dimension: the best candidate, unless two entities tie for it. */
    public Optional<Candidate> chosen() {
        return tied || candidates.isEmpty() ? Optional.empty() : Optional.of(candidates.get(0));
    }

    /** The candidates that tie for best, when {@link #tied()}. */
    public List<Candidate> best() {
        if (candidates.isEmpty()) {
            return List.of();
        }
        return candidates.stream().filter(c -> BEST_FIRST.compare(c, candidates.get(0)) == 0).toList();
    }
}
