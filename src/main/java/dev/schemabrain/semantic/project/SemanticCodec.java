package dev.schemabrain.semantic.project;

import dev.schemabrain.error.SemanticProjectException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schemabrain.catalog.QualifiedName;
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
import dev.schemabrain.semantic.model.Origin;
import dev.schemabrain.semantic.model.TimeGrain;
import dev.schemabrain.semantic.project.SemanticFileReader.Bound;
import dev.schemabrain.semantic.project.SemanticFiles.EntityFile;
import dev.schemabrain.semantic.project.SemanticFiles.FilterFile;
import dev.schemabrain.semantic.project.SemanticFiles.JoinFile;
import dev.schemabrain.semantic.project.SemanticFiles.MeasureFile;
import dev.schemabrain.semantic.project.SemanticFiles.MetricFile;
import dev.schemabrain.semantic.project.SemanticFiles.ObjectFile;
import dev.schemabrain.semantic.project.SemanticFiles.PairFile;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The semantic objects in the shape of their YAML files (SPEC §7), both ways, through the
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

    /** What the text being read is: a project's YAML file, or the JSON the store keeps. */
    public enum Format { YAML, JSON }
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,62}");

    private SemanticCodec() {
    }

    // ---- writing ----

    public static ObjectNode encode(Entity e) {
        return tree(new EntityFile(VERSION, e.name(), e.description(), e.table().toString(), e.identity(), e.group(),
                e.origin().method().wireName()));
    }

    public static ObjectNode encode(Join j) {
        Bridge b = j.bridge();
        return tree(new JoinFile(VERSION, j.name(), j.sourceEntity(), j.targetEntity(), pairs(b == null ? j.on() : b.sourceOn()),
                b == null ? null : b.table().toString(), b == null ? null : pairs(b.targetOn()), j.cardinality().wireName(),
                j.origin().method().wireName()));
    }

    public static ObjectNode encode(Metric m) {
        Measure measure = m.measure();
        return tree(new MetricFile(VERSION, m.name(), m.description(), m.entity(),
                new MeasureFile(measure.agg().wireName(), measure.column(), measure.expression()), m.timeDimension(),
                m.timeGrains().stream().map(TimeGrain::wireName).toList(),
                m.filters().stream().map(f -> new FilterFile(f.column(), f.op().wireName(), wire(f.value()))).toList(),
                m.origin().method().wireName()));
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
        return new Entity(name, optional(f.description()), QualifiedName.of(table.substring(0, dot), table.substring(dot + 1)),
                identity, optional(f.group()), origin);
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
            return new Join(name, source, target, on, null, cardinality, origin);
        }
        int dot = through.indexOf('.');
        if (dot <= 0 || dot == through.length() - 1) {
            throw b.fail("through", "must be a qualified name schema.table, not '" + SemanticFileReader.printable(through) + "'");
        }
        List<ColumnPair> throughOn = pairs(b, "through_on", f.throughOn());
        return new Join(name, source, target, List.of(),
                new Bridge(QualifiedName.of(through.substring(0, dot), through.substring(dot + 1)), on, throughOn),
                cardinality, origin);
    }

    public static Metric decodeMetric(String text, String where, Format format, Origin origin) throws SemanticProjectException {
        Bound<MetricFile> b = open(text, MetricFile.class, where, format);
        MetricFile f = b.value();
        String name = identifier(b, "name", f.name());
        String entity = identifier(b, "entity", f.entity());
        MeasureFile m = f.measure();
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
        List<TimeGrain> grains = new ArrayList<>();
        List<String> grainNames = f.timeGrains() == null ? List.of() : f.timeGrains();
        for (int i = 0; i < grainNames.size(); i++) {
            grains.add(enumValue(b, "time_grains[" + i + "]", grainNames.get(i), TimeGrain::fromWire,
                    "day, week, month, quarter, year"));
        }
        List<Filter> filters = new ArrayList<>();
        List<FilterFile> filterFiles = f.filters() == null ? List.of() : f.filters();
        for (int i = 0; i < filterFiles.size(); i++) {
            String at = "filters[" + i + "]";
            FilterFile ff = filterFiles.get(i);
            if (ff == null) {
                throw b.fail(at, "must be a mapping of column, op and value");
            }
            String fc = required(b, at + ".column", ff.column());
            FilterOp op = enumValue(b, at + ".op", ff.op(), FilterOp::fromWire, "eq, ne, lt, lte, gt, gte, in, not_in, is_null, not_null");
            Object value = value(b, at + ".value", ff.value());
            if (op.takesValue() && value == null || op.takesList() != value instanceof List) {
                throw b.fail(at + ".value", op.takesList() ? "must be a list for " + op.wireName()
                        : op.takesValue() ? "is required for " + op.wireName() : "must be absent for " + op.wireName());
            }
            filters.add(new Filter(fc, op, value));
        }
        return new Metric(name, optional(f.description()), entity, new Measure(agg, column, expression),
                optional(f.timeDimension()), grains, filters, origin);
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
                if (x == null || x instanceof List || x instanceof java.util.Map) {
                    throw b.fail(path + "[" + i + "]", "must be a plain value");
                }
                out.add(scalar(x));
            }
            return out;
        }
        if (v instanceof java.util.Map) {
            throw b.fail(path, "must be a value or a list of values");
        }
        return v == null ? null : scalar(v);
    }

    private static Object scalar(Object x) {
        if (x instanceof Float || x instanceof Double || x instanceof java.math.BigDecimal) {
            return ((Number) x).doubleValue();
        }
        if (x instanceof Number n) {
            return n.longValue();
        }
        return x instanceof Boolean ? x : String.valueOf(x);
    }
}
