package dev.schemabrain.gate;

import dev.schemabrain.access.Access;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.engine.Dialect;
import dev.schemabrain.engine.Engines;
import dev.schemabrain.error.ErrorKind;
import dev.schemabrain.execute.QueryExecutor;
import dev.schemabrain.execute.SourceExecutors;
import dev.schemabrain.pii.MetricPiiCheck;
import dev.schemabrain.semantic.compile.CompileException;
import dev.schemabrain.semantic.compile.CompiledMetric;
import dev.schemabrain.semantic.compile.MetricCompiler;
import dev.schemabrain.semantic.compile.MetricRequest;
import dev.schemabrain.semantic.compile.RowScope;
import dev.schemabrain.semantic.compile.SmallCells;
import dev.schemabrain.semantic.model.FilterOp;
import dev.schemabrain.served.ServedCatalog;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * The metric gate: what a get_metric request may run. In order, each step before anything needs the database, so a
 * refusal never depends on credentials: the caller's view (the metric and every entity the request names), the
 * compile under the caller's row filters and the server's small-cell rule, the row filters checked against the whole
 * layer, the disclosure rules over every column the statement reads, and the database its tables live in.
 */
public final class MetricGate {

    /**
     * Small-cell suppression's default K: a group of fewer than five people gets no value. Five is the
     * common floor of statistical disclosure control (the threshold rule of Eurostat's and the US federal
     * agencies' tabular-data guidance, and the CMS cell-size suppression policy uses eleven); it keeps
     * every answer about a country, a plan or a month while refusing one about a household.
     */
    public static final int DEFAULT_MIN_GROUP_SIZE = 5;

    private final SourceExecutors executors;
    private final int minGroupSize;

    /** @param minGroupSize the smallest group of people whose value is shown; 1 shows every group */
    public MetricGate(SourceExecutors executors, int minGroupSize) {
        if (minGroupSize < 1) {
            throw new IllegalArgumentException("the minimum group size must be at least 1");
        }
        this.executors = executors;
        this.minGroupSize = minGroupSize;
    }

    /**
     * @param rowFiltersApplied told the row filters the compile applied, once it has compiled (the audit row names
     *                          them whether or not a later step refuses)
     */
    public MetricDecision decide(MetricRequest request, ServedCatalog served, Access access,
                                 Consumer<List<String>> rowFiltersApplied) {
        Optional<Refused> outside = ViewRefusals.metric(served, request.metric()).or(() -> hiddenReference(served, request));
        if (outside.isPresent()) {
            return outside.get();
        }
        Optional<QueryExecutor> home = home(served, request.metric());
        // A listed metric compiles with its unlisted parts; an unknown name against the listed ones (its suggestions).
        MetricCompiler compiler;
        CompiledMetric compiled;
        try {
            List<RowScope> scopes = access.restricted() ? RowScopes.of(access, served.whole().semantic()) : List.of();
            compiler = new MetricCompiler(served.catalog(), served.semantic().metric(request.metric()).isPresent()
                    ? served.compilable() : served.semantic(), scopes);
            // Compiled for the engine of the database the metric's entity lives in; without one nothing runs, and
            // PostgreSQL's SQL is what a refusal or a dry answer shows.
            Dialect dialect = home.map(QueryExecutor::dialect).orElse(Engines.POSTGRESQL);
            compiled = compiler.compile(request, dialect, smallCells(served, access));
            RowScopes.checkWhole(scopes, served, request, compiled.rowFilters(), dialect);
        } catch (CompileException e) {
            String entity = served.semantic().metric(request.metric()).map(m -> m.entity()).orElse("");
            return MetricRefusals.compileError(e, request, entity);
        }
        rowFiltersApplied.accept(compiled.rowFilters());
        MetricPiiCheck.Verdict pii = served.piiCheck(uses(compiled));
        if (pii.refusal().isPresent()) {
            return MetricRefusals.pii(pii.refusal().get(), compiled, served);
        }
        if (executors.isEmpty()) {
            return Refused.of(ErrorKind.MISSING_CREDENTIAL, "get_metric needs the source database, and this server was"
                    + " started without one; restart it with schemabrain serve --url-env VAR (or --source URL).",
                    "list_metrics", Map.of(), List.of("list_metrics", "describe_entity"));
        }
        Set<QualifiedName> tables = new TreeSet<>();
        compiled.touched().forEach(ref -> tables.add(ref.table()));
        served.whole().semantic().entity(compiled.metric().entity()).ifPresent(e -> tables.add(e.table()));
        // The entity's table is among them: a metric compiled for its engine runs on its database, or not at all.
        SourceRouting.Routed routed = SourceRouting.route(MetricRefusals.GET_METRIC, tables, served.whole(), executors);
        if (routed.refusal().isPresent()) {
            return routed.refusal().get();
        }
        return new MetricDecision.Plan(request, compiled, compiler, pii, routed.executor().get());
    }

    /**
     * The last check, made on the database once the call is audited: a text filter value no row holds that is a typo
     * of a value the catalog shows, since a zero or a suppressed group would look like an answer.
     */
    public Optional<Refused> typo(MetricDecision.Plan plan, ServedCatalog served) {
        return MetricRefusals.typo(plan.request(), plan.compiler(), plan.source(), served);
    }

    /** The suppression this server applies: its K, counting the data subjects of the served catalog. */
    private SmallCells smallCells(ServedCatalog served, Access access) {
        // A role may ask for larger groups than the server, never smaller ones.
        int k = Math.max(minGroupSize, access.minGroupSize().orElse(0));
        return k <= 1 ? SmallCells.OFF : new SmallCells(k, served.subjectGraph());
    }

    /** The database the metric's own entity was indexed from, when the server has a connection for it. */
    private Optional<QueryExecutor> home(ServedCatalog served, String metric) {
        Optional<QueryExecutor> own = served.semantic().metric(metric)
                .flatMap(m -> served.whole().semantic().entity(m.entity()))
                .flatMap(e -> served.sourceOf(e.table())).flatMap(executors::forSource);
        return own.or(executors::only);
    }

    /**
     * allowlist_violation for a group_by, filter, time dimension, ordering or segment on an entity outside the
     * caller's role; empty when every reference is to an entity it may see (or to none the catalog has).
     */
    private static Optional<Refused> hiddenReference(ServedCatalog served, MetricRequest request) {
        if (!served.access().restricted()) {
            return Optional.empty();
        }
        List<String> refs = new ArrayList<>(request.groupBy());
        request.filters().forEach(f -> {
            refs.add(f.column());
            refs.add(f.otherColumn());
        });
        refs.add(request.timeDimension());
        request.orderBy().forEach(o -> refs.add(o.column()));
        refs.addAll(request.segments());
        for (String ref : refs) {
            int dot = ref == null ? -1 : ref.strip().indexOf('.');
            if (dot > 0) {
                Optional<Refused> refused = ViewRefusals.entity(served, ref.strip().substring(0, dot));
                if (refused.isPresent()) {
                    return refused;
                }
            }
        }
        return Optional.empty();
    }

    /** Every column the query reads, with the role the disclosure rules look at. */
    public static List<MetricPiiCheck.ColumnUse> uses(CompiledMetric compiled) {
        return compiled.touched().stream().map(ref -> new MetricPiiCheck.ColumnUse(ref.table(), ref.column(),
                switch (ref.role()) {
                    case MEASURE -> MetricPiiCheck.Use.MEASURE;
                    case MEASURE_EXTREMUM -> MetricPiiCheck.Use.MIN_MAX_OPERAND;
                    case GROUP_BY -> MetricPiiCheck.Use.GROUP_BY;
                    case TIME_DIMENSION -> MetricPiiCheck.Use.TIME_DIMENSION;
                    case JOIN_KEY -> MetricPiiCheck.Use.JOIN_KEY;
                    case FILTER -> filterUse(ref.op());
                })).toList();
    }

    /** An operator the rules do not know is treated as the strictest: a range (pattern) test. */
    private static MetricPiiCheck.Use filterUse(FilterOp op) {
        if (op == null) {
            return MetricPiiCheck.Use.FILTER_RANGE;
        }
        return switch (op) {
            case EQ, NE, IN, NOT_IN -> MetricPiiCheck.Use.FILTER_EQUALITY;
            case IS_NULL, NOT_NULL -> MetricPiiCheck.Use.FILTER_NULL_TEST;
            case LT, LTE, GT, GTE -> MetricPiiCheck.Use.FILTER_RANGE;
        };
    }

}
