package dev.schemabrain.semantic.compile;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.Domain;
import dev.schemabrain.catalog.Fuzzy;
import dev.schemabrain.catalog.NameSyntax;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.TypeClass;
import dev.schemabrain.engine.Dialect;
import dev.schemabrain.semantic.TimeAxis;
import dev.schemabrain.semantic.compile.CompiledMetric.ColumnRef;
import dev.schemabrain.semantic.compile.CompiledMetric.ColumnRef.Role;
import dev.schemabrain.semantic.compile.CompiledMetric.Degradation;
import dev.schemabrain.semantic.model.Aggregation;
import dev.schemabrain.semantic.model.Entity;
import dev.schemabrain.semantic.model.Filter;
import dev.schemabrain.semantic.model.FilterOp;
import dev.schemabrain.semantic.model.Metric;
import dev.schemabrain.semantic.model.SemanticModel;
import dev.schemabrain.semantic.model.TimeGrain;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Compiles a metric request into one SELECT (SPEC §7). Every identifier in the statement comes from
 * the catalog (a reference the caller wrote is only used to look one up) and is quoted; every value
 * the caller gave is a bound parameter; there is always a LIMIT and never a {@code ;}. Result columns
 * are aliased by position, so no caller text reaches the SQL even as an alias.
 * <p>
 * Joins walked towards "one" (many_to_one, one_to_one) are LEFT JOINs, so a row with no partner still
 * counts (in a NULL group); joins that fan out are INNER JOINs, and a sum, count or average across one
 * is degraded with {@code fan_out_join} (a count_distinct, min or max is not inflated by repeats).
 */
public final class MetricCompiler {

    private static final Set<Aggregation> INFLATED_BY_FAN_OUT = EnumSet.of(Aggregation.SUM, Aggregation.COUNT, Aggregation.AVG);
    private static final String TIME_BUCKET = "time_bucket";

    private final Catalog catalog;
    private final SemanticModel model;
    private final PathFinder paths;

    public MetricCompiler(Catalog catalog, SemanticModel model) {
        this.catalog = catalog;
        this.model = model;
        this.paths = new PathFinder(model);
    }

    /** Without small-cell suppression (the semantic layer's own checks, dry answers in tests). */
    public CompiledMetric compile(MetricRequest request, Dialect dialect) throws CompileException {
        return compile(request, dialect, SmallCells.OFF);
    }

    /** With {@code cells}: a group of fewer distinct people than its minimum gets NULL and the flag 1. */
    public CompiledMetric compile(MetricRequest request, Dialect dialect, SmallCells cells) throws CompileException {
        Metric metric = model.metric(request.metric()).orElseThrow(() -> new CompileException(Problem.UNKNOWN_METRIC,
                "There is no metric named '" + NameSyntax.excerpt(request.metric()) + "'; list_metrics shows the metrics there are.",
                Fuzzy.best(request.metric(), model.metrics().stream().map(Metric::name).toList(), Fuzzy.DEFAULT_LIMIT)));
        if (request.limit() < 1 || request.limit() > MetricRequest.MAX_LIMIT) {
            throw new CompileException(Problem.INVALID_ARGUMENT, "limit must lie between 1 and " + MetricRequest.MAX_LIMIT
                    + "; got " + request.limit() + ".", List.of());
        }
        Entity base = entity(metric.entity());
        Table baseTable = table(base);

        List<Ref> groups = new ArrayList<>();
        for (String g : request.groupBy()) {
            groups.add(reference(g, Problem.UNKNOWN_GROUP_BY_COLUMN, "group_by"));
        }
        List<Ref> filterRefs = new ArrayList<>();
        List<Filter> filters = new ArrayList<>(metric.filters());
        filters.addAll(request.filters());
        for (Filter f : filters) {
            filterRefs.add(reference(f.column(), Problem.UNKNOWN_FILTER_COLUMN, "filter"));
        }
        TimeGrain grain = grain(request.timeGrain(), metric);
        Optional<Ref> time = Optional.empty();
        Optional<Degradation> degradation = Optional.empty();
        if (grain != null) {
            time = timeDimension(request.timeDimension(), metric, base);
            if (time.isEmpty()) {
                degradation = Optional.of(Degradation.TIME_DIMENSION_UNAVAILABLE);
            }
        }

        // Plan the joins: one path from the metric's entity to every entity referenced.
        Set<String> needed = new LinkedHashSet<>();
        time.ifPresent(t -> needed.add(t.entity().name()));
        groups.forEach(g -> needed.add(g.entity().name()));
        filterRefs.forEach(f -> needed.add(f.entity().name()));
        needed.remove(base.name());
        List<PathFinder.Step> steps = paths.plan(base.name(), needed, request.via());

        Map<String, String> alias = new LinkedHashMap<>();
        alias.put(base.name(), "t0");
        List<ColumnRef> touched = new ArrayList<>();
        StringBuilder from = new StringBuilder(" FROM ").append(qualified(dialect, baseTable.name())).append(" AS ")
                .append(dialect.quote("t0"));
        List<String> requiredJoins = new ArrayList<>();
        List<String> fanOut = new ArrayList<>();
        for (PathFinder.Step step : steps) {
            if (alias.containsKey(step.to())) {
                continue;
            }
            String fromAlias = alias.get(step.from());
            String toAlias = "t" + alias.size();
            alias.put(step.to(), toAlias);
            Table toTable = table(entity(step.to()));
            Table fromTable = table(entity(step.from()));
            boolean fans = step.walked().fansOut();
            String kind = fans ? " JOIN " : " LEFT JOIN ";
            requiredJoins.add(step.join().name());
            if (fans) {
                fanOut.add(step.join().name());
            }
            if (step.join().bridge() == null) {
                from.append(kind).append(qualified(dialect, toTable.name())).append(" AS ").append(dialect.quote(toAlias))
                        .append(" ON ").append(on(dialect, fromAlias, fromTable, toAlias, toTable, step.pairs(), touched));
            } else {
                var bridge = step.forward() ? step.join().bridge() : step.join().bridge().reversed();
                Table link = catalog.table(bridge.table()).orElseThrow(() -> drift("the link table " + bridge.table()));
                String linkAlias = toAlias + "_link";
                from.append(kind).append(qualified(dialect, link.name())).append(" AS ").append(dialect.quote(linkAlias))
                        .append(" ON ").append(on(dialect, fromAlias, fromTable, linkAlias, link, bridge.sourceOn(), touched))
                        .append(kind).append(qualified(dialect, toTable.name())).append(" AS ").append(dialect.quote(toAlias))
                        .append(" ON ").append(on(dialect, linkAlias, link, toAlias, toTable, bridge.targetOn(), touched));
            }
        }
        if (!fanOut.isEmpty() && INFLATED_BY_FAN_OUT.contains(metric.measure().agg()) && degradation.isEmpty()) {
            degradation = Optional.of(Degradation.FAN_OUT_JOIN);
        }

        List<String> keys = new ArrayList<>();
        List<String> selected = new ArrayList<>();
        List<String> grouped = new ArrayList<>();
        if (grain != null && time.isPresent()) {
            Ref t = time.get();
            String bucket = bucket(dialect, column(dialect, alias, t), grain);
            touched.add(new ColumnRef(t.table().name(), t.column().name(), Role.TIME_DIMENSION));
            keys.add(TIME_BUCKET);
            selected.add(bucket);
            grouped.add(bucket);
        }
        for (Ref g : groups) {
            keys.add(g.written());
            selected.add(column(dialect, alias, g));
            grouped.add(column(dialect, alias, g));
            touched.add(new ColumnRef(g.table().name(), g.column().name(), Role.GROUP_BY));
        }
        keys.add(metric.name());
        String value = measure(dialect, metric, baseTable, touched);
        List<String> subjects = new ArrayList<>();
        List<Ref> used = new ArrayList<>(groups);
        used.addAll(filterRefs);
        String small = cells.active() ? smallGroup(dialect, alias, cells, base.name(), used, from, subjects) : null;
        if (small == null) {
            selected.add(value);
        } else {
            // The value is replaced inside the database: a suppressed group's number never leaves it.
            selected.add("CASE WHEN " + small + " THEN NULL ELSE " + value + " END");
            selected.add("CASE WHEN " + small + " THEN 1 ELSE 0 END");
        }
        StringBuilder sql = new StringBuilder("SELECT ");
        for (int i = 0; i < selected.size(); i++) {
            sql.append(i == 0 ? "" : ", ").append(selected.get(i)).append(" AS ").append(dialect.quote("c" + i));
        }
        StringBuilder body = new StringBuilder(from);
        List<Object> params = new ArrayList<>();
        for (int i = 0; i < filters.size(); i++) {
            Ref r = filterRefs.get(i);
            body.append(i == 0 ? " WHERE " : " AND ")
                    .append(condition(dialect, column(dialect, alias, r), r, filters.get(i), params));
            touched.add(new ColumnRef(r.table().name(), r.column().name(), Role.FILTER, filters.get(i).op()));
        }
        Optional<String> groupCount = Optional.empty();
        if (!grouped.isEmpty()) {
            body.append(" GROUP BY ").append(String.join(", ", grouped));
            // How many groups there are, for an answer the limit cuts: the same FROM, WHERE and GROUP BY, counted
            // (and, under suppression, how many of them are suppressed).
            String inner = small == null ? String.join(", ", grouped) : "CASE WHEN " + small + " THEN 1 ELSE 0 END AS "
                    + dialect.quote("f");
            groupCount = Optional.of("SELECT COUNT(*) AS " + dialect.quote("c0")
                    + (small == null ? "" : ", SUM(" + dialect.quote("g") + "." + dialect.quote("f") + ") AS " + dialect.quote("c1"))
                    + " FROM (SELECT " + inner + body + ") AS " + dialect.quote("g") + " LIMIT 1");
        }
        sql.append(body);
        List<Object> filterParams = List.copyOf(params);
        sql.append(orderBy(request.orderBy(), keys, selected, small == null ? null : selected.get(keys.size())));
        sql.append(" LIMIT ?");
        params.add(request.limit() + 1);
        return new CompiledMetric(metric, sql.toString(), params, keys, request.limit(), requiredJoins, fanOut,
                degradation, touched, small == null ? OptionalInt.empty() : OptionalInt.of(cells.minGroupSize()), subjects,
                groupCount.map(g -> new CompiledMetric.Count(g, filterParams)));
    }

    /**
     * The condition that a group is too small: fewer than K distinct people in it, for the subject of the metric's
     * rows and every person the call groups or filters by ({@link Subjects}). K is the operator's integer, written as
     * a literal: no caller text reaches it. Null when the query reaches no person. The subject's own joins are
     * appended to {@code from}.
     */
    private String smallGroup(Dialect dialect, Map<String, String> alias, SmallCells cells, String base, List<Ref> used,
                              StringBuilder from, List<String> subjects) throws CompileException {
        Subjects.Plan plan = new Subjects(model, this::table, cells.subjects()).of(dialect, alias, base, used);
        if (plan.counted().isEmpty()) {
            return null;
        }
        from.append(plan.joins());
        List<String> keys = new ArrayList<>();
        plan.counted().forEach((expression, what) -> {
            keys.add("COUNT(DISTINCT " + expression + ") < " + cells.minGroupSize());
            subjects.add(what);
        });
        return String.join(" OR ", keys);
    }

    /** A column of an entity as the caller wrote it, resolved against the model and the catalog. */
    record Ref(String written, Entity entity, Table table, Column column) {
    }

    private Ref reference(String written, Problem problem, String role) throws CompileException {
        String text = written == null ? "" : written.strip();
        int dot = text.indexOf('.');
        String entityName = dot < 0 ? "" : text.substring(0, dot);
        String columnName = dot < 0 ? text : text.substring(dot + 1);
        if (dot < 0 || !NameSyntax.isPlain(entityName) || !NameSyntax.isPlain(columnName)) {
            throw new CompileException(problem, "The " + role + " column '" + NameSyntax.excerpt(text)
                    + "' is not of the form entity.column; describe_entity lists an entity's columns.",
                    Fuzzy.best(text, allColumns(), Fuzzy.DEFAULT_LIMIT));
        }
        Optional<Entity> entity = model.entity(entityName);
        if (entity.isEmpty()) {
            throw new CompileException(problem, "The " + role + " column '" + NameSyntax.excerpt(text)
                    + "' names no entity; list_entities shows the entities there are.",
                    Fuzzy.best(text, allColumns(), Fuzzy.DEFAULT_LIMIT));
        }
        Table table = table(entity.get());
        Optional<Column> column = table.column(columnName).or(() -> {
            List<Column> folded = table.columns().stream().filter(c -> c.name().equalsIgnoreCase(columnName)).toList();
            return folded.size() == 1 ? Optional.of(folded.get(0)) : Optional.empty();
        });
        if (column.isEmpty()) {
            List<String> columns = table.columns().stream().map(c -> entityName + "." + c.name()).toList();
            throw new CompileException(problem, "Entity " + entityName + " has no column '" + NameSyntax.excerpt(columnName)
                    + "'; describe_entity lists its columns.", Fuzzy.best(text, columns, Fuzzy.DEFAULT_LIMIT));
        }
        return new Ref(text, entity.get(), table, column.get());
    }

    private List<String> allColumns() {
        List<String> names = new ArrayList<>();
        for (Entity e : model.entities()) {
            catalog.table(e.table()).ifPresent(t -> t.columns().forEach(c -> names.add(e.name() + "." + c.name())));
        }
        return names;
    }

    private static TimeGrain grain(String text, Metric metric) throws CompileException {
        if (text == null) {
            return null;
        }
        TimeGrain grain;
        try {
            grain = TimeGrain.fromWire(text);
        } catch (IllegalArgumentException e) {
            throw new CompileException(Problem.INVALID_TIME_GRAIN, "'" + NameSyntax.excerpt(text)
                    + "' is not a time grain; use day, week, month, quarter or year.",
                    Arrays.stream(TimeGrain.values()).map(TimeGrain::wireName).toList());
        }
        if (!metric.timeGrains().isEmpty() && !metric.timeGrains().contains(grain)) {
            List<String> allowed = metric.timeGrains().stream().map(TimeGrain::wireName).toList();
            throw new CompileException(Problem.GRAIN_MISMATCH, "Metric " + metric.name() + " is defined for the grains "
                    + String.join(", ", allowed) + ", not " + grain.wireName() + ".", allowed,
                    Map.of("time_grain", allowed.get(0)));
        }
        return grain;
    }

    /**
     * The time axis: the caller's, else the metric's, else the best event time of the entity or of the one its rows
     * are lines of ({@link TimeAxis}: an invoice line inherits its invoice's date). Two entities' columns equally
     * good are ambiguous (the caller must choose); none leaves the answer unbucketed.
     */
    private Optional<Ref> timeDimension(String requested, Metric metric, Entity base) throws CompileException {
        String chosen = requested != null ? requested : metric.timeDimension();
        if (chosen != null) {
            Ref ref = reference(chosen, Problem.UNKNOWN_GROUP_BY_COLUMN, "time_dimension");
            if (TypeClass.of(ref.column()) != TypeClass.TEMPORAL) {
                throw new CompileException(Problem.INVALID_ARGUMENT, "time_dimension " + ref.written()
                        + " is not a date or time column; pick one that is.", temporalColumns(ref.entity()));
            }
            return Optional.of(ref);
        }
        TimeAxis axis = TimeAxis.of(catalog, model, base.name());
        if (axis.tied()) {
            List<String> candidates = axis.best().stream().map(TimeAxis.Candidate::reference).toList();
            throw new CompileException(Problem.AMBIGUOUS_TIME_DIMENSION, "Metric " + metric.name()
                    + " has no time dimension and " + candidates.size() + " entities are equally good candidates: "
                    + String.join(", ", candidates) + "; pass time_dimension.", candidates,
                    Map.of("time_dimension", candidates.get(0)));
        }
        if (axis.chosen().isPresent()) {
            return Optional.of(reference(axis.chosen().get().reference(), Problem.UNKNOWN_GROUP_BY_COLUMN, "time_dimension"));
        }
        return Optional.empty();
    }

    private List<String> temporalColumns(Entity e) throws CompileException {
        return table(e).columns().stream().filter(c -> TypeClass.of(c) == TypeClass.TEMPORAL)
                .map(c -> e.name() + "." + c.name()).toList();
    }

    private String measure(Dialect dialect, Metric metric, Table table, List<ColumnRef> touched) throws CompileException {
        var m = metric.measure();
        String argument;
        if (m.column() != null) {
            Column c = table.column(m.column()).orElseThrow(() -> new CompileException(Problem.UNKNOWN_MEASURE_COLUMN,
                    "Metric " + metric.name() + " measures " + m.column() + ", which " + table.name()
                            + " no longer has; re-index or fix the metric.", List.of()));
            argument = dialect.quote("t0") + "." + dialect.quote(c.name());
            touched.add(new ColumnRef(table.name(), c.name(), Role.MEASURE));
        } else if (m.expression() != null) {
            for (String name : MeasureExpression.columns(m.expression())) {
                if (table.column(name).isEmpty()) {
                    throw new CompileException(Problem.UNKNOWN_MEASURE_COLUMN, "Metric " + metric.name()
                            + "'s expression reads " + name + ", which " + table.name() + " does not have.",
                            Fuzzy.best(name, table.columns().stream().map(Column::name).toList(), Fuzzy.DEFAULT_LIMIT));
                }
                touched.add(new ColumnRef(table.name(), name, Role.MEASURE));
            }
            argument = MeasureExpression.render(m.expression(), name -> dialect.quote("t0") + "." + dialect.quote(name));
        } else {
            argument = "*";
        }
        return switch (m.agg()) {
            case SUM -> "SUM(" + argument + ")";
            case COUNT -> "COUNT(" + argument + ")";
            case COUNT_DISTINCT -> "COUNT(DISTINCT " + argument + ")";
            case AVG -> "AVG(" + argument + ")";
            case MIN -> "MIN(" + argument + ")";
            case MAX -> "MAX(" + argument + ")";
        };
    }

    private static String condition(Dialect dialect, String column, Ref ref, Filter f, List<Object> params)
            throws CompileException {
        List<Object> values = FilterValues.bindAll(dialect, ref.column(), ref.written(), f);
        params.addAll(values);
        // A PostgreSQL ENUM compares only with its own type: the value is cast to it, not sent as varchar. A column
        // of a domain over the ENUM is cast too (there is no domain = ENUM operator); the ENUM's own is left alone.
        Domain domain = ref.column().domain();
        String placeholder = "?";
        if (domain != null && domain.typeName() != null) {
            placeholder = dialect.castParameter(domain.typeName());
            String declared = ref.column().dataType();
            if (!declared.equals(domain.typeName()) && !domain.typeName().endsWith("." + declared)) {
                column = dialect.cast(column, domain.typeName());
            }
        }
        return switch (f.op()) {
            case IS_NULL -> column + " IS NULL";
            case NOT_NULL -> column + " IS NOT NULL";
            case IN, NOT_IN -> column + (f.op() == FilterOp.IN ? " IN (" : " NOT IN (")
                    + String.join(", ", Collections.nCopies(values.size(), placeholder)) + ")";
            case EQ -> column + " = " + placeholder;
            case NE -> column + " <> " + placeholder;
            case LT -> column + " < " + placeholder;
            case LTE -> column + " <= " + placeholder;
            case GT -> column + " > " + placeholder;
            case GTE -> column + " >= " + placeholder;
        };
    }

    /**
     * Explicit ordering by result keys; by default the time bucket and the group columns, ascending. When
     * small groups are suppressed they come last ({@code flag} first), so the rows the limit keeps are the
     * shown ones and a "top N" shows the largest values there are; the suppressed rows are dropped unread.
     */
    private static String orderBy(List<MetricRequest.OrderBy> order, List<String> keys, List<String> selected,
                                  String flag) throws CompileException {
        List<String> terms = new ArrayList<>();
        if (flag != null) {
            terms.add(flag + " ASC");
        }
        for (MetricRequest.OrderBy o : order) {
            String wanted = o.column() == null ? "" : o.column().strip();
            int at = keys.indexOf(wanted);
            if (at < 0) {
                List<String> lower = keys.stream().map(k -> k.toLowerCase(Locale.ROOT)).toList();
                at = lower.indexOf(wanted.toLowerCase(Locale.ROOT));
            }
            if (at < 0) {
                throw new CompileException(Problem.UNKNOWN_ORDER_BY_COLUMN, "order_by '" + NameSyntax.excerpt(wanted)
                        + "' is not a column of the result; order by one of " + String.join(", ", keys) + ".", keys);
            }
            terms.add(selected.get(at) + (o.descending() ? " DESC" : " ASC"));
        }
        if (terms.size() == (flag == null ? 0 : 1)) {
            for (int i = 0; i < keys.size() - 1; i++) {
                terms.add(selected.get(i) + " ASC");
            }
        }
        return terms.isEmpty() ? "" : " ORDER BY " + String.join(", ", terms);
    }

    private String on(Dialect dialect, String leftAlias, Table left, String rightAlias, Table right,
                      List<dev.schemabrain.semantic.model.ColumnPair> pairs, List<ColumnRef> touched) throws CompileException {
        List<String> terms = new ArrayList<>();
        for (var pair : pairs) {
            Column l = left.column(pair.source()).orElseThrow(() -> drift("column " + pair.source() + " of " + left.name()));
            Column r = right.column(pair.target()).orElseThrow(() -> drift("column " + pair.target() + " of " + right.name()));
            terms.add(dialect.quote(leftAlias) + "." + dialect.quote(l.name()) + " = "
                    + dialect.quote(rightAlias) + "." + dialect.quote(r.name()));
            touched.add(new ColumnRef(left.name(), l.name(), Role.JOIN_KEY));
            touched.add(new ColumnRef(right.name(), r.name(), Role.JOIN_KEY));
        }
        return String.join(" AND ", terms);
    }

    private static String column(Dialect dialect, Map<String, String> alias, Ref ref) {
        return dialect.quote(alias.get(ref.entity().name())) + "." + dialect.quote(ref.column().name());
    }

    /** The first day of the bucket {@code column} falls in. */
    private static String bucket(Dialect dialect, String column, TimeGrain grain) {
        return switch (grain) {
            case DAY -> dialect.dayOf(column);
            case WEEK -> dialect.weekOf(column);
            case MONTH -> dialect.monthOf(column);
            case QUARTER -> dialect.quarterOf(column);
            case YEAR -> dialect.yearOf(column);
        };
    }

    static String qualified(Dialect dialect, QualifiedName name) {
        // SQLite's schema is the attached database's name ("main"), which it also accepts as a qualifier.
        return dialect.quote(name.schema()) + "." + dialect.quote(name.table());
    }

    private Entity entity(String name) throws CompileException {
        return model.entity(name).orElseThrow(() -> drift("entity " + name));
    }

    Table table(Entity e) throws CompileException {
        return catalog.table(e.table()).orElseThrow(() -> drift("the table " + e.table() + " of entity " + e.name()));
    }

    private static CompileException drift(String what) {
        return new CompileException(Problem.SCHEMA_DRIFT, "The semantic layer refers to " + what
                + ", which the index does not have; run schemabrain index, then apply the project again.", List.of());
    }

    /** The model this compiler reads (for callers that list candidates). */
    public SemanticModel model() {
        return model;
    }

    public Catalog catalog() {
        return catalog;
    }
}
