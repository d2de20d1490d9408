package dev.schemabrain.semantic;

import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.Flags;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.TypeClass;
import dev.schemabrain.pii.FreeText;
import dev.schemabrain.semantic.model.Entity;
import dev.schemabrain.semantic.model.Filter;
import dev.schemabrain.semantic.model.FilterOp;
import dev.schemabrain.semantic.model.Segment;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiPredicate;

/**
 * Draft segments from the filters the query log uses on an entity's own table: {@code status = 'paid'},
 * {@code status IN ('active', 'past_due')}, {@code deleted_at IS NULL}, {@code is_trial = true}. Never the default
 * (a default changes every number of the entity; only an operator decides that), never on a PII or sensitive column,
 * never with a value the catalog does not already show for the column (the miner replaced it, or the catalog no
 * longer lists it) unless the column is yes/no and the value true or false.
 */
final class ObservedSegments {

    /**
     * Distinct statements that must use a filter: one statement, however often it runs, is one report's detail; the
     * same filter written into two different queries is a way people slice the entity.
     */
    static final int MIN_STATEMENTS = 2;
    /** At most this many per entity, most used first: a short list an operator reads, not every WHERE clause. */
    static final int MAX_PER_ENTITY = 5;
    /** A column listing more indexed values than this is not categorical enough to slice by (as the miner keeps). */
    private static final int FEW_VALUES = 20;

    private ObservedSegments() {
    }

    /**
     * @param observed  filters the query log shows, any table
     * @param sensitive whether a column is PII-tagged or above internal sensitivity
     */
    static List<Segment> of(Entity e, Table t, List<QueryLogFilter> observed, BiPredicate<QualifiedName, String> sensitive) {
        Set<String> taken = new HashSet<>();
        e.segments().forEach(s -> taken.add(s.name()));
        List<Segment> out = new ArrayList<>();
        Set<Filter> proposed = new HashSet<>();
        List<QueryLogFilter> mostUsed = observed.stream()
                .filter(f -> f.table().equals(e.table()) && f.statements() >= MIN_STATEMENTS)
                .sorted(Comparator.comparingInt(QueryLogFilter::statements).reversed()
                        .thenComparing(Comparator.comparingLong(QueryLogFilter::observations).reversed())
                        .thenComparing(f -> f.column() + " " + f.operator() + " " + f.values()))
                .toList();
        for (QueryLogFilter f : mostUsed) {
            if (out.size() >= MAX_PER_ENTITY) {
                break;
            }
            Optional<Filter> filter = filter(e, t, f, sensitive);
            if (filter.isEmpty() || redundant(e, filter.get()) || !proposed.add(filter.get())) {
                continue;
            }
            Column c = t.column(f.column()).orElseThrow();
            String name = SemanticInference.identifier(c.name() + "_" + words(filter.get(), c));
            String candidate = name;
            for (int i = 2; !taken.add(candidate); i++) {
                candidate = SemanticInference.fit(name + "_" + i);
            }
            out.add(new Segment(candidate, "Where " + describe(filter.get()) + " (observed in the query log)",
                    List.of(filter.get()), false, new Segment.Observed(f.statements(), f.observations(), f.lastSeen())));
        }
        return out;
    }

    /** The observed filter as a filter of the entity, when it is safe and means something; values as the catalog has them. */
    private static Optional<Filter> filter(Entity e, Table t, QueryLogFilter f, BiPredicate<QualifiedName, String> sensitive) {
        Column c = t.column(f.column()).orElse(null);
        FilterOp op = operator(f.operator());
        if (c == null || op == null || sensitive.test(t.name(), c.name()) || FreeText.is(c)) {
            return Optional.empty();
        }
        String ref = e.name() + "." + c.name();
        if (!op.takesValue()) {
            // On a column that is never null, the test selects every row or none: no slice.
            return c.nullable() && f.values().isEmpty() ? Optional.of(new Filter(ref, op, null)) : Optional.empty();
        }
        if (Flags.is(c)) {
            // A yes/no column: = true or = false, bound in the column's own type (a boolean, or 1/0 in a number column).
            Optional<Boolean> truth = op == FilterOp.EQ && f.values().size() == 1 ? Flags.truth(f.values().get(0)) : Optional.empty();
            return truth.map(v -> new Filter(ref, FilterOp.EQ, Flags.value(c, v)));
        }
        TypeClass type = TypeClass.of(c);
        if (f.values().isEmpty() || type != TypeClass.TEXT && type != TypeClass.CATEGORICAL) {
            return Optional.empty();   // the values were replaced: nothing to name a segment by
        }
        Set<String> known = knownValues(c);
        Set<String> values = new LinkedHashSet<>();
        for (String literal : f.values()) {
            String v = unquote(literal);
            if (v == null || !known.contains(v)) {
                return Optional.empty();
            }
            values.add(v);
        }
        if (op.takesList()) {
            return Optional.of(new Filter(ref, op, List.copyOf(values)));
        }
        return values.size() == 1 ? Optional.of(new Filter(ref, op, values.iterator().next())) : Optional.empty();
    }

    /** Already applied by a default segment, or already a segment of its own. */
    private static boolean redundant(Entity e, Filter filter) {
        return e.segments().stream().anyMatch(s -> s.isDefault() && s.filters().contains(filter)
                || s.filters().equals(List.of(filter)));
    }

    private static Set<String> knownValues(Column c) {
        if (c.domain() != null && c.domain().listed()) {
            return Set.copyOf(c.domain().values());
        }
        return c.values().size() <= FEW_VALUES ? Set.copyOf(c.values()) : Set.of();
    }

    private static FilterOp operator(String sql) {
        return switch (sql.strip().toLowerCase(Locale.ROOT).replaceAll("\\s+", " ")) {
            case "=" -> FilterOp.EQ;
            case "<>", "!=" -> FilterOp.NE;
            case "in" -> FilterOp.IN;
            case "not in" -> FilterOp.NOT_IN;
            case "is null" -> FilterOp.IS_NULL;
            case "is not null" -> FilterOp.NOT_NULL;
            default -> null;
        };
    }

    /** A plain single-quoted literal's content; null for anything else. */
    private static String unquote(String literal) {
        if (literal == null || literal.length() < 2 || literal.charAt(0) != '\'' || !literal.endsWith("'")
                || literal.indexOf('\\') >= 0) {
            return null;
        }
        return literal.substring(1, literal.length() - 1).replace("''", "'");
    }

    /** The name's tail: {@code paid}, {@code not_paid}, {@code active_past_due}, {@code is_null}, {@code not_null}, {@code false}. */
    private static String words(Filter f, Column c) {
        String values = f.value() instanceof List<?> list ? String.join("_", list.stream().map(String::valueOf).toList())
                : Flags.is(c) ? Flags.truth(String.valueOf(f.value())).map(String::valueOf).orElse("") : String.valueOf(f.value());
        return switch (f.op()) {
            case IS_NULL -> "is_null";
            case NOT_NULL -> "not_null";
            case NE, NOT_IN -> "not_" + values;
            default -> values;
        };
    }

    /** {@code invoice.status = paid}, {@code invoice.status in (active, past_due)}, {@code invoice.deleted_at is null}. */
    static String describe(Filter f) {
        return switch (f.op()) {
            case IS_NULL -> f.column() + " is null";
            case NOT_NULL -> f.column() + " is not null";
            case IN, NOT_IN -> f.column() + " " + f.op().wireName().replace('_', ' ') + " ("
                    + String.join(", ", ((List<?>) f.value()).stream().map(String::valueOf).toList()) + ")";
            case NE -> f.column() + " <> " + f.value();
            default -> f.column() + " = " + f.value();
        };
    }
}
