package dev.schemabrain.semantic.compile;

import dev.schemabrain.error.ErrorKind;
import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.Domain;
import dev.schemabrain.catalog.Fuzzy;
import dev.schemabrain.catalog.NameSyntax;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.TypeClass;
import dev.schemabrain.engine.Dialect;
import dev.schemabrain.semantic.StatusColumn;
import dev.schemabrain.semantic.TimeAxis;
import dev.schemabrain.semantic.compile.CompiledMetric.ColumnRef;
import dev.schemabrain.semantic.compile.CompiledMetric.ColumnRef.Role;
import dev.schemabrain.error.DegradationReason;
import dev.schemabrain.semantic.model.Aggregation;
import dev.schemabrain.semantic.model.Entity;
import dev.schemabrain.semantic.model.Filter;
import dev.schemabrain.semantic.model.FilterOp;
import dev.schemabrain.semantic.model.Metric;
import dev.schemabrain.semantic.model.MetricKind;
import dev.schemabrain.semantic.model.Segment;
import dev.schemabrain.semantic.model.SemanticModel;
import dev.schemabrain.semantic.model.TimeGrain;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;

/**
 * Compiles a metric request into one SELECT. Every identifier in the statement comes from
 * the catalog (a reference the caller wrote is only used to look one up) and is quoted; every value the
 * caller gave is a bound parameter; there is always a LIMIT and never a {@code ;}. Result columns are
 * aliased by position, so no caller text reaches the SQL even as an alias.
 * <p>
 * A simple metric is one aggregate ({@link SimpleAggregate}); a ratio or derived metric aggregates each of
 * its metrics by the same keys and combines them by key; a cumulative one runs a window over its metric's
 * time buckets ({@link Combinations}). A value is hidden in the last step when any group it rests on is too
 * small (small-cell suppression), so no combination can rebuild a hidden number.
 */
public final class MetricCompiler {

    static final String TIME_BUCKET = "time_bucket";
    /** How deep metrics may be built of metrics: deeper is almost surely a cycle the model check missed. */
    private static final int MAX_DEPTH = 6;

    private final Catalog catalog;
    private final SemanticModel model;
    private final PathFinder paths;
    private final List<RowScope> rowScopes;

    /** What one plan of one compile gathers; the compiler itself keeps nothing between calls. */
    static final class Pass {
        /** Whether the compile only checks that a metric compiles (apply, reach): no request-time rule applies. */
        private final boolean checking;
        /** Row scopes applied to every aggregate: a join path of an earlier plan reached them. */
        private final Set<RowScope> forced;
        /** The labels of the row filters the statement carries, for the audit row. */
        private final Set<String> applied = new LinkedHashSet<>();
        /** What each simple metric assumed, in the order they were built. */
        private final List<Assumed> assumed = new ArrayList<>();

        private Pass(boolean checking, Set<RowScope> forced) {
            this.checking = checking;
            this.forced = Set.copyOf(forced);
        }
    }

    public MetricCompiler(Catalog catalog, SemanticModel model) {
        this(catalog, model, List.of());
    }

    /** @param rowScopes an access role's row filters, ANDed into every aggregate that reaches their entity */
    public MetricCompiler(Catalog catalog, SemanticModel model, List<RowScope> rowScopes) {
        this.catalog = catalog;
        this.model = model;
        this.paths = new PathFinder(model);
        this.rowScopes = List.copyOf(rowScopes);
    }

    /** Whether rows of entity {@code from} belong to a row of {@code to}: the same entity, or many-to-one joins lead there. */
    public boolean belongsTo(String from, String to) {
        return from.equals(to) || paths.towardsOne(from, to);
    }

    /** Without small-cell suppression (the semantic layer's own checks, dry answers in tests). */
    public CompiledMetric compile(MetricRequest request, Dialect dialect) throws CompileException {
        return compile(request, dialect, SmallCells.OFF);
    }

    /** With {@code cells}: a group of fewer distinct people than its minimum gets NULL and the flag 1. */
    public CompiledMetric compile(MetricRequest request, Dialect dialect, SmallCells cells) throws CompileException {
        return compile(request, dialect, cells, false);
    }

    private CompiledMetric compile(MetricRequest request, Dialect dialect, SmallCells cells, boolean checking)
            throws CompileException {
        Metric metric = metric(request.metric());
        if (request.limit() < 1 || request.limit() > MetricRequest.MAX_LIMIT) {
            throw new CompileException(ErrorKind.INVALID_ARGUMENT, "limit must lie between 1 and " + MetricRequest.MAX_LIMIT
                    + "; got " + request.limit() + ".", List.of());
        }
        TimeGrain grain = grain(request.timeGrain(), metric);
        Set<RowScope> forced = new LinkedHashSet<>();
        while (true) {
            Pass pass = new Pass(checking, forced);
            Aggregate built = build(metric, request, grain, dialect, cells, new ArrayDeque<>(), pass);
            // A join path may pass through an entity whose rows reach a filtered one (tracks grouped by billing
            // country join invoice lines and invoices, which belong to customers): plan again with that filter.
            List<RowScope> reached = reachedThrough(built.requiredJoins(), forced);
            if (reached.isEmpty()) {
                return render(metric, request, built, dialect, cells, pass);
            }
            forced.addAll(reached);
        }
    }

    /**
     * The row scopes not yet forced whose entity an entity of these joins is, or reaches many-to-one (one already
     * applied everywhere is planned once more, to the same statement: cheaper than telling where it applied).
     */
    private List<RowScope> reachedThrough(List<String> joins, Set<RowScope> forced) {
        Set<String> entities = new LinkedHashSet<>();
        for (String name : joins) {
            model.join(name).ifPresent(j -> {
                entities.add(j.sourceEntity());
                entities.add(j.targetEntity());
            });
        }
        List<RowScope> out = new ArrayList<>();
        for (RowScope scope : rowScopes) {
            if (!forced.contains(scope) && entities.stream()
                    .anyMatch(e -> e.equals(scope.entity()) || paths.towardsOne(e, scope.entity()))) {
                out.add(scope);
            }
        }
        return out;
    }

    /**
     * The answer's statement over the planned aggregate: its columns aliased by position (a suppressed group's
     * value replaced inside the database), ordered, limited one past the limit; and the group count beside it.
     */
    private static CompiledMetric render(Metric metric, MetricRequest request, Aggregate built, Dialect dialect,
                                         SmallCells cells, Pass pass) throws CompileException {
        List<String> keys = new ArrayList<>(built.keys());
        keys.add(metric.name());
        boolean suppresses = built.suppresses();
        int valueAt = built.keys().size();
        SqlText sql = new SqlText().append("SELECT " + String.join(", ", outputs(dialect, built)) + " FROM (")
                .append(built.select()).append(") AS " + dialect.quote("a"));
        sql.append(orderBy(dialect, request.orderBy(), keys, suppresses ? dialect.quote("c" + (valueAt + 1)) : null));
        sql.append(" LIMIT ?", List.of(request.limit() + 1));
        return new CompiledMetric(metric, sql.sql(), sql.params(), keys, request.limit(), built.requiredJoins(),
                built.fanOut(), built.degradation(), built.touched(),
                suppresses ? OptionalInt.of(cells.minGroupSize()) : OptionalInt.empty(), built.subjects(),
                groupCount(dialect, built), pass.assumed, List.copyOf(pass.applied));
    }

    /** The result columns {@code "c0"…}: the keys, the value, and under suppression the flag. */
    private static List<String> outputs(Dialect dialect, Aggregate built) {
        List<String> outputs = new ArrayList<>();
        for (int i = 0; i < built.keys().size(); i++) {
            outputs.add(dialect.quote("k" + i) + " AS " + dialect.quote("c" + i));
        }
        String value = dialect.quote("v");
        int valueAt = built.keys().size();
        if (built.suppresses()) {
            // The value is replaced inside the database: a suppressed group's number never leaves it.
            outputs.add("CASE WHEN " + dialect.quote("f") + " = 1 THEN NULL ELSE " + value + " END AS " + dialect.quote("c" + valueAt));
            outputs.add(dialect.quote("f") + " AS " + dialect.quote("c" + (valueAt + 1)));
        } else {
            outputs.add(value + " AS " + dialect.quote("c" + valueAt));
        }
        return outputs;
    }

    /** How many groups there are, for an answer the limit cuts (and, under suppression, how many are suppressed). */
    private static Optional<CompiledMetric.Count> groupCount(Dialect dialect, Aggregate built) {
        if (built.keys().isEmpty()) {
            return Optional.empty();
        }
        SqlText count = new SqlText().append("SELECT COUNT(*) AS " + dialect.quote("c0")
                + (built.suppresses() ? ", SUM(" + dialect.quote("g") + "." + dialect.quote("f") + ") AS " + dialect.quote("c1") : "")
                + " FROM (").append(built.select()).append(") AS " + dialect.quote("g") + " LIMIT 1");
        return Optional.of(new CompiledMetric.Count(count.sql(), count.params()));
    }

    /** The aggregate of {@code metric} by the request's keys; {@code within} holds the metrics being built around it. */
    Aggregate build(Metric metric, MetricRequest request, TimeGrain grain, Dialect dialect, SmallCells cells,
                    Deque<String> within, Pass pass) throws CompileException {
        if (within.contains(metric.name()) || within.size() >= MAX_DEPTH) {
            throw new CompileException(ErrorKind.INVALID_ARGUMENT, "Metric " + within.peekFirst() + " is built of metrics that"
                    + " refer back to themselves (" + String.join(" -> ", within) + " -> " + metric.name() + "); fix the"
                    + " semantic layer's ratio, derived or cumulative definitions.", List.of());
        }
        within.addLast(metric.name());
        try {
            Combinations combined = new Combinations(this, dialect, pass);
            return metric.kind().accept(MetricKind.Cases.<Build>of(
                    s -> () -> simpleAggregate(metric, request, grain, dialect, cells, pass),
                    r -> () -> combined.ratio(metric, r, request, grain, cells, within),
                    d -> () -> combined.derived(metric, d, request, grain, cells, within),
                    c -> () -> combined.cumulative(metric, c, request, grain, cells, within))).run();
        } finally {
            within.removeLast();
        }
    }

    /** How one kind of metric is built; a visitor cannot throw the compiler's checked exception itself. */
    private interface Build {
        Aggregate run() throws CompileException;
    }

    private Aggregate simpleAggregate(Metric metric, MetricRequest request, TimeGrain grain, Dialect dialect, SmallCells cells,
                                      Pass pass) throws CompileException {
        List<Filter> filters = filters(metric, request, pass);
        // Applying a project checks that a metric compiles, not how a caller will ask it.
        Optional<String> currency = pass.checking ? Optional.empty()
                : CurrencyRule.check(metric, request, filters, model, catalog);
        pass.assumed.add(new Assumed(metric.name(), metric.entity(), metric.filters(), segments(metric, request), currency,
                request.timeDimension() != null ? request.timeDimension().strip() : metric.timeDimension(),
                statuses(metric, filters)));
        return new SimpleAggregate(this, dialect).build(metric, request, filters, grain, cells);
    }

    /** A simple metric's filters: its own defaults, its entity's default segments (unless opted out), named segments, the caller's. */
    private List<Filter> filters(Metric metric, MetricRequest request, Pass pass) throws CompileException {
        List<Filter> filters = ownFilters(metric, request);
        Entity base = entity(metric.entity());
        if (request.defaultSegments()) {
            // A caller who filters a column a default segment filters asked for those rows (a test restaurant's
            // orders): the caller's filter replaces the default one on that column.
            base.defaultSegments().forEach(s -> s.filters().stream()
                    .filter(f -> request.filters().stream().noneMatch(c -> c.column().strip().equalsIgnoreCase(f.column())))
                    .forEach(filters::add));
        }
        for (String written : request.segments()) {
            Segment segment = segment(written, base);
            if (!(segment.isDefault() && request.defaultSegments())) {
                filters.addAll(segment.filters());
            }
        }
        for (Filter f : request.filters()) {
            filters.add(isMetricTime(f.column()) ? onOwnTimeAxis(f, metric, request, base) : f);
        }
        if (request.defaultSegments()) {
            for (Segment s : relatedDefaults(base, request)) {
                s.filters().stream().filter(f -> !filters.contains(f))
                        .filter(f -> request.filters().stream().noneMatch(c -> c.column().strip().equalsIgnoreCase(f.column())))
                        .forEach(filters::add);
            }
        }
        // After the caller's filters and ANDed with them: a caller's own filter can only narrow what the role allows.
        for (RowScope scope : rowScopes) {
            if (!pass.forced.contains(scope) && !reaches(base, scope.entity(), filters, request)) {
                continue;
            }
            if (scope.missing()) {
                throw new CompileException(ErrorKind.POLICY_BLOCKED, "Metric " + metric.name() + " reads rows that this"
                        + " caller's role limits by a row filter, and " + scope.refusal(), List.of());
            }
            filters.add(scope.filter());
            pass.applied.add(scope.label());
        }
        return filters;
    }

    /**
     * The metric's own filters, as the caller's filters meet them. A draft's set of kept values (the statuses it
     * guessed count) gives way to a caller who filters that column ("billed": issued or paid, where the draft kept
     * paid), as a default segment does; ANDed, the two would answer issued invoices with nothing, under success. A
     * reviewed definition is the operator's: a caller may narrow its set, and asking for values outside it is refused.
     */
    private static List<Filter> ownFilters(Metric metric, MetricRequest request) throws CompileException {
        List<Filter> out = new ArrayList<>();
        for (Filter own : metric.filters()) {
            List<Filter> asked = request.filters().stream()
                    .filter(c -> c.otherColumn() == null && c.column().strip().equalsIgnoreCase(own.column())).toList();
            Optional<List<String>> kept = keptValues(own);
            if (asked.isEmpty() || kept.isEmpty()) {
                out.add(own);
                continue;
            }
            if (metric.origin().inferred()) {
                continue;
            }
            for (Filter c : asked) {
                Optional<List<String>> wanted = keptValues(c);
                if (wanted.isPresent() && !kept.get().containsAll(wanted.get())) {
                    throw new CompileException(ErrorKind.INVALID_ARGUMENT, "Metric " + metric.name() + " counts only rows"
                            + " where " + own.column() + " is " + String.join(" or ", kept.get()) + ", as its reviewed"
                            + " definition says; a filter on " + own.column() + " can narrow that set, not reach "
                            + String.join(", ", wanted.get().stream().filter(v -> !kept.get().contains(v)).toList())
                            + ": drop that filter, or use a metric defined over those values.", kept.get());
                }
            }
            out.add(own);
        }
        return out;
    }

    /** The values an {@code eq} or {@code in} filter keeps, as text. */
    private static Optional<List<String>> keptValues(Filter f) {
        if (f.op() == FilterOp.EQ && f.value() != null) {
            return Optional.of(List.of(String.valueOf(f.value())));
        }
        if (f.op() == FilterOp.IN && f.value() instanceof List<?> list) {
            return Optional.of(list.stream().map(String::valueOf).toList());
        }
        return Optional.empty();
    }

    /** Which statuses the rows were counted at: those a filter kept, or every value the status column holds. */
    private Optional<String> statuses(Metric metric, List<Filter> filters) {
        Optional<StatusColumn> status = StatusColumn.of(model, catalog::table,
                metric.entity());
        if (status.isEmpty()) {
            return Optional.empty();
        }
        String ref = status.get().reference();
        List<String> kept = filters.stream().filter(f -> f.column().strip().equalsIgnoreCase(ref))
                .map(f -> f.column().strip() + " " + f.op().wireName().replace('_', ' ') + " " + (f.value() instanceof List<?> list
                        ? "(" + String.join(", ", list.stream().map(String::valueOf).toList()) + ")" : f.value())).toList();
        if (!kept.isEmpty()) {
            return Optional.of("counts only rows where " + String.join(" and ", kept));
        }
        return Optional.of("counts rows of every " + ref + (status.get().values().isEmpty() ? ""
                : " (" + String.join(", ", status.get().values()) + ")") + ": filter " + ref + " to count fewer");
    }

    /** The name a filter gives the time axis of whichever metric it applies to (MetricFlow's metric_time). */
    public static final String METRIC_TIME = "metric_time";

    static boolean isMetricTime(String column) {
        return column != null && column.strip().equalsIgnoreCase(METRIC_TIME);
    }

    /**
     * A filter on metric_time as a filter on this simple metric's own time axis: the parts of "net cash" (payments by
     * attempted_at, refunds by refunded_at) are each restricted to the range on their own dates.
     */
    private Filter onOwnTimeAxis(Filter f, Metric metric, MetricRequest request, Entity base) throws CompileException {
        if (f.comparesColumns()) {
            throw new CompileException(ErrorKind.INVALID_ARGUMENT, "A metric_time filter compares the time axis with a"
                    + " value (a date), not with another column.", List.of());
        }
        Optional<Ref> axis = timeDimension(request.timeDimension(), metric, base);
        if (axis.isEmpty()) {
            throw new CompileException(ErrorKind.INVALID_ARGUMENT, "Metric " + metric.name() + " has no time axis, so"
                    + " metric_time cannot restrict it; filter one of its date columns instead.", temporalColumns(base));
        }
        return new Filter(axis.get().entity().name() + "." + axis.get().column().name(), f.op(), f.value());
    }

    /** The segments a simple metric's filters took: its entity's defaults (unless opted out), those named, related rows'. */
    private List<Segment> segments(Metric metric, MetricRequest request) throws CompileException {
        Entity base = entity(metric.entity());
        List<Segment> out = new ArrayList<>(request.defaultSegments() ? base.defaultSegments() : List.of());
        for (String written : request.segments()) {
            Segment segment = segment(written, base);
            if (!out.contains(segment)) {
                out.add(segment);
            }
        }
        if (request.defaultSegments()) {
            relatedDefaults(base, request).stream().filter(s -> !out.contains(s)).forEach(out::add);
        }
        return out;
    }

    /**
     * The default segments of the entities a caller's filter reaches one-to-many ("members with a completed booking"):
     * the related rows that make a row count must be real rows themselves (not a test site's booking, not a deleted
     * one). A parent reached many-to-one keeps its rows' history: its soft deletes never remove the facts under it.
     */
    private List<Segment> relatedDefaults(Entity base, MetricRequest request) {
        List<Segment> out = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (Filter f : request.filters()) {
            int dot = f.column() == null ? -1 : f.column().strip().indexOf('.');
            if (dot <= 0) {
                continue;
            }
            String related = f.column().strip().substring(0, dot);
            if (related.equals(base.name()) || !seen.add(related) || paths.towardsOne(base.name(), related)) {
                continue;
            }
            model.entity(related).ifPresent(e -> e.defaultSegments().forEach(out::add));
        }
        return out;
    }

    /**
     * Whether rows of {@code base} reach {@code entity}: it is {@code base}, many-to-one joins lead to it, or the
     * request joins it for a filter, group_by, time dimension or segment.
     */
    private boolean reaches(Entity base, String entity, List<Filter> filters, MetricRequest request) {
        if (base.name().equals(entity) || paths.towardsOne(base.name(), entity)) {
            return true;
        }
        List<String> refs = new ArrayList<>(request.groupBy());
        refs.add(request.timeDimension());
        refs.addAll(request.segments());
        for (Filter f : filters) {
            refs.add(f.column());
            refs.add(f.otherColumn());
        }
        return refs.stream().anyMatch(r -> r != null && r.strip().startsWith(entity + "."));
    }

    /** {@code paying} on the metric's entity, or {@code customer.paying} on any entity. */
    private Segment segment(String written, Entity base) throws CompileException {
        String text = written == null ? "" : written.strip();
        int dot = text.indexOf('.');
        Entity owner = dot < 0 ? base : model.entity(text.substring(0, dot)).orElse(null);
        String name = dot < 0 ? text : text.substring(dot + 1);
        Optional<Segment> found = owner == null ? Optional.empty() : owner.segment(name);
        if (found.isPresent()) {
            return found.get();
        }
        // Close names by the segment's own name, offered as the caller must write them.
        Map<String, List<String>> byName = new LinkedHashMap<>();
        for (Entity e : model.entities()) {
            e.segments().forEach(s -> byName.computeIfAbsent(s.name(), k -> new ArrayList<>())
                    .add(e == base ? s.name() : e.name() + "." + s.name()));
        }
        List<String> close = new ArrayList<>();
        Fuzzy.best(name, List.copyOf(byName.keySet()), Fuzzy.DEFAULT_LIMIT).forEach(n -> close.addAll(byName.get(n)));
        throw new CompileException(ErrorKind.INVALID_ARGUMENT, "There is no segment '" + NameSyntax.excerpt(text) + "'"
                + (dot < 0 ? " on " + base.name() + " (name another entity's as entity.segment)" : "") + "; describe_entity"
                + " lists an entity's segments.", close);
    }

    /** A plain request's grain: none, or by its window's grain (by month) when the metric is cumulative. */
    private static String plainGrain(Metric metric) {
        return metric.kind().accept(MetricKind.Cases.of(s -> null, r -> null, d -> null, c -> {
            TimeGrain grain = c.windowGrain() != null ? c.windowGrain() : c.grainToDate() != null ? c.grainToDate() : TimeGrain.MONTH;
            return (metric.timeGrains().isEmpty() || metric.timeGrains().contains(grain) ? grain
                    : metric.timeGrains().get(0)).wireName();
        }));
    }

    /**
     * Whether {@code metric} compiles against this catalog and model as a plain request (by its window's grain, or
     * by month, when it is cumulative): the apply-time check that its parts, columns and joins exist and that its
     * metrics do not refer back to themselves. Empty when it does; else the compiler's sentence.
     */
    public Optional<String> check(Metric metric) {
        try {
            compile(new MetricRequest(metric.name(), List.of(), List.of(), plainGrain(metric), null, List.of(), List.of(), 1),
                    FilterValues.CHECKING, SmallCells.OFF, true);
            return Optional.empty();
        } catch (CompileException e) {
            return Optional.of(e.getMessage());
        }
    }

    /**
     * The tables a plain request for {@code metric} reads (its entities' tables and every table on its join paths),
     * for deciding who may see it; empty when it does not compile, so a broken metric is not shown to a limited role.
     */
    public Optional<Set<QualifiedName>> reach(Metric metric) {
        try {
            CompiledMetric plain = compile(new MetricRequest(metric.name(), List.of(), List.of(), plainGrain(metric), null,
                    List.of(), List.of(), 1), FilterValues.CHECKING, SmallCells.OFF, true);
            Set<QualifiedName> tables = new TreeSet<>();
            plain.touched().forEach(ref -> tables.add(ref.table()));
            model.entity(metric.entity()).ifPresent(e -> tables.add(e.table()));
            return Optional.of(tables);
        } catch (CompileException e) {
            return Optional.empty();
        }
    }

    Metric metric(String name) throws CompileException {
        return model.metric(name).orElseThrow(() -> new CompileException(ErrorKind.UNKNOWN_METRIC,
                "There is no metric named '" + NameSyntax.excerpt(name) + "'; list_metrics shows the metrics there are.",
                Fuzzy.best(name, model.metrics().stream().map(Metric::name).toList(), Fuzzy.DEFAULT_LIMIT)));
    }

    PathFinder paths() {
        return paths;
    }

    /** A column of an entity as the caller wrote it, resolved against the model and the catalog. */
    record Ref(String written, Entity entity, Table table, Column column) {
    }

    Ref reference(String written, ErrorKind problem, String role) throws CompileException {
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

    static TimeGrain grain(String text, Metric metric) throws CompileException {
        if (text == null) {
            return null;
        }
        TimeGrain grain;
        try {
            grain = TimeGrain.fromWire(text);
        } catch (IllegalArgumentException e) {
            throw new CompileException(ErrorKind.INVALID_TIME_GRAIN, "'" + NameSyntax.excerpt(text)
                    + "' is not a time grain; use day, week, month, quarter or year.",
                    Arrays.stream(TimeGrain.values()).map(TimeGrain::wireName).toList());
        }
        if (!metric.timeGrains().isEmpty() && !metric.timeGrains().contains(grain)) {
            List<String> allowed = metric.timeGrains().stream().map(TimeGrain::wireName).toList();
            throw new CompileException(ErrorKind.GRAIN_MISMATCH, "Metric " + metric.name() + " is defined for the grains "
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
    Optional<Ref> timeDimension(String requested, Metric metric, Entity base) throws CompileException {
        String chosen = requested != null ? requested : metric.timeDimension();
        if (chosen != null) {
            Ref ref = reference(chosen, ErrorKind.UNKNOWN_GROUP_BY_COLUMN, "time_dimension");
            if (TypeClass.of(ref.column()) != TypeClass.TEMPORAL) {
                throw new CompileException(ErrorKind.INVALID_ARGUMENT, "time_dimension " + ref.written()
                        + " is not a date or time column; pick one that is.", temporalColumns(ref.entity()));
            }
            return Optional.of(ref);
        }
        TimeAxis axis = TimeAxis.of(catalog, model, base.name());
        if (axis.tied()) {
            List<String> candidates = axis.best().stream().map(TimeAxis.Candidate::reference).toList();
            throw new CompileException(ErrorKind.AMBIGUOUS_TIME_DIMENSION, "Metric " + metric.name()
                    + " has no time dimension and " + candidates.size() + " entities are equally good candidates: "
                    + String.join(", ", candidates) + "; pass time_dimension.", candidates,
                    Map.of("time_dimension", candidates.get(0)));
        }
        if (axis.chosen().isPresent()) {
            return Optional.of(reference(axis.chosen().get().reference(), ErrorKind.UNKNOWN_GROUP_BY_COLUMN, "time_dimension"));
        }
        return Optional.empty();
    }

    private List<String> temporalColumns(Entity e) throws CompileException {
        return table(e).columns().stream().filter(c -> TypeClass.of(c) == TypeClass.TEMPORAL)
                .map(c -> e.name() + "." + c.name()).toList();
    }

    /**
     * Explicit ordering by result keys; by default the time bucket and the group columns, ascending. When
     * small groups are suppressed they come last ({@code flag} first), so the rows the limit keeps are the
     * shown ones and a "top N" shows the largest values there are; the suppressed rows are dropped unread.
     */
    private static String orderBy(Dialect dialect, List<MetricRequest.OrderBy> order, List<String> keys, String flag)
            throws CompileException {
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
                throw new CompileException(ErrorKind.UNKNOWN_ORDER_BY_COLUMN, "order_by '" + NameSyntax.excerpt(wanted)
                        + "' is not a column of the result; order by one of " + String.join(", ", keys) + ".", keys);
            }
            terms.add(dialect.quote("c" + at) + (o.descending() ? " DESC" : " ASC"));
        }
        if (terms.size() == (flag == null ? 0 : 1)) {
            for (int i = 0; i < keys.size() - 1; i++) {
                terms.add(dialect.quote("c" + i) + " ASC");
            }
        }
        return terms.isEmpty() ? "" : " ORDER BY " + String.join(", ", terms);
    }

    /** The first day of the bucket {@code column} falls in. */
    static String bucket(Dialect dialect, String column, TimeGrain grain) {
        return switch (grain) {
            case DAY -> dialect.dayOf(column);
            case WEEK -> dialect.weekOf(column);
            case MONTH -> dialect.monthOf(column);
            case QUARTER -> dialect.quarterOf(column);
            case YEAR -> dialect.yearOf(column);
        };
    }

    Entity entity(String name) throws CompileException {
        return model.entity(name).orElseThrow(() -> drift("entity " + name));
    }

    Table table(Entity e) throws CompileException {
        return catalog.table(e.table()).orElseThrow(() -> drift("the table " + e.table() + " of entity " + e.name()));
    }

    static CompileException drift(String what) {
        return new CompileException(ErrorKind.SCHEMA_DRIFT, "The semantic layer refers to " + what
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
