package dev.schemabrain.semantic.compile;

import dev.schemabrain.error.ErrorKind;
import dev.schemabrain.engine.Dialect;
import dev.schemabrain.semantic.compile.MetricCompiler.Ref;
import dev.schemabrain.semantic.model.Aggregation;
import dev.schemabrain.semantic.model.Filter;
import dev.schemabrain.semantic.model.Metric;
import dev.schemabrain.semantic.model.MetricKind;
import dev.schemabrain.semantic.model.TimeGrain;

import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Metrics made of metrics, as {@link Aggregate}s over their parts' aggregates.
 * <ul>
 * <li><b>ratio</b> and <b>derived</b>: each part is aggregated by the same keys, the parts are stacked
 *     ({@code UNION ALL}) and regrouped by key, so a group one part lacks still meets the other (a month without
 *     refunds has net revenue) and NULL keys match. A sum or count part with no rows in a group is 0 there; a
 *     division by zero gives no value, never an error; division is never integer division.</li>
 * <li><b>cumulative</b>: its metric by time bucket, then a window over the buckets: from the first, over the
 *     last N buckets (by the buckets' calendar numbers, so a month with no rows still counts as a month), or
 *     since the start of each period. Filters on the time axis apply to the buckets after accumulating, so
 *     "running revenue in 2024" includes what came before.</li>
 * </ul>
 * A combined value is flagged when any group it rests on is flagged: a ratio of two shown numbers could
 * otherwise rebuild a hidden one, and so could the difference of two running totals.
 */
final class Combinations {

    private final MetricCompiler compiler;
    private final Dialect dialect;
    private final MetricCompiler.Pass pass;

    Combinations(MetricCompiler compiler, Dialect dialect, MetricCompiler.Pass pass) {
        this.compiler = compiler;
        this.dialect = dialect;
        this.pass = pass;
    }

    /** numerator / denominator by key, with no value where the denominator is 0. */
    Aggregate ratio(Metric metric, MetricKind.Ratio r, MetricRequest request, TimeGrain grain, SmallCells cells,
                    Deque<String> within) throws CompileException {
        List<Metric> parts = List.of(compiler.metric(r.numerator()), compiler.metric(r.denominator()));
        return combine(metric, parts, request, grain, cells, within,
                x -> "(" + x.get(0) + ") * 1.0 / NULLIF(" + x.get(1) + ", 0)");
    }

    /** The expression over the named metrics, by key. */
    Aggregate derived(Metric metric, MetricKind.Derived d, MetricRequest request, TimeGrain grain, SmallCells cells,
                      Deque<String> within) throws CompileException {
        List<String> names = MeasureExpression.columns(d.expression());
        List<Metric> parts = new ArrayList<>();
        for (String name : names) {
            if (name.indexOf('.') >= 0) {
                throw new CompileException(ErrorKind.INVALID_ARGUMENT, "Derived metric " + metric.name() + " names "
                        + name + "; its expression combines metrics by name, not columns.", List.of());
            }
            parts.add(compiler.metric(name));
        }
        return combine(metric, parts, request, grain, cells, within, x -> {
            Map<String, String> byName = new HashMap<>();
            for (int i = 0; i < names.size(); i++) {
                byName.put(names.get(i), x.get(i));
            }
            try {
                return MeasureExpression.render(d.expression(), byName::get);
            } catch (CompileException e) {
                throw new IllegalStateException("the expression parsed a moment ago", e);
            }
        });
    }

    interface Expression {
        String of(List<String> parts);
    }

    private Aggregate combine(Metric metric, List<Metric> parts, MetricRequest request, TimeGrain grain, SmallCells cells,
                              Deque<String> within, Expression expression) throws CompileException {
        List<Filter> own = new ArrayList<>(metric.filters());
        own.addAll(request.filters());
        List<Aggregate> built = new ArrayList<>();
        for (Metric part : parts) {
            MetricCompiler.grain(request.timeGrain(), part);
            built.add(compiler.build(part, request.forMetric(part.name(), own), grain, dialect, cells, within, pass));
        }
        Aggregate first = built.get(0);
        for (int i = 1; i < built.size(); i++) {
            if (built.get(i).timeKey() != first.timeKey()) {
                Metric without = built.get(i).timeKey() ? parts.get(0) : parts.get(i);
                throw new CompileException(ErrorKind.INVALID_ARGUMENT, "Metric " + metric.name() + " combines " + parts.get(0).name()
                        + " and " + parts.get(i).name() + ", but " + without.name() + " has no time axis for time_grain; pass a"
                        + " time_dimension both can reach, or leave out time_grain.", List.of());
            }
        }
        int keyCount = first.keys().size();
        List<String> keyNames = new ArrayList<>();
        for (int k = 0; k < keyCount; k++) {
            keyNames.add(q("k" + k));
        }
        String keyList = keyNames.isEmpty() ? "" : String.join(", ", keyNames) + ", ";
        SqlText stacked = new SqlText();
        for (int i = 0; i < built.size(); i++) {
            stacked.append(i == 0 ? "" : " UNION ALL ").append("SELECT " + keyList + i + " AS " + q("i") + ", " + q("v") + ", "
                    + q("f") + " FROM (").append(built.get(i).select()).append(") AS " + q("m" + i));
        }
        List<String> values = new ArrayList<>();
        for (int i = 0; i < parts.size(); i++) {
            String part = "MAX(CASE WHEN " + q("i") + " = " + i + " THEN " + q("v") + " END)";
            values.add(additive(parts.get(i)) ? "COALESCE(" + part + ", 0)" : part);
        }
        SqlText select = new SqlText().append("SELECT " + keyList + expression.of(values) + " AS " + q("v") + ", MAX("
                + q("f") + ") AS " + q("f") + " FROM (").append(stacked).append(") AS " + q("u"));
        if (!keyNames.isEmpty()) {
            select.append(" GROUP BY " + String.join(", ", keyNames));
        }
        return Aggregate.combining(select, built);
    }

    /** A part whose value over no rows is 0: a simple sum or count. */
    private static boolean additive(Metric m) {
        return m.isSimple() && (m.measure().agg() == Aggregation.SUM || m.measure().agg() == Aggregation.COUNT)
                && m.measure().nonAdditive() == null;
    }

    Aggregate cumulative(Metric metric, MetricKind.Cumulative c, MetricRequest request, TimeGrain grain, SmallCells cells,
                         Deque<String> within) throws CompileException {
        Metric base = compiler.metric(c.metric());
        if (!additive(base)) {
            throw new CompileException(ErrorKind.INVALID_ARGUMENT, "Cumulative metric " + metric.name() + " runs over "
                    + base.name() + ", which is not a simple sum or count; a running total of averages, distinct counts or"
                    + " snapshots would count things twice. Define it over a sum or count metric.", List.of());
        }
        TimeGrain needed = c.window() != null ? c.windowGrain() : null;
        if (grain == null) {
            String suggest = (needed != null ? needed : TimeGrain.MONTH).wireName();
            throw new CompileException(ErrorKind.INVALID_ARGUMENT, "Cumulative metric " + metric.name() + " is a total over"
                    + " time buckets and needs time_grain, for example " + suggest + ".", List.of(suggest),
                    Map.of("time_grain", suggest));
        }
        if (needed != null && grain != needed) {
            throw new CompileException(ErrorKind.GRAIN_MISMATCH, "Cumulative metric " + metric.name() + " totals the last "
                    + c.window() + " " + needed.wireName() + "s, so it is read by " + needed.wireName() + ", not "
                    + grain.wireName() + ".", List.of(needed.wireName()), Map.of("time_grain", needed.wireName()));
        }
        if (c.grainToDate() != null && grain.ordinal() > c.grainToDate().ordinal()) {
            throw new CompileException(ErrorKind.GRAIN_MISMATCH, "Cumulative metric " + metric.name() + " runs from the start"
                    + " of each " + c.grainToDate().wireName() + ", so read it by " + c.grainToDate().wireName()
                    + " or finer, not " + grain.wireName() + ".", List.of(c.grainToDate().wireName()),
                    Map.of("time_grain", c.grainToDate().wireName()));
        }
        MetricCompiler.grain(request.timeGrain(), base);
        Optional<Ref> axis = compiler.timeDimension(request.timeDimension(), base, compiler.entity(base.entity()));
        if (axis.isEmpty()) {
            throw new CompileException(ErrorKind.INVALID_ARGUMENT, "Cumulative metric " + metric.name() + " runs over "
                    + base.name() + ", which has no time axis; give " + base.name() + " a time_dimension.", List.of());
        }
        // Filters on the time axis limit the buckets shown, not the rows accumulated.
        List<Filter> all = new ArrayList<>(metric.filters());
        all.addAll(request.filters());
        List<Filter> rows = new ArrayList<>();
        List<Filter> buckets = new ArrayList<>();
        List<Ref> bucketRefs = new ArrayList<>();
        for (Filter written : all) {
            // metric_time is the running total's own axis.
            Filter f = MetricCompiler.isMetricTime(written.column()) && !written.comparesColumns()
                    ? new Filter(axis.get().entity().name() + "." + axis.get().column().name(), written.op(), written.value())
                    : written;
            Ref r = compiler.reference(f.column(), ErrorKind.UNKNOWN_FILTER_COLUMN, "filter");
            boolean onAxis = !f.comparesColumns() && r.table().name().equals(axis.get().table().name())
                    && r.column().name().equals(axis.get().column().name());
            (onAxis ? buckets : rows).add(f);
            if (onAxis) {
                bucketRefs.add(r);
            }
        }
        Aggregate a = compiler.build(base, request.forMetric(base.name(), rows), grain, dialect, cells, within, pass);
        if (!a.timeKey()) {
            throw new CompileException(ErrorKind.INVALID_ARGUMENT, "Cumulative metric " + metric.name() + " needs "
                    + base.name() + " by time bucket, and it has no time axis here; pass time_dimension.", List.of());
        }
        String k0 = q("k0");
        List<String> partition = new ArrayList<>();
        for (int k = 1; k < a.keys().size(); k++) {
            partition.add(q("k" + k));
        }
        if (c.grainToDate() != null) {
            partition.add(MetricCompiler.bucket(dialect, k0, c.grainToDate()));
        }
        String window = (partition.isEmpty() ? "" : "PARTITION BY " + String.join(", ", partition) + " ")
                + (c.window() == null ? "ORDER BY " + k0 + " ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW"
                : "ORDER BY " + index(k0, grain) + " RANGE BETWEEN " + (c.window() - 1) + " PRECEDING AND CURRENT ROW");
        List<String> keys = new ArrayList<>();
        for (int k = 0; k < a.keys().size(); k++) {
            keys.add(q("k" + k));
        }
        SqlText running = new SqlText().append("SELECT " + String.join(", ", keys) + ", SUM(" + q("v") + ") OVER (" + window
                + ") AS " + q("v") + ", MAX(" + q("f") + ") OVER (" + window + ") AS " + q("f") + " FROM (")
                .append(a.select()).append(") AS " + q("b"));
        if (buckets.isEmpty()) {
            return a.withSelect(running);
        }
        SqlText shown = new SqlText().append("SELECT * FROM (").append(running).append(") AS " + q("w"));
        SimpleAggregate conditions = new SimpleAggregate(compiler, dialect);
        for (int i = 0; i < buckets.size(); i++) {
            shown.append(i == 0 ? " WHERE " : " AND ");
            conditions.condition(shown, q("w") + "." + k0, bucketRefs.get(i), buckets.get(i));
        }
        return a.withSelect(shown);
    }

    /** The bucket's calendar number at {@code grain}: consecutive buckets are consecutive integers. */
    private String index(String bucket, TimeGrain grain) {
        return switch (grain) {
            case DAY -> dialect.dayNumber(bucket);
            case WEEK -> "(" + dialect.dayNumber(bucket) + " - 4) / 7";   // buckets are Mondays; day 4 was one
            case MONTH -> "(" + dialect.yearNumber(bucket) + " * 12 + " + dialect.monthNumber(bucket) + ")";
            case QUARTER -> "(" + dialect.yearNumber(bucket) + " * 4 + (" + dialect.monthNumber(bucket) + " - 1) / 3)";
            case YEAR -> dialect.yearNumber(bucket);
        };
    }

    private String q(String identifier) {
        return dialect.quote(identifier);
    }
}
