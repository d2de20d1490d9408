package dev.schemabrain.semantic.project;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.schemabrain.error.SemanticProjectException;
import dev.schemabrain.semantic.compile.CompileException;
import dev.schemabrain.semantic.compile.MeasureExpression;
import dev.schemabrain.semantic.model.Aggregation;
import dev.schemabrain.semantic.model.Filter;
import dev.schemabrain.semantic.model.Measure;
import dev.schemabrain.semantic.model.Metric;
import dev.schemabrain.semantic.model.MetricKind;
import dev.schemabrain.semantic.model.NonAdditive;
import dev.schemabrain.semantic.model.Origin;
import dev.schemabrain.semantic.model.TimeGrain;
import dev.schemabrain.semantic.project.MetricFlowModels.Owned;
import dev.schemabrain.semantic.project.MetricFlowModels.Semantic;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * MetricFlow's metrics as SchemaBrain metrics: simple (a measure, its filters), ratio, derived and cumulative. A
 * per-input filter becomes a filtered simple metric named {@code INPUT_for_METRIC}; a cumulative metric over a
 * measure reuses a simple metric over that measure or gets one. What has no exact counterpart is refused with the
 * reason; the caller lists it as skipped.
 */
final class MetricFlowMetrics {

    private static final int MAX_NAME = 63;
    private static final Pattern WINDOW = Pattern.compile("\\s*(\\d{1,4})\\s+([A-Za-z_]+?)s?\\s*");
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final Pattern NAME_OR_STRING = Pattern.compile("'[^']*'|[A-Za-z_][A-Za-z0-9_]*");

    private final MetricFlowModels models;
    private final Map<String, JsonNode> declared = new LinkedHashMap<>();
    private final Map<String, Metric> done = new LinkedHashMap<>();
    private final Map<String, String> failed = new LinkedHashMap<>();
    /** The semantic model each simple metric is over, for its inputs' filters. */
    private final Map<String, Semantic> homes = new LinkedHashMap<>();
    /** Metrics made here, by name, and the metric each was made for. */
    private final Map<String, String> madeFor = new LinkedHashMap<>();
    private final List<String> notes = new ArrayList<>();
    private final Deque<String> within = new ArrayDeque<>();

    MetricFlowMetrics(MetricFlowModels models) {
        this.models = models;
    }

    /** Translates every MetricFlow metric; {@link #metrics()}, {@link #skipped()} and {@link #notes()} hold the outcome. */
    void translate(List<JsonNode> metrics) {
        metrics.forEach(m -> declared.putIfAbsent(m.path("name").asText(), m));
        // A measure with create_metric: true is a simple metric of its name, as MetricFlow makes it.
        for (Semantic s : models.models()) {
            for (JsonNode measure : s.node().path("measures")) {
                String name = measure.path("name").asText();
                if (measure.path("create_metric").asBoolean(false) && !declared.containsKey(name)) {
                    declared.put(name, JSON.objectNode().put("name", name).put("type", "simple")
                            .set("type_params", JSON.objectNode().set("measure", JSON.objectNode().put("name", name))));
                }
            }
        }
        // Simple metrics first, so a cumulative metric over a measure can find one to reuse.
        declared.keySet().stream().filter(n -> type(declared.get(n)).equals("simple")).forEach(this::resolve);
        declared.keySet().forEach(this::resolve);
    }

    List<Metric> metrics() {
        return List.copyOf(done.values());
    }

    /** "metric NAME: reason" lines, in the manifest's order. */
    List<String> skipped() {
        return failed.entrySet().stream().map(e -> "metric " + e.getKey() + ": " + e.getValue()).toList();
    }

    List<String> notes() {
        return List.copyOf(notes);
    }

    /** Metrics made here for another (a filtered input, a cumulative metric's base), by name, with that metric. */
    Map<String, String> madeFor() {
        return Map.copyOf(madeFor);
    }

    /** The metric {@code name} translated, or the reason it is not; each is translated once. */
    private Metric resolve(String name) {
        if (done.containsKey(name) || failed.containsKey(name)) {
            return done.get(name);
        }
        JsonNode node = declared.get(name);
        if (node == null || within.contains(name)) {
            return null;
        }
        within.push(name);
        try {
            Metric m = translate(name, node);
            done.put(name, m);
            return m;
        } catch (SemanticProjectException e) {
            failed.put(name, e.getMessage());
            return null;
        } finally {
            within.pop();
        }
    }

    private static String type(JsonNode metric) {
        return metric.path("type").asText("").toLowerCase(Locale.ROOT);
    }

    private Metric translate(String name, JsonNode node) throws SemanticProjectException {
        if (!MetricFlowModels.IDENTIFIER.matcher(name).matches() || name.length() > MAX_NAME) {
            throw new SemanticProjectException("its name is not an identifier of at most " + MAX_NAME + " characters");
        }
        JsonNode params = node.path("type_params");
        return switch (type(node)) {
            case "simple" -> simple(name, node, params.path("measure"));
            case "ratio" -> ratio(name, node, params);
            case "derived" -> derived(name, node, params);
            case "cumulative" -> cumulative(name, node, params);
            case "conversion" -> throw new SemanticProjectException("conversion metrics (the share of one event followed by"
                    + " another within a window, per entity) have no SchemaBrain counterpart");
            default -> throw new SemanticProjectException("its type '" + node.path("type").asText() + "' is not simple, ratio,"
                    + " derived, cumulative or conversion");
        };
    }

    private Metric simple(String name, JsonNode node, JsonNode input) throws SemanticProjectException {
        String measureName = input.isTextual() ? input.asText() : input.path("name").asText("");
        Owned owned = models.measure(measureName).orElseThrow(() -> new SemanticProjectException("its measure '" + measureName
                + "' is in no semantic model over an imported entity"));
        if (input.path("join_to_timespine").asBoolean(false) || input.hasNonNull("fill_nulls_with")) {
            throw new SemanticProjectException("its measure input asks for join_to_timespine or fill_nulls_with (empty"
                    + " periods shown as a value), which SchemaBrain has no counterpart for");
        }
        String time = models.timeColumn(owned);
        WhereFilters.Resolver names = models.resolver(owned.owner(), time);
        List<Filter> filters = new ArrayList<>(WhereFilters.of(input.path("filter"), names));
        filters.addAll(WhereFilters.of(node.path("filter"), names));
        homes.put(name, owned.owner());
        return new Metric(name, description(node, owned.measure()), owned.owner().entity().name(), measure(owned), time == null
                ? null : owned.owner().entity().name() + "." + time, List.of(), filters, Origin.DBT);
    }

    private Measure measure(Owned owned) throws SemanticProjectException {
        JsonNode m = owned.measure();
        String measureName = m.path("name").asText();
        String agg = m.path("agg").asText("").toLowerCase(Locale.ROOT);
        String expr = MetricFlowModels.expr(m);
        Aggregation aggregation = switch (agg) {
            case "sum", "sum_boolean" -> Aggregation.SUM;
            case "count" -> Aggregation.COUNT;
            case "count_distinct" -> Aggregation.COUNT_DISTINCT;
            case "average", "avg" -> Aggregation.AVG;
            case "min" -> Aggregation.MIN;
            case "max" -> Aggregation.MAX;
            default -> throw new SemanticProjectException("its measure " + measureName + " aggregates by " + agg
                    + ", which SchemaBrain has no aggregate for");
        };
        if (agg.equals("sum_boolean")) {
            // True counts 1; a bare boolean column is no condition the grammar reads, so that one is refused below.
            expr = "CASE WHEN " + expr + " THEN 1 ELSE 0 END";
        }
        NonAdditive snapshot = nonAdditive(owned);
        if (aggregation == Aggregation.COUNT && (expr.equals("1") || expr.equals("*"))) {
            return new Measure(aggregation, null, null, snapshot);
        }
        if (MetricFlowModels.IDENTIFIER.matcher(expr).matches()) {
            return new Measure(aggregation, expr, null, snapshot);
        }
        try {
            for (String column : MeasureExpression.columns(expr)) {
                if (column.contains(".")) {
                    throw new SemanticProjectException("its measure " + measureName + "'s expr names " + column
                            + ", a qualified column SchemaBrain would read as entity.column");
                }
            }
        } catch (CompileException e) {
            throw new SemanticProjectException("its measure " + measureName + "'s expr '" + excerpt(expr)
                    + "' is outside SchemaBrain's measure grammar (names, numbers, + - * /, COALESCE, CASE WHEN)");
        }
        return new Measure(aggregation, null, expr, snapshot);
    }

    /** MetricFlow's non_additive_dimension: window_choice max keeps the last snapshot, min the first. */
    private static NonAdditive nonAdditive(Owned owned) throws SemanticProjectException {
        JsonNode n = owned.measure().path("non_additive_dimension");
        if (n.isMissingNode() || n.isNull()) {
            return null;
        }
        Semantic s = owned.owner();
        String measureName = owned.measure().path("name").asText();
        String dimension = n.path("name").asText();
        JsonNode d = s.dimension(dimension).orElseThrow(() -> new SemanticProjectException("its measure " + measureName
                + "'s non_additive_dimension " + dimension + " is not a dimension of semantic model " + s.name()));
        String column = MetricFlowModels.column(s.table(), d, "non_additive_dimension");
        NonAdditive.Window window = switch (n.path("window_choice").asText("").toLowerCase(Locale.ROOT)) {
            case "max" -> NonAdditive.Window.LAST;
            case "min" -> NonAdditive.Window.FIRST;
            default -> throw new SemanticProjectException("its measure " + measureName + "'s non_additive_dimension has"
                    + " window_choice '" + n.path("window_choice").asText() + "'; SchemaBrain keeps the first (min) or last (max)");
        };
        List<String> groupings = new ArrayList<>();
        for (JsonNode g : n.path("window_groupings")) {
            JsonNode entity = s.entityNamed(g.asText()).orElseThrow(() -> new SemanticProjectException("its measure "
                    + measureName + "'s window_groupings name " + g.asText() + ", not an entity of semantic model " + s.name()));
            groupings.add(MetricFlowModels.column(s.table(), entity, "window grouping"));
        }
        return new NonAdditive(column, window, groupings);
    }

    private Metric ratio(String name, JsonNode node, JsonNode params) throws SemanticProjectException {
        String numerator = input(name, params.path("numerator"), "numerator");
        String denominator = input(name, params.path("denominator"), "denominator");
        Metric first = done.get(numerator);
        return new Metric(name, description(node, null), first.entity(), null, null, List.of(),
                ownFilters(node, List.of(numerator, denominator)), Origin.DBT, new MetricKind.Ratio(numerator, denominator));
    }

    private Metric derived(String name, JsonNode node, JsonNode params) throws SemanticProjectException {
        String expr = params.path("expr").asText("").strip();
        Map<String, String> byWritten = new LinkedHashMap<>();
        for (JsonNode input : params.path("metrics")) {
            String target = input(name, input, "input");
            String alias = input.path("alias").asText(null);
            byWritten.put(alias != null ? alias : input.path("name").asText(), target);
        }
        List<String> used;
        try {
            used = MeasureExpression.columns(expr);
        } catch (CompileException e) {
            throw new SemanticProjectException("its expr '" + excerpt(expr) + "' is outside SchemaBrain's arithmetic grammar");
        }
        for (String u : used) {
            if (!byWritten.containsKey(u)) {
                throw new SemanticProjectException("its expr names " + u + ", which is none of its input metrics");
            }
        }
        if (byWritten.isEmpty()) {
            throw new SemanticProjectException("it has no input metrics");
        }
        // Aliases and filtered inputs are written as the metrics SchemaBrain holds.
        StringBuilder rewritten = new StringBuilder();
        Matcher m = NAME_OR_STRING.matcher(expr);
        while (m.find()) {
            m.appendReplacement(rewritten, Matcher.quoteReplacement(byWritten.getOrDefault(m.group(), m.group())));
        }
        m.appendTail(rewritten);
        Metric first = done.get(byWritten.values().iterator().next());
        return new Metric(name, description(node, null), first.entity(), null, null, List.of(),
                ownFilters(node, List.copyOf(byWritten.values())), Origin.DBT, new MetricKind.Derived(rewritten.toString()));
    }

    /** A ratio's or derived metric's input as the metric that carries it: the metric itself, or a filtered copy. */
    private String input(String owner, JsonNode input, String role) throws SemanticProjectException {
        String name = input.isTextual() ? input.asText() : input.path("name").asText("");
        if (name.isEmpty()) {
            throw new SemanticProjectException("it has no " + role + " metric");
        }
        if (input.hasNonNull("offset_window") || input.hasNonNull("offset_to_grain")) {
            throw new SemanticProjectException("its " + role + " " + name + " is offset in time (offset_window or"
                    + " offset_to_grain), which SchemaBrain has no counterpart for");
        }
        Metric base = resolve(name);
        if (base == null) {
            throw new SemanticProjectException("its " + role + " " + name + " is not imported"
                    + (failed.containsKey(name) ? " (" + failed.get(name) + ")" : within.contains(name)
                    ? " (the metrics refer back to themselves)" : " (no metric has that name)"));
        }
        JsonNode filter = input.path("filter");
        if (WhereFilters.isEmpty(filter)) {
            return name;
        }
        if (!base.isSimple()) {
            throw new SemanticProjectException("its " + role + " " + name + " carries a filter, and a " + base.kind().wireName()
                    + " metric cannot be filtered per input in SchemaBrain");
        }
        Semantic home = homes.get(name);
        String time = base.timeDimension() == null ? null : base.timeDimension().substring(base.timeDimension().indexOf('.') + 1);
        List<Filter> filters = new ArrayList<>(base.filters());
        filters.addAll(WhereFilters.of(filter, models.resolver(home, time)));
        String made = name + "_for_" + owner;
        if (made.length() > MAX_NAME || declared.containsKey(made)) {
            throw new SemanticProjectException("its " + role + " " + name + " carries a filter, and the metric that would carry"
                    + " it, " + made + ", is too long a name or already taken");
        }
        done.put(made, new Metric(made, "The metric " + name + " as " + owner + " filters it (dbt import)", base.entity(),
                base.measure(), base.timeDimension(), base.timeGrains(), filters, Origin.DBT));
        madeFor.put(made, owner);
        notes.add("metric " + owner + ": its " + role + " " + name + "'s filter is carried by the new simple metric " + made);
        return made;
    }

    private Metric cumulative(String name, JsonNode node, JsonNode params) throws SemanticProjectException {
        JsonNode cumulative = params.path("cumulative_type_params");
        String periodAgg = cumulative.path("period_agg").asText("last").toLowerCase(Locale.ROOT);
        if (!periodAgg.equals("last")) {
            throw new SemanticProjectException("its period_agg is " + periodAgg + ": read by a coarser grain than a day,"
                    + " MetricFlow reports the running value of each period's " + (periodAgg.equals("first") ? "first day"
                    : "days averaged") + " where SchemaBrain reports the period's end; set period_agg: last to import it");
        }
        JsonNode window = cumulative.hasNonNull("window") ? cumulative.path("window") : params.path("window");
        String toDate = cumulative.hasNonNull("grain_to_date") ? cumulative.path("grain_to_date").asText()
                : params.path("grain_to_date").asText(null);
        Integer count = null;
        TimeGrain windowGrain = null;
        if (!window.isMissingNode() && !window.isNull()) {
            String text = window.isTextual() ? window.asText()
                    : window.path("count").asText("") + " " + window.path("granularity").asText("");
            Matcher w = WINDOW.matcher(text);
            if (!w.matches()) {
                throw new SemanticProjectException("its window '" + text.strip() + "' is not a count and a grain");
            }
            count = Integer.valueOf(w.group(1));
            windowGrain = grain(w.group(2), "window");
        }
        TimeGrain grainToDate = toDate == null ? null : grain(toDate, "grain_to_date");
        String base = cumulativeBase(name, node, params);
        Metric baseMetric = done.get(base);
        List<Filter> own = ownFilters(node, List.of(base));
        for (Filter f : own) {
            if (f.column().equals(baseMetric.timeDimension()) || Objects.equals(f.otherColumn(), baseMetric.timeDimension())) {
                throw new SemanticProjectException("its filter is on the time axis, which SchemaBrain applies to the"
                        + " accumulated buckets; move it onto the measure input to filter the rows");
            }
        }
        try {
            return new Metric(name, description(node, null), baseMetric.entity(), null, null, List.of(), own, Origin.DBT,
                    new MetricKind.Cumulative(base, count, windowGrain, grainToDate));
        } catch (IllegalArgumentException e) {
            throw new SemanticProjectException("its window and grain_to_date do not fit together (" + e.getMessage() + ")");
        }
    }

    /** The simple metric a cumulative one runs over: one already over its measure, with its filter, or a new one. */
    private String cumulativeBase(String name, JsonNode node, JsonNode params) throws SemanticProjectException {
        JsonNode measure = params.path("measure");
        if (measure.isMissingNode() || measure.isNull()) {
            JsonNode inputs = params.path("metrics");
            if (inputs.size() != 1) {
                throw new SemanticProjectException("it names neither a measure nor one input metric");
            }
            return input(name, inputs.get(0), "input");
        }
        String measureName = measure.isTextual() ? measure.asText() : measure.path("name").asText("");
        String made = !declared.containsKey(measureName) && !done.containsKey(measureName) ? measureName : name + "_base";
        Metric wanted = simple(made, JSON.objectNode().put("description", "The measure " + measureName
                + " summed for the cumulative metric " + name + " (dbt import)"), measure);
        for (Metric m : done.values()) {
            if (m.isSimple() && m.entity().equals(wanted.entity()) && m.measure().equals(wanted.measure())
                    && Objects.equals(m.timeDimension(), wanted.timeDimension()) && m.filters().equals(wanted.filters())) {
                homes.remove(made);
                return m.name();
            }
        }
        if (declared.containsKey(made) || done.containsKey(made)) {
            throw new SemanticProjectException("its base metric would be named " + made + ", which is already taken");
        }
        done.put(made, wanted);
        madeFor.put(made, name);
        notes.add("metric " + name + ": it runs over the new simple metric " + made + " (its measure " + measureName + ")");
        return made;
    }

    /** A ratio's, derived or cumulative metric's own filter, read from its first part's semantic model. */
    private List<Filter> ownFilters(JsonNode node, List<String> parts) throws SemanticProjectException {
        JsonNode filter = node.path("filter");
        if (WhereFilters.isEmpty(filter)) {
            return List.of();
        }
        Semantic home = homes.get(parts.get(0));
        String time = null;
        boolean shared = true;
        for (String p : parts) {
            Metric m = done.get(p);
            shared &= m.isSimple() && m.timeDimension() != null && m.timeDimension().equals(done.get(parts.get(0)).timeDimension());
        }
        if (shared) {
            String axis = done.get(parts.get(0)).timeDimension();
            time = axis.substring(axis.indexOf('.') + 1);
        }
        if (home == null) {
            home = models.models().stream().filter(s -> s.entity().name().equals(done.get(parts.get(0)).entity()))
                    .findFirst().orElseThrow(() -> new SemanticProjectException("its filter cannot be read: its first"
                            + " part is over no semantic model"));
        }
        return WhereFilters.of(filter, models.resolver(home, time));
    }

    private static TimeGrain grain(String text, String what) throws SemanticProjectException {
        String g = text.strip().toLowerCase(Locale.ROOT);
        g = g.endsWith("s") ? g.substring(0, g.length() - 1) : g;
        try {
            return TimeGrain.fromWire(g);
        } catch (IllegalArgumentException e) {
            throw new SemanticProjectException("its " + what + " grain '" + text + "' is not day, week, month, quarter or year");
        }
    }

    private static String description(JsonNode node, JsonNode fallback) {
        String d = node.path("description").asText("");
        if (d.isBlank() && fallback != null) {
            d = fallback.path("description").asText("");
        }
        return d.isBlank() ? null : d.strip();
    }

    private static String excerpt(String s) {
        return s.length() <= 100 ? s : s.substring(0, 97) + "...";
    }
}
