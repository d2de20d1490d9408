package dev.schemabrain.semantic.project;

import dev.schemabrain.catalog.InferenceMethod;
import dev.schemabrain.error.SemanticProjectException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.ValidationState;
import dev.schemabrain.semantic.compile.CompileException;
import dev.schemabrain.semantic.compile.MeasureExpression;
import dev.schemabrain.semantic.model.Aggregation;
import dev.schemabrain.semantic.model.Bridge;
import dev.schemabrain.semantic.model.Cardinality;
import dev.schemabrain.semantic.model.ColumnPair;
import dev.schemabrain.semantic.model.Entity;
import dev.schemabrain.semantic.model.Filter;
import dev.schemabrain.semantic.model.FilterOp;
import dev.schemabrain.semantic.model.Join;
import dev.schemabrain.semantic.model.Measure;
import dev.schemabrain.semantic.model.Metric;
import dev.schemabrain.semantic.model.MetricKind;
import dev.schemabrain.semantic.model.NonAdditive;
import dev.schemabrain.semantic.model.Segment;
import dev.schemabrain.semantic.model.Origin;
import dev.schemabrain.semantic.model.TimeGrain;
import dev.schemabrain.semantic.project.SemanticFileReader.Bound;
import dev.schemabrain.semantic.project.SemanticFiles.EntityFile;
import dev.schemabrain.semantic.project.SemanticFiles.FilterFile;
import dev.schemabrain.semantic.project.SemanticFiles.JoinFile;
import dev.schemabrain.semantic.project.SemanticFiles.MeasureFile;
import dev.schemabrain.semantic.project.SemanticFiles.MetricFile;
import dev.schemabrain.semantic.project.SemanticFiles.NonAdditiveFile;
import dev.schemabrain.semantic.project.SemanticFiles.ObservedFile;
import dev.schemabrain.semantic.project.SemanticFiles.SegmentFile;
import dev.schemabrain.semantic.project.SemanticFiles.WindowFile;
import dev.schemabrain.semantic.project.SemanticFiles.ObjectFile;
import dev.schemabrain.semantic.project.SemanticFiles.PairFile;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The semantic objects in the shape of their YAML files, both ways, through the
 * {@link SemanticFiles} records. Reading is strict: {@code version: 1}, required keys present, no unknown
 * keys, names that are identifiers, known enums; each failure names the file, the key path and the line.
 * The store keeps the same shape as JSON.
 */
public final class SemanticCodec {

    public static final int VERSION = 1;
    /** The kinds of semantic object, as the store names them. */
    public static final String ENTITY = "entity";
    public static final String JOIN = "join";
    public static final String METRIC = "metric";
    /** The key of an object's validation state in its file; the store keeps the state in its own column. */
    public static final String VALIDATION_STATE = "validation_state";

    /** The origin a segment drafted from the query log carries. */
    private static final String OBSERVED = InferenceMethod.OBSERVED_IN_QUERY_LOG.wireName();
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,62}");

    private SemanticCodec() {
    }

    // ---- writing ----

    public static ObjectNode encode(Entity e) {
        return tree(new EntityFile(VERSION, e.name(), e.description(), e.table().toString(), e.identity(), e.group(),
                e.segments().stream().map(g -> new SegmentFile(g.name(), g.description(), g.isDefault() ? Boolean.TRUE : null,
                        filterFiles(g.filters()), g.observed() == null ? null : OBSERVED,
                        g.observed() == null ? null : new ObservedFile(g.observed().statements(), g.observed().observations(),
                                g.observed().lastSeen()))).toList(),
                e.origin().method().wireName(), e.origin().state().wireName()));
    }

    public static ObjectNode encode(Join j) {
        Bridge b = j.bridge();
        return tree(new JoinFile(VERSION, j.name(), j.sourceEntity(), j.targetEntity(), pairs(b == null ? j.on() : b.sourceOn()),
                b == null ? null : b.table().toString(), b == null ? null : pairs(b.targetOn()), j.cardinality().wireName(),
                j.origin().method().wireName(), j.origin().state().wireName()));
    }

    public static ObjectNode encode(Metric m) {
        Measure measure = m.measure();
        MeasureFile measureFile = measure == null ? null : new MeasureFile(measure.agg().wireName(), measure.column(),
                measure.expression(), nonAdditive(measure.nonAdditive()));
        String type = m.isSimple() ? null : m.kind().wireName();
        KindKeys k = m.kind().accept(KIND_KEYS);
        return tree(new MetricFile(VERSION, m.name(), m.description(), type, m.entity(), measureFile, k.numerator(),
                k.denominator(), k.expression(), k.base(), k.window(), k.toDate(), m.timeDimension(),
                m.timeGrains().stream().map(TimeGrain::wireName).toList(), filterFiles(m.filters()),
                m.origin().method().wireName(), m.origin().state().wireName()));
    }

    /** The keys of a metric's file that only its kind has; null where it has none. */
    private record KindKeys(String numerator, String denominator, String expression, String base, WindowFile window,
                            String toDate) {
    }

    private static final MetricKind.Cases<KindKeys> KIND_KEYS = MetricKind.Cases.of(
            s -> new KindKeys(null, null, null, null, null, null),
            r -> new KindKeys(r.numerator(), r.denominator(), null, null, null, null),
            d -> new KindKeys(null, null, d.expression(), null, null, null),
            c -> new KindKeys(null, null, null, c.metric(),
                    c.window() == null ? null : new WindowFile(c.window().longValue(), c.windowGrain().wireName()),
                    c.grainToDate() == null ? null : c.grainToDate().wireName()));

    private static NonAdditiveFile nonAdditive(NonAdditive n) {
        return n == null ? null : new NonAdditiveFile(n.column(), n.window().wireName(), n.groupings());
    }

    private static List<FilterFile> filterFiles(List<Filter> filters) {
        return filters.stream().map(f -> new FilterFile(f.column(), f.op().wireName(), wire(f.value()), f.otherColumn())).toList();
    }

    private static ObjectNode tree(Record file) {
        return SemanticFileReader.YAML.valueToTree(file);
    }

    private static List<PairFile> pairs(List<ColumnPair> pairs) {
        return pairs.stream().map(p -> new PairFile(p.source(), p.target())).toList();
    }

    /** A filter value as the files write it: Long, Double, Boolean, text, or a list of those. */
    private static Object wire(Object v) {
        if (v == null || v instanceof Long || v instanceof Double || v instanceof Boolean) {
            return v;
        }
        return v instanceof List<?> list ? list.stream().map(SemanticCodec::wire).toList() : String.valueOf(v);
    }

    // ---- reading ----

    /** @param where the file (or store row) being read, for messages */
    public static Entity decodeEntity(String text, String where, Format format, Origin origin) throws SemanticProjectException {
        Bound<EntityFile> b = open(text, EntityFile.class, where, format);
        EntityFile f = b.value();
        String name = identifier(b, "name", f.name());
        String table = required(b, "table", f.table());
        int dot = table.indexOf('.');
        if (dot <= 0 || dot == table.length() - 1 || table.indexOf('.', dot + 1) >= 0) {
            throw b.fail("table", "must be a qualified name schema.table, not '" + SemanticFileReader.printable(table) + "'");
        }
        List<String> identity = names(b, "identity", f.identity());
        if (identity.isEmpty()) {
            throw b.fail("identity", f.identity() == null ? "is required" : "must list at least one column");
        }
        List<Segment> segments = new ArrayList<>();
        List<SegmentFile> segmentFiles = f.segments() == null ? List.of() : f.segments();
        for (int i = 0; i < segmentFiles.size(); i++) {
            String at = "segments[" + i + "]";
            SegmentFile g = segmentFiles.get(i);
            if (g == null) {
                throw b.fail(at, "must be a mapping of name, description, default and filters");
            }
            String segmentName = identifier(b, at + ".name", g.name());
            if (segments.stream().anyMatch(x -> x.name().equals(segmentName))) {
                throw b.fail(at + ".name", "repeats the segment '" + segmentName + "'; segment names are unique per entity");
            }
            if (g.isDefault() != null && !(g.isDefault() instanceof Boolean)) {
                throw b.fail(at + ".default", "must be true or false");
            }
            List<Filter> segmentFilters = filters(b, at + ".filters", g.filters());
            if (segmentFilters.isEmpty()) {
                throw b.fail(at + ".filters", "must list at least one filter");
            }
            segments.add(new Segment(segmentName, optional(g.description()), segmentFilters, Boolean.TRUE.equals(g.isDefault()),
                    observed(b, at, g, format)));
        }
        return new Entity(name, optional(f.description()), QualifiedName.of(table.substring(0, dot), table.substring(dot + 1)),
                identity, optional(f.group()), claimed(b, origin, format, false), segments);
    }

    /**
     * A segment's query-log marker: kept from the store; in a project's file only checked, since the store's entity
     * is what apply keeps while the file leaves it as it is.
     */
    private static Segment.Observed observed(Bound<EntityFile> b, String at, SegmentFile g, Format format)
            throws SemanticProjectException {
        if (g.origin() == null && g.observed() == null) {
            return null;
        }
        if (!OBSERVED.equals(g.origin())) {
            throw b.fail(at + ".origin", "is '" + SemanticFileReader.printable(String.valueOf(g.origin()))
                    + "'; a segment's origin is " + OBSERVED + " or absent");
        }
        if (Boolean.TRUE.equals(g.isDefault())) {
            throw b.fail(at + ".default", "cannot be true on a segment observed in the query log; remove 'origin' and"
                    + " 'observed' to make it yours and the default");
        }
        if (format == Format.YAML) {
            return null;
        }
        ObservedFile o = g.observed();
        if (o == null || !(o.statements() instanceof Number s) || !(o.observations() instanceof Number n)) {
            throw b.fail(at + ".observed", "must give statements and observations");
        }
        return new Segment.Observed(s.intValue(), n.longValue(), o.lastSeen());
    }

    public static Join decodeJoin(String text, String where, Format format, Origin origin) throws SemanticProjectException {
        Bound<JoinFile> b = open(text, JoinFile.class, where, format);
        JoinFile f = b.value();
        String name = identifier(b, "name", f.name());
        String source = identifier(b, "source_entity", f.sourceEntity());
        String target = identifier(b, "target_entity", f.targetEntity());
        List<ColumnPair> on = pairs(b, "on", f.on());
        Cardinality cardinality = enumValue(b, "cardinality", f.cardinality(), Cardinality::fromWire,
                "one_to_one, one_to_many, many_to_one, many_to_many");
        String through = optional(f.through());
        if (through == null) {
            if (f.throughOn() != null) {
                throw b.fail("through_on", "needs 'through', the link table");
            }
            return new Join(name, source, target, on, null, cardinality, claimed(b, origin, format, false));
        }
        int dot = through.indexOf('.');
        if (dot <= 0 || dot == through.length() - 1) {
            throw b.fail("through", "must be a qualified name schema.table, not '" + SemanticFileReader.printable(through) + "'");
        }
        List<ColumnPair> throughOn = pairs(b, "through_on", f.throughOn());
        return new Join(name, source, target, List.of(),
                new Bridge(QualifiedName.of(through.substring(0, dot), through.substring(dot + 1)), on, throughOn),
                cardinality, claimed(b, origin, format, false));
    }

    public static Metric decodeMetric(String text, String where, Format format, Origin origin) throws SemanticProjectException {
        Bound<MetricFile> b = open(text, MetricFile.class, where, format);
        MetricFile f = b.value();
        String name = identifier(b, "name", f.name());
        String entity = identifier(b, "entity", f.entity());
        String type = f.type() == null ? "simple" : f.type().strip().toLowerCase(Locale.ROOT);
        MetricKind kind;
        Measure measure = null;
        switch (type) {
            case "simple" -> {
                absent(b, f, "simple", "numerator", "denominator", "expression", "metric", "window", "grain_to_date");
                measure = measure(b, f.measure());
                kind = MetricKind.SIMPLE;
            }
            case "ratio" -> {
                absent(b, f, "ratio", "measure", "expression", "metric", "window", "grain_to_date");
                kind = new MetricKind.Ratio(identifier(b, "numerator", f.numerator()), identifier(b, "denominator", f.denominator()));
            }
            case "derived" -> {
                absent(b, f, "derived", "measure", "numerator", "denominator", "metric", "window", "grain_to_date");
                String expression = required(b, "expression", f.expression());
                try {
                    MeasureExpression.columns(expression);
                } catch (CompileException e) {
                    throw b.fail("expression", "is not valid: " + e.getMessage());
                }
                kind = new MetricKind.Derived(expression);
            }
            case "cumulative" -> {
                absent(b, f, "cumulative", "measure", "numerator", "denominator", "expression");
                String base = identifier(b, "metric", f.metric());
                Integer count = null;
                TimeGrain windowGrain = null;
                if (f.window() != null) {
                    if (!(f.window().count() instanceof Number n) || n.doubleValue() != Math.rint(n.doubleValue())
                            || n.intValue() < 1 || n.intValue() > 1000) {
                        throw b.fail("window.count", "must be a whole number from 1 to 1000");
                    }
                    count = ((Number) f.window().count()).intValue();
                    windowGrain = enumValue(b, "window.grain", f.window().grain(), TimeGrain::fromWire, GRAINS);
                }
                TimeGrain toDate = f.grainToDate() == null ? null
                        : enumValue(b, "grain_to_date", f.grainToDate(), TimeGrain::fromWire, GRAINS);
                if (count != null && toDate != null) {
                    throw b.fail("grain_to_date", "cannot stand beside 'window'; a cumulative metric has one or neither");
                }
                kind = new MetricKind.Cumulative(base, count, windowGrain, toDate);
            }
            default -> throw b.fail("type", "is '" + SemanticFileReader.printable(type) + "'; use one of simple, ratio,"
                    + " derived, cumulative");
        }
        List<TimeGrain> grains = new ArrayList<>();
        List<String> grainNames = f.timeGrains() == null ? List.of() : f.timeGrains();
        for (int i = 0; i < grainNames.size(); i++) {
            grains.add(enumValue(b, "time_grains[" + i + "]", grainNames.get(i), TimeGrain::fromWire, GRAINS));
        }
        return new Metric(name, optional(f.description()), entity, measure, optional(f.timeDimension()), grains,
                filters(b, "filters", f.filters()), claimed(b, origin, format, true), kind);
    }

    private static final String GRAINS = "day, week, month, quarter, year";

    /**
     * {@code origin}, confirmed when a project's file says {@code validation_state: confirmed} (the operator's review),
     * rejected when it says {@code validation_state: rejected};
     * any other state a file gives is checked and left to apply, and the store's row has its own columns.
     */
    private static Origin claimed(Bound<? extends ObjectFile> b, Origin origin, Format format, boolean metric)
            throws SemanticProjectException {
        String state = b.value().validationState();
        if (format == Format.JSON || state == null) {
            return origin;
        }
        // Only a metric can be rejected: entities and joins are what every metric stands on.
        ValidationState claimed = enumValue(b, VALIDATION_STATE, state,
                v -> {
                    ValidationState parsed = ValidationState.valueOf(v.toUpperCase(Locale.ROOT));
                    if (parsed == ValidationState.REJECTED && !metric) {
                        throw new IllegalArgumentException("only a metric can be rejected");
                    }
                    return parsed;
                }, metric ? "draft, applied, confirmed, rejected" : "draft, applied, confirmed");
        return claimed == ValidationState.CONFIRMED ? origin.confirmed()
                : claimed == ValidationState.REJECTED ? origin.asRejected() : origin;
    }

    private static Measure measure(Bound<MetricFile> b, MeasureFile m) throws SemanticProjectException {
        if (m == null) {
            throw b.fail("measure", "is required and must be a mapping");
        }
        Aggregation agg = enumValue(b, "measure.agg", m.agg(), Aggregation::fromWire, "sum, count, count_distinct, avg, min, max");
        String column = optional(m.column());
        String expression = optional(m.expression());
        if (column != null && expression != null) {
            throw b.fail("measure.expression", "cannot stand beside 'column'; give one of them");
        }
        if (column == null && expression == null && agg != Aggregation.COUNT) {
            throw b.fail("measure.column", "is required for " + agg.wireName() + " (or give 'expression')");
        }
        if (expression != null) {
            try {
                MeasureExpression.columns(expression);
            } catch (CompileException e) {
                throw b.fail("measure.expression", "is not valid: " + e.getMessage());
            }
        }
        NonAdditive nonAdditive = null;
        NonAdditiveFile n = m.nonAdditive();
        if (n != null) {
            String column2 = required(b, "measure.non_additive.column", n.column());
            NonAdditive.Window window = n.window() == null ? NonAdditive.Window.LAST
                    : enumValue(b, "measure.non_additive.window", n.window(), NonAdditive.Window::fromWire, "last, first");
            nonAdditive = new NonAdditive(column2, window, names(b, "measure.non_additive.groupings", n.groupings()));
        }
        return new Measure(agg, column, expression, nonAdditive);
    }

    /** Keys that belong to another type of metric are refused by name, so a typo in 'type' is not silent. */
    private static void absent(Bound<MetricFile> b, MetricFile f, String type, String... keys) throws SemanticProjectException {
        for (String key : keys) {
            Object v = switch (key) {
                case "measure" -> f.measure();
                case "numerator" -> f.numerator();
                case "denominator" -> f.denominator();
                case "expression" -> f.expression();
                case "metric" -> f.metric();
                case "window" -> f.window();
                case "grain_to_date" -> f.grainToDate();
                default -> null;
            };
            if (v != null) {
                throw b.fail(key, "does not belong to a " + type + " metric" + (type.equals("simple")
                        ? " (set 'type' to ratio, derived or cumulative)" : ""));
            }
        }
    }

    private static List<Filter> filters(Bound<?> b, String path, List<FilterFile> filterFiles) throws SemanticProjectException {
        List<Filter> filters = new ArrayList<>();
        List<FilterFile> files = filterFiles == null ? List.of() : filterFiles;
        for (int i = 0; i < files.size(); i++) {
            String at = path + "[" + i + "]";
            FilterFile ff = files.get(i);
            if (ff == null) {
                throw b.fail(at, "must be a mapping of column, op and value (or other_column)");
            }
            String fc = required(b, at + ".column", ff.column());
            FilterOp op = enumValue(b, at + ".op", ff.op(), FilterOp::fromWire, "eq, ne, lt, lte, gt, gte, in, not_in, is_null, not_null");
            String other = optional(ff.otherColumn());
            if (other != null) {
                if (ff.value() != null) {
                    throw b.fail(at + ".other_column", "cannot stand beside 'value'; compare with a value or a column");
                }
                if (!op.comparesColumns()) {
                    throw b.fail(at + ".op", "must be eq, ne, lt, lte, gt or gte to compare two columns");
                }
                filters.add(Filter.columns(fc, op, required(b, at + ".other_column", other)));
                continue;
            }
            Object value = value(b, at + ".value", ff.value());
            if (op.takesValue() && value == null || op.takesList() != value instanceof List) {
                throw b.fail(at + ".value", op.takesList() ? "must be a list for " + op.wireName()
                        : op.takesValue() ? "is required for " + op.wireName() : "must be absent for " + op.wireName());
            }
            filters.add(new Filter(fc, op, value));
        }
        return filters;
    }

    /** The file bound to its record, its version checked. */
    private static <F extends ObjectFile> Bound<F> open(String text, Class<F> type, String where, Format format)
            throws SemanticProjectException {
        Bound<F> b = SemanticFileReader.read(text, type, where, format);
        if (!(b.value().version() instanceof Number n) || n.doubleValue() != VERSION) {
            throw b.fail("version", "must be " + VERSION + " (the first key of every file)");
        }
        return b;
    }

    private static String optional(String text) {
        return text == null ? null : text.strip();
    }

    private static String required(Bound<?> b, String path, String text) throws SemanticProjectException {
        if (text == null) {
            throw b.fail(path, "is required");
        }
        if (text.isBlank()) {
            throw b.fail(path, "must not be empty");
        }
        return text.strip();
    }

    private static String identifier(Bound<?> b, String path, String text) throws SemanticProjectException {
        String v = required(b, path, text);
        if (!NAME.matcher(v).matches()) {
            throw b.fail(path, "must be an identifier (letters, digits, underscores, at most 63), not '"
                    + SemanticFileReader.printable(v) + "'");
        }
        return v;
    }

    private static List<String> names(Bound<?> b, String path, List<String> texts) throws SemanticProjectException {
        List<String> out = new ArrayList<>();
        for (int i = 0; texts != null && i < texts.size(); i++) {
            String t = texts.get(i);
            if (t == null || t.isBlank()) {
                throw b.fail(path + "[" + i + "]", "must be a plain name");
            }
            out.add(t.strip());
        }
        return out;
    }

    private static List<ColumnPair> pairs(Bound<?> b, String path, List<PairFile> pairs) throws SemanticProjectException {
        if (pairs == null || pairs.isEmpty()) {
            throw b.fail(path, "is required: a list of {source, target} column pairs");
        }
        List<ColumnPair> out = new ArrayList<>();
        for (int i = 0; i < pairs.size(); i++) {
            PairFile p = pairs.get(i);
            if (p == null) {
                throw b.fail(path + "[" + i + "]", "must be a {source, target} column pair");
            }
            out.add(new ColumnPair(required(b, path + "[" + i + "].source", p.source()),
                    required(b, path + "[" + i + "].target", p.target())));
        }
        return out;
    }

    private static <T> T enumValue(Bound<?> b, String path, String text, Function<String, T> parse, String allowed)
            throws SemanticProjectException {
        String v = required(b, path, text);
        try {
            return parse.apply(v);
        } catch (IllegalArgumentException e) {
            throw b.fail(path, "is '" + SemanticFileReader.printable(v) + "'; use one of " + allowed);
        }
    }

    /** A filter value: a scalar, or for in / not_in a list of scalars (Long, Double, Boolean or text). */
    private static Object value(Bound<?> b, String path, Object v) throws SemanticProjectException {
        if (v instanceof List<?> list) {
            List<Object> out = new ArrayList<>();
            for (int i = 0; i < list.size(); i++) {
                Object x = list.get(i);
                if (x == null || x instanceof List || x instanceof Map) {
                    throw b.fail(path + "[" + i + "]", "must be a plain value");
                }
                out.add(scalar(x));
            }
            return out;
        }
        if (v instanceof Map) {
            throw b.fail(path, "must be a value or a list of values");
        }
        return v == null ? null : scalar(v);
    }

    private static Object scalar(Object x) {
        if (x instanceof Float || x instanceof Double || x instanceof BigDecimal) {
            return ((Number) x).doubleValue();
        }
        if (x instanceof Number n) {
            return n.longValue();
        }
        return x instanceof Boolean ? x : String.valueOf(x);
    }
}
