package dev.schemabrain.semantic.compile;

import dev.schemabrain.error.ErrorKind;
import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.Domain;
import dev.schemabrain.catalog.Fuzzy;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.engine.Dialect;
import dev.schemabrain.semantic.compile.CompiledMetric.ColumnRef;
import dev.schemabrain.semantic.compile.CompiledMetric.ColumnRef.Role;
import dev.schemabrain.error.DegradationReason;
import dev.schemabrain.semantic.compile.MetricCompiler.Ref;
import dev.schemabrain.semantic.model.Aggregation;
import dev.schemabrain.semantic.model.ColumnPair;
import dev.schemabrain.semantic.model.Entity;
import dev.schemabrain.semantic.model.Filter;
import dev.schemabrain.semantic.model.FilterOp;
import dev.schemabrain.semantic.model.Measure;
import dev.schemabrain.semantic.model.Metric;
import dev.schemabrain.semantic.model.NonAdditive;
import dev.schemabrain.semantic.model.TimeGrain;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The aggregate of one simple metric as an {@link Aggregate}. Every identifier comes from the
 * catalog and is quoted; every caller value is a parameter.
 * <ul>
 * <li>Joins walked towards "one" are LEFT JOINs (a row with no partner still counts, in a NULL group); joins that
 *     fan out are INNER JOINs.</li>
 * <li>A sum, count or average across a fan-out join counts each of the metric's rows once per group: the rows
 *     are numbered per group and identity ({@code ROW_NUMBER}) and only the first is aggregated, so "invoice
 *     totals by product category" counts an invoice once in each category it touches, never once per line.</li>
 * <li>A semi-additive measure keeps only the rows at the last (or first) snapshot of each time bucket.</li>
 * <li>Small-cell suppression counts distinct people per group ({@link Subjects}) in the same statement.</li>
 * </ul>
 */
final class SimpleAggregate {

    private static final Set<Aggregation> INFLATED_BY_FAN_OUT = EnumSet.of(Aggregation.SUM, Aggregation.COUNT, Aggregation.AVG);

    private final MetricCompiler compiler;
    private final Dialect dialect;

    SimpleAggregate(MetricCompiler compiler, Dialect dialect) {
        this.compiler = compiler;
        this.dialect = dialect;
    }

    /** The columns a request names, resolved against the model and the catalog, before any SQL is written. */
    private record Refs(List<Ref> groups, List<Ref> filters, List<Ref> others, Optional<Ref> time,
                        Optional<DegradationReason> degradation, List<Ref> parents) {

        /** Every entity the statement must reach. */
        Set<String> entities() {
            Set<String> needed = new LinkedHashSet<>();
            time.ifPresent(t -> needed.add(t.entity().name()));
            groups.forEach(g -> needed.add(g.entity().name()));
            filters.forEach(f -> needed.add(f.entity().name()));
            others.stream().filter(r -> r != null).forEach(r -> needed.add(r.entity().name()));
            parents.forEach(p -> needed.add(p.entity().name()));
            return needed;
        }
    }

    /** The FROM clause: the metric's table and its joins, each entity's alias, and which entities a fan-out reached. */
    private record From(StringBuilder sql, Map<String, String> alias, Map<String, Boolean> reachedByFanOut,
                        List<String> requiredJoins, List<String> fanOut) {
    }

    /** The result keys: their SQL and their names as the caller wrote them. */
    private record Keys(List<String> exprs, List<String> names) {
    }

    /**
     * Plans the statement (the references resolved, the joins walked), then renders it; the caller's values
     * travel with the WHERE clause's {@link SqlText}.
     *
     * @param filters the metric's default filters, its segments and the caller's, in that order
     * @param grain   the time grain, or null for no time key
     */
    Aggregate build(Metric metric, MetricRequest request, List<Filter> filters, TimeGrain grain, SmallCells cells)
            throws CompileException {
        Entity base = compiler.entity(metric.entity());
        Table baseTable = compiler.table(base);
        Refs refs = resolve(metric, request, filters, grain, base);
        List<ColumnRef> touched = new ArrayList<>();
        From from = from(base, baseTable, refs, request.via(), touched);
        checkParents(metric, base, refs.parents(), from.reachedByFanOut());
        Keys keys = keys(grain, refs, from.alias(), touched);
        String argument = argument(metric, baseTable, from.alias(), refs.parents(), touched);
        List<String> subjects = new ArrayList<>();
        List<String> counted = suppression(cells, base, refs, from, subjects);
        SqlText where = where(filters, refs, from.alias(), touched);

        Measure measure = metric.measure();
        boolean dedupe = !from.fanOut().isEmpty() && INFLATED_BY_FAN_OUT.contains(measure.agg());
        NonAdditive snapshot = measure.nonAdditive();
        SqlText select = dedupe || snapshot != null
                ? nested(metric, base, baseTable, from.alias(), keys.exprs(), argument, counted, from.sql(), where, dedupe,
                        snapshot, grain, touched, cells)
                : flat(measure.agg(), keys.exprs(), argument, counted, from.sql(), where, cells);
        // A filter on rows reached one-to-many keeps the metric's rows that have a matching related row: not a plain filter.
        Optional<DegradationReason> degradation = refs.degradation().or(() -> refs.filters().stream()
                .anyMatch(f -> from.reachedByFanOut().getOrDefault(f.entity().name(), false))
                ? Optional.of(DegradationReason.FILTERED_THROUGH_RELATED_ROWS) : Optional.empty());
        return new Aggregate(select, keys.names(), grain != null && refs.time().isPresent(), !counted.isEmpty(),
                from.requiredJoins(), from.fanOut(), degradation, touched, subjects);
    }

    /** The group_by, filter, time and measure-parent columns, resolved in that order. */
    private Refs resolve(Metric metric, MetricRequest request, List<Filter> filters, TimeGrain grain, Entity base)
            throws CompileException {
        List<Ref> groups = new ArrayList<>();
        for (String g : request.groupBy()) {
            groups.add(compiler.reference(g, ErrorKind.UNKNOWN_GROUP_BY_COLUMN, "group_by"));
        }
        List<Ref> filterRefs = new ArrayList<>();
        List<Ref> otherRefs = new ArrayList<>();
        for (Filter f : filters) {
            filterRefs.add(compiler.reference(f.column(), ErrorKind.UNKNOWN_FILTER_COLUMN, "filter"));
            otherRefs.add(f.comparesColumns() ? compiler.reference(f.otherColumn(), ErrorKind.UNKNOWN_FILTER_COLUMN, "filter") : null);
        }
        Optional<Ref> time = Optional.empty();
        Optional<DegradationReason> degradation = Optional.empty();
        if (grain != null) {
            time = compiler.timeDimension(request.timeDimension(), metric, base);
            if (time.isEmpty()) {
                degradation = Optional.of(DegradationReason.TIME_DIMENSION_UNAVAILABLE);
            }
        }
        return new Refs(groups, filterRefs, otherRefs, time, degradation, parentColumns(metric, base));
    }

    /** The joins: one path from the metric's entity to every entity referenced, each entity aliased once. */
    private From from(Entity base, Table baseTable, Refs refs, List<String> via, List<ColumnRef> touched)
            throws CompileException {
        Set<String> needed = refs.entities();
        needed.remove(base.name());
        List<PathFinder.Step> steps = compiler.paths().plan(base.name(), needed, via);
        From from = new From(new StringBuilder(" FROM ").append(dialect.qualified(baseTable.name()))
                .append(" AS ").append(q("t0")), new LinkedHashMap<>(), new HashMap<>(), new ArrayList<>(), new ArrayList<>());
        from.alias().put(base.name(), "t0");
        from.reachedByFanOut().put(base.name(), false);
        for (PathFinder.Step step : steps) {
            if (!from.alias().containsKey(step.to())) {
                join(from, step, touched);
            }
        }
        return from;
    }

    /** Appends {@code step}'s join: LEFT towards "one", INNER where it fans out; through its link table if it has one. */
    private void join(From from, PathFinder.Step step, List<ColumnRef> touched) throws CompileException {
        String fromAlias = from.alias().get(step.from());
        String toAlias = "t" + from.alias().size();
        from.alias().put(step.to(), toAlias);
        Table toTable = compiler.table(compiler.entity(step.to()));
        Table fromTable = compiler.table(compiler.entity(step.from()));
        boolean fans = step.walked().fansOut();
        from.reachedByFanOut().put(step.to(), fans || from.reachedByFanOut().getOrDefault(step.from(), false));
        String kind = fans ? " JOIN " : " LEFT JOIN ";
        from.requiredJoins().add(step.join().name());
        if (fans) {
            from.fanOut().add(step.join().name());
        }
        StringBuilder sql = from.sql();
        if (step.join().bridge() == null) {
            sql.append(kind).append(dialect.qualified(toTable.name())).append(" AS ").append(q(toAlias))
                    .append(" ON ").append(on(fromAlias, fromTable, toAlias, toTable, step.pairs(), touched));
            return;
        }
        var bridge = step.forward() ? step.join().bridge() : step.join().bridge().reversed();
        Table link = compiler.catalog().table(bridge.table())
                .orElseThrow(() -> MetricCompiler.drift("the link table " + bridge.table()));
        String linkAlias = toAlias + "_link";
        sql.append(kind).append(dialect.qualified(link.name())).append(" AS ").append(q(linkAlias))
                .append(" ON ").append(on(fromAlias, fromTable, linkAlias, link, bridge.sourceOn(), touched))
                .append(kind).append(dialect.qualified(toTable.name())).append(" AS ").append(q(toAlias))
                .append(" ON ").append(on(linkAlias, link, toAlias, toTable, bridge.targetOn(), touched));
    }

    /** A measure may read only many-to-one parents' columns: a parent reached through a fan-out repeats rows. */
    private static void checkParents(Metric metric, Entity base, List<Ref> parents, Map<String, Boolean> reachedByFanOut)
            throws CompileException {
        for (Ref p : parents) {
            if (reachedByFanOut.getOrDefault(p.entity().name(), false)) {
                throw new CompileException(ErrorKind.UNKNOWN_MEASURE_COLUMN, "Metric " + metric.name() + "'s measure reads "
                        + p.written() + ", which is reached through a join that repeats " + base.name() + "'s rows; a measure"
                        + " may read only many-to-one parents' columns.", List.of());
            }
        }
    }

    /** The time bucket first (when there is a time axis), then the group_by columns. */
    private Keys keys(TimeGrain grain, Refs refs, Map<String, String> alias, List<ColumnRef> touched) {
        List<String> exprs = new ArrayList<>();
        List<String> names = new ArrayList<>();
        if (grain != null && refs.time().isPresent()) {
            Ref t = refs.time().get();
            exprs.add(MetricCompiler.bucket(dialect, column(alias, t), grain));
            names.add(MetricCompiler.TIME_BUCKET);
            touched.add(new ColumnRef(t.table().name(), t.column().name(), Role.TIME_DIMENSION));
        }
        for (Ref g : refs.groups()) {
            exprs.add(column(alias, g));
            names.add(g.written());
            touched.add(new ColumnRef(g.table().name(), g.column().name(), Role.GROUP_BY));
        }
        return new Keys(exprs, names);
    }

    /**
     * Under small-cell suppression: the joins to the people counted per group appended to {@code from}, their
     * kinds added to {@code subjects}; answers the counted columns (none when suppression is off).
     */
    private List<String> suppression(SmallCells cells, Entity base, Refs refs, From from, List<String> subjects)
            throws CompileException {
        if (!cells.active()) {
            return List.of();
        }
        List<Ref> used = new ArrayList<>(refs.groups());
        used.addAll(refs.filters());
        refs.others().stream().filter(r -> r != null).forEach(used::add);
        Subjects.Plan plan = new Subjects(compiler.model(), compiler::table, cells.subjects())
                .of(dialect, from.alias(), base.name(), used);
        from.sql().append(plan.joins());
        subjects.addAll(plan.counted().values());
        return new ArrayList<>(plan.counted().keySet());
    }

    /** The WHERE clause with the caller's values bound, in the filters' order. */
    private SqlText where(List<Filter> filters, Refs refs, Map<String, String> alias, List<ColumnRef> touched)
            throws CompileException {
        SqlText where = new SqlText();
        for (int i = 0; i < filters.size(); i++) {
            Ref r = refs.filters().get(i);
            Filter f = filters.get(i);
            where.append(i == 0 ? " WHERE " : " AND ");
            if (f.comparesColumns()) {
                Ref other = refs.others().get(i);
                where.append(column(alias, r) + " " + operator(f.op()) + " " + column(alias, other));
                touched.add(new ColumnRef(other.table().name(), other.column().name(), Role.FILTER, f.op()));
            } else {
                condition(where, column(alias, r), r, f);
            }
            touched.add(new ColumnRef(r.table().name(), r.column().name(), Role.FILTER, f.op()));
        }
        return where;
    }

    /** One SELECT: the keys, the aggregate, the flag; grouped by the keys. */
    private SqlText flat(Aggregation agg, List<String> keyExprs, String argument, List<String> counted, StringBuilder from,
                         SqlText where, SmallCells cells) {
        SqlText s = new SqlText().append("SELECT ");
        for (int i = 0; i < keyExprs.size(); i++) {
            s.append(keyExprs.get(i) + " AS " + q("k" + i) + ", ");
        }
        s.append(aggregate(agg, argument) + " AS " + q("v") + ", " + flag(counted, cells) + " AS " + q("f"));
        s.append(from.toString()).append(where);
        if (!keyExprs.isEmpty()) {
            s.append(" GROUP BY " + String.join(", ", keyExprs));
        }
        return s;
    }

    /**
     * Rows first, then the aggregate: the row layer selects the keys, the measure's argument, the counted people,
     * the identity (for fan-out) and the snapshot (for a semi-additive measure) with its last value per bucket;
     * the middle layer keeps the snapshot's rows and numbers each of the metric's rows within its group.
     */
    private SqlText nested(Metric metric, Entity base, Table baseTable, Map<String, String> alias, List<String> keyExprs,
                           String argument, List<String> counted, StringBuilder from, SqlText where, boolean dedupe,
                           NonAdditive snapshot, TimeGrain grain, List<ColumnRef> touched, SmallCells cells)
            throws CompileException {
        List<String> rowColumns = new ArrayList<>();
        List<String> keyNames = named(keyExprs, "k", rowColumns);
        rowColumns.add(argument.equals("*") ? "1 AS " + q("a") : argument + " AS " + q("a"));
        List<String> people = named(counted, "p", rowColumns);
        List<String> identity = dedupe ? named(identity(base, baseTable), "i", rowColumns) : List.of();
        if (snapshot != null) {
            rowColumns.addAll(snapshotColumns(metric, baseTable, snapshot, grain, touched));
        }
        SqlText rows = new SqlText().append("SELECT " + String.join(", ", rowColumns)).append(from.toString()).append(where);

        SqlText middle = new SqlText().append("SELECT " + q("r") + ".*");
        if (dedupe) {
            List<String> partition = new ArrayList<>(keyNames);
            partition.addAll(identity);
            middle.append(", ROW_NUMBER() OVER (PARTITION BY " + String.join(", ", partition) + ") AS " + q("rn"));
        }
        middle.append(" FROM (").append(rows).append(") AS " + q("r"));
        if (snapshot != null) {
            middle.append(" WHERE " + q("r") + "." + q("n") + " = " + q("r") + "." + q("nl"));
        }
        return outer(metric.measure().agg(), argument, dedupe, keyNames, people, middle, cells);
    }

    /** Each expression as a row column named {@code prefix} and its position, added to {@code rowColumns}; answers the names. */
    private List<String> named(List<String> exprs, String prefix, List<String> rowColumns) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < exprs.size(); i++) {
            rowColumns.add(exprs.get(i) + " AS " + q(prefix + i));
            names.add(q(prefix + i));
        }
        return names;
    }

    /** The metric's entity's identity columns, which number its rows within a group across a fan-out. */
    private List<String> identity(Entity base, Table baseTable) throws CompileException {
        List<String> columns = new ArrayList<>();
        for (String id : base.identity()) {
            Column c = baseTable.column(id).orElseThrow(() -> MetricCompiler.drift("column " + id + " of " + baseTable.name()));
            columns.add(q("t0") + "." + q(c.name()));
        }
        return columns;
    }

    /** A semi-additive measure's snapshot column {@code "n"} and its last (or first) value per bucket {@code "nl"}. */
    private List<String> snapshotColumns(Metric metric, Table baseTable, NonAdditive snapshot, TimeGrain grain,
                                         List<ColumnRef> touched) throws CompileException {
        Column n = baseTable.column(snapshot.column()).orElseThrow(() -> new CompileException(ErrorKind.UNKNOWN_MEASURE_COLUMN,
                "Metric " + metric.name() + "'s snapshot column " + snapshot.column() + " is not a column of "
                        + baseTable.name() + "; fix the metric's non_additive.column.", List.of()));
        String snap = q("t0") + "." + q(n.name());
        touched.add(new ColumnRef(baseTable.name(), n.name(), Role.MEASURE));
        List<String> partition = new ArrayList<>();
        if (grain != null) {
            partition.add(MetricCompiler.bucket(dialect, snap, grain));
        }
        for (String g : snapshot.groupings()) {
            Column c = baseTable.column(g).orElseThrow(() -> new CompileException(ErrorKind.UNKNOWN_MEASURE_COLUMN,
                    "Metric " + metric.name() + "'s snapshot grouping " + g + " is not a column of " + baseTable.name() + ".",
                    List.of()));
            partition.add(q("t0") + "." + q(c.name()));
            touched.add(new ColumnRef(baseTable.name(), c.name(), Role.MEASURE));
        }
        String end = snapshot.window() == NonAdditive.Window.LAST ? "MAX" : "MIN";
        return List.of(snap + " AS " + q("n"), end + "(" + snap + ") OVER (" + (partition.isEmpty() ? "" : "PARTITION BY "
                + String.join(", ", partition)) + ") AS " + q("nl"));
    }

    /** The aggregate over the middle layer: the keys, the value (each row once across a fan-out), the flag. */
    private SqlText outer(Aggregation agg, String argument, boolean dedupe, List<String> keyNames, List<String> people,
                          SqlText middle, SmallCells cells) {
        String a = dedupe ? "CASE WHEN " + q("rn") + " = 1 THEN " + q("a") + " END" : q("a");
        String value = switch (agg) {
            case COUNT -> "COUNT(" + (argument.equals("*") && !dedupe ? "*" : a) + ")";
            default -> aggregate(agg, agg == Aggregation.COUNT_DISTINCT || agg == Aggregation.MIN || agg == Aggregation.MAX
                    ? q("a") : a);
        };
        SqlText s = new SqlText().append("SELECT ");
        for (String k : keyNames) {
            s.append(k + ", ");
        }
        s.append(value + " AS " + q("v") + ", " + flag(people, cells) + " AS " + q("f"));
        s.append(" FROM (").append(middle).append(") AS " + q("m"));
        if (!keyNames.isEmpty()) {
            s.append(" GROUP BY " + String.join(", ", keyNames));
        }
        return s;
    }

    /** 1 when the group counts fewer distinct people than K in any counted role, else 0; K is the operator's integer. */
    private static String flag(List<String> counted, SmallCells cells) {
        if (counted.isEmpty()) {
            return "0";
        }
        List<String> small = counted.stream().map(e -> "COUNT(DISTINCT " + e + ") < " + cells.minGroupSize()).toList();
        return "CASE WHEN " + String.join(" OR ", small) + " THEN 1 ELSE 0 END";
    }

    private static String aggregate(Aggregation agg, String argument) {
        return switch (agg) {
            case SUM -> "SUM(" + argument + ")";
            case COUNT -> "COUNT(" + argument + ")";
            case COUNT_DISTINCT -> "COUNT(DISTINCT " + argument + ")";
            case AVG -> "AVG(" + argument + ")";
            case MIN -> "MIN(" + argument + ")";
            case MAX -> "MAX(" + argument + ")";
        };
    }

    /** The parents' columns a measure expression reads ({@code fx_rate.usd_per_unit}), resolved. */
    private List<Ref> parentColumns(Metric metric, Entity base) throws CompileException {
        List<Ref> parents = new ArrayList<>();
        if (metric.measure().expression() == null) {
            return parents;
        }
        for (String name : MeasureExpression.columns(metric.measure().expression())) {
            if (name.indexOf('.') > 0 && !name.startsWith(base.name() + ".")) {
                parents.add(compiler.reference(name, ErrorKind.UNKNOWN_MEASURE_COLUMN, "measure"));
            }
        }
        return parents;
    }

    /** The measure's argument: a column, an expression over the entity's and its parents' columns, or {@code *}. */
    private String argument(Metric metric, Table table, Map<String, String> alias, List<Ref> parents, List<ColumnRef> touched)
            throws CompileException {
        Measure m = metric.measure();
        Role role = m.agg() == Aggregation.MIN || m.agg() == Aggregation.MAX ? Role.MEASURE_EXTREMUM : Role.MEASURE;
        if (m.column() != null) {
            Column c = table.column(m.column()).orElseThrow(() -> new CompileException(ErrorKind.UNKNOWN_MEASURE_COLUMN,
                    "Metric " + metric.name() + " measures " + m.column() + ", which " + table.name()
                            + " no longer has; re-index or fix the metric.", List.of()));
            touched.add(new ColumnRef(table.name(), c.name(), role));
            return q("t0") + "." + q(c.name());
        }
        if (m.expression() == null) {
            return "*";
        }
        Map<String, String> rendered = new HashMap<>();
        for (Ref p : parents) {
            rendered.put(p.written(), column(alias, p));
            touched.add(new ColumnRef(p.table().name(), p.column().name(), role));
        }
        String own = metric.entity() + ".";
        for (String name : MeasureExpression.columns(m.expression())) {
            if (rendered.containsKey(name)) {
                continue;
            }
            String bare = name.startsWith(own) ? name.substring(own.length()) : name;
            Column c = table.column(bare).orElseThrow(() -> new CompileException(ErrorKind.UNKNOWN_MEASURE_COLUMN, "Metric "
                    + metric.name() + "'s expression reads " + name + ", which " + table.name() + " does not have.",
                    Fuzzy.best(bare, table.columns().stream().map(Column::name).toList(), Fuzzy.DEFAULT_LIMIT)));
            rendered.put(name, q("t0") + "." + q(c.name()));
            touched.add(new ColumnRef(table.name(), c.name(), role));
        }
        return MeasureExpression.render(m.expression(), rendered::get);
    }

    void condition(SqlText where, String column, Ref ref, Filter f) throws CompileException {
        List<Object> values = FilterValues.bindAll(dialect, ref.column(), ref.written(), f);
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
        String sql = switch (f.op()) {
            case IS_NULL -> column + " IS NULL";
            case NOT_NULL -> column + " IS NOT NULL";
            case IN, NOT_IN -> column + (f.op() == FilterOp.IN ? " IN (" : " NOT IN (")
                    + String.join(", ", Collections.nCopies(values.size(), placeholder)) + ")";
            default -> column + " " + operator(f.op()) + " " + placeholder;
        };
        where.append(sql, values);
    }

    private static String operator(FilterOp op) {
        return switch (op) {
            case EQ -> "=";
            case NE -> "<>";
            case LT -> "<";
            case LTE -> "<=";
            case GT -> ">";
            case GTE -> ">=";
            default -> throw new IllegalArgumentException(op + " is not a comparison");
        };
    }

    private String on(String leftAlias, Table left, String rightAlias, Table right,
                      List<ColumnPair> pairs, List<ColumnRef> touched) throws CompileException {
        List<String> terms = new ArrayList<>();
        for (var pair : pairs) {
            Column l = left.column(pair.source()).orElseThrow(() -> MetricCompiler.drift("column " + pair.source() + " of " + left.name()));
            Column r = right.column(pair.target()).orElseThrow(() -> MetricCompiler.drift("column " + pair.target() + " of " + right.name()));
            terms.add(q(leftAlias) + "." + q(l.name()) + " = " + q(rightAlias) + "." + q(r.name()));
            touched.add(new ColumnRef(left.name(), l.name(), Role.JOIN_KEY));
            touched.add(new ColumnRef(right.name(), r.name(), Role.JOIN_KEY));
        }
        return String.join(" AND ", terms);
    }

    private String column(Map<String, String> alias, Ref ref) {
        return q(alias.get(ref.entity().name())) + "." + q(ref.column().name());
    }

    private String q(String identifier) {
        return dialect.quote(identifier);
    }
}
