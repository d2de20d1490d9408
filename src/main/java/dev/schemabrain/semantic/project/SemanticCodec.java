package dev.schemabrain.semantic.project;

import dev.schemabrain.error.SemanticProjectException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
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

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The semantic objects as trees in the shape of their YAML files (SPEC §7), both ways. Reading is
 * strict: {@code version: 1}, required keys present, no unknown keys, names that are identifiers,
 * known enums; each failure names the file and the key. The store keeps the same trees as JSON.
 */
public final class SemanticCodec {

    public static final int VERSION = 1;
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,62}");
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private static final Set<String> ENTITY_KEYS = Set.of("version", "name", "description", "table", "identity", "group", "origin");
    private static final Set<String> JOIN_KEYS = Set.of("version", "name", "source_entity", "target_entity", "on",
            "cardinality", "through", "through_on", "origin");
    private static final Set<String> METRIC_KEYS = Set.of("version", "name", "description", "entity", "measure",
            "time_dimension", "time_grains", "filters", "origin");
    private static final Set<String> PAIR_KEYS = Set.of("source", "target");
    private static final Set<String> MEASURE_KEYS = Set.of("agg", "column", "expression");
    private static final Set<String> FILTER_KEYS = Set.of("column", "op", "value");

    private SemanticCodec() {
    }

    // ---- writing ----

    public static ObjectNode encode(Entity e) {
        ObjectNode n = header(e.name());
        putIfPresent(n, "description", e.description());
        n.put("table", e.table().toString());
        ArrayNode identity = n.putArray("identity");
        e.identity().forEach(identity::add);
        putIfPresent(n, "group", e.group());
        n.put("origin", e.origin().method().wireName());
        return n;
    }

    public static ObjectNode encode(Join j) {
        ObjectNode n = header(j.name());
        n.put("source_entity", j.sourceEntity());
        n.put("target_entity", j.targetEntity());
        if (j.bridge() == null) {
            n.set("on", pairs(j.on()));
        } else {
            n.set("on", pairs(j.bridge().sourceOn()));
            n.put("through", j.bridge().table().toString());
            n.set("through_on", pairs(j.bridge().targetOn()));
        }
        n.put("cardinality", j.cardinality().wireName());
        n.put("origin", j.origin().method().wireName());
        return n;
    }

    public static ObjectNode encode(Metric m) {
        ObjectNode n = header(m.name());
        putIfPresent(n, "description", m.description());
        n.put("entity", m.entity());
        ObjectNode measure = n.putObject("measure");
        measure.put("agg", m.measure().agg().wireName());
        putIfPresent(measure, "column", m.measure().column());
        putIfPresent(measure, "expression", m.measure().expression());
        putIfPresent(n, "time_dimension", m.timeDimension());
        if (!m.timeGrains().isEmpty()) {
            ArrayNode grains = n.putArray("time_grains");
            m.timeGrains().forEach(g -> grains.add(g.wireName()));
        }
        if (!m.filters().isEmpty()) {
            ArrayNode filters = n.putArray("filters");
            for (Filter f : m.filters()) {
                ObjectNode filter = filters.addObject().put("column", f.column()).put("op", f.op().wireName());
                if (f.value() != null) {
                    filter.set("value", value(f.value()));
                }
            }
        }
        n.put("origin", m.origin().method().wireName());
        return n;
    }

    private static ObjectNode header(String name) {
        ObjectNode n = NODES.objectNode();
        n.put("version", VERSION);
        n.put("name", name);
        return n;
    }

    private static void putIfPresent(ObjectNode n, String key, String value) {
        if (value != null) {
            n.put(key, value);
        }
    }

    private static ArrayNode pairs(List<ColumnPair> pairs) {
        ArrayNode a = NODES.arrayNode();
        pairs.forEach(p -> a.addObject().put("source", p.source()).put("target", p.target()));
        return a;
    }

    private static JsonNode value(Object v) {
        if (v instanceof List<?> list) {
            ArrayNode a = NODES.arrayNode();
            list.forEach(x -> a.add(value(x)));
            return a;
        }
        if (v instanceof Long l) {
            return NODES.numberNode(l);
        }
        if (v instanceof Double d) {
            return NODES.numberNode(d);
        }
        if (v instanceof Boolean b) {
            return NODES.booleanNode(b);
        }
        return NODES.textNode(String.valueOf(v));
    }

    // ---- reading ----

    /** @param where the file (or store row) being read, for messages */
    public static Entity decodeEntity(JsonNode n, String where, Origin origin) throws SemanticProjectException {
        Reader r = new Reader(n, where, ENTITY_KEYS);
        String table = r.text("table", true);
        int dot = table.indexOf('.');
        if (dot <= 0 || dot == table.length() - 1 || table.indexOf('.', dot + 1) >= 0) {
            throw r.fail("table", "must be a qualified name schema.table, not '" + table + "'");
        }
        List<String> identity = r.texts("identity", true);
        if (identity.isEmpty()) {
            throw r.fail("identity", "must list at least one column");
        }
        return new Entity(r.name(), r.text("description", false), QualifiedName.of(table.substring(0, dot),
                table.substring(dot + 1)), identity, r.text("group", false), origin);
    }

    public static Join decodeJoin(JsonNode n, String where, Origin origin) throws SemanticProjectException {
        Reader r = new Reader(n, where, JOIN_KEYS);
        String name = r.name();
        String source = r.identifier("source_entity");
        String target = r.identifier("target_entity");
        List<ColumnPair> on = r.pairs("on", true);
        Cardinality cardinality = r.enumValue("cardinality", Cardinality::fromWire, "one_to_one, one_to_many, many_to_one, many_to_many");
        String through = r.text("through", false);
        if (through == null) {
            if (r.has("through_on")) {
                throw r.fail("through_on", "needs 'through', the link table");
            }
            return new Join(name, source, target, on, null, cardinality, origin);
        }
        int dot = through.indexOf('.');
        if (dot <= 0 || dot == through.length() - 1) {
            throw r.fail("through", "must be a qualified name schema.table, not '" + through + "'");
        }
        List<ColumnPair> throughOn = r.pairs("through_on", true);
        return new Join(name, source, target, List.of(),
                new Bridge(QualifiedName.of(through.substring(0, dot), through.substring(dot + 1)), on, throughOn),
                cardinality, origin);
    }

    public static Metric decodeMetric(JsonNode n, String where, Origin origin) throws SemanticProjectException {
        Reader r = new Reader(n, where, METRIC_KEYS);
        String name = r.name();
        String entity = r.identifier("entity");
        JsonNode m = r.object("measure");
        Reader mr = new Reader(m, where, MEASURE_KEYS, "measure.");
        Aggregation agg = mr.enumValue("agg", Aggregation::fromWire, "sum, count, count_distinct, avg, min, max");
        String column = mr.text("column", false);
        String expression = mr.text("expression", false);
        if (column != null && expression != null) {
            throw mr.fail("expression", "cannot stand beside 'column'; give one of them");
        }
        if (column == null && expression == null && agg != Aggregation.COUNT) {
            throw mr.fail("column", "is required for " + agg.wireName() + " (or give 'expression')");
        }
        String time = r.text("time_dimension", false);
        List<TimeGrain> grains = new ArrayList<>();
        for (String g : r.texts("time_grains", false)) {
            try {
                grains.add(TimeGrain.fromWire(g));
            } catch (IllegalArgumentException e) {
                throw r.fail("time_grains", "has '" + g + "'; use day, week, month, quarter or year");
            }
        }
        List<Filter> filters = new ArrayList<>();
        JsonNode fs = n.get("filters");
        if (fs != null && !fs.isNull()) {
            if (!fs.isArray()) {
                throw r.fail("filters", "must be a list of {column, op, value}");
            }
            for (JsonNode f : fs) {
                Reader fr = new Reader(f, where, FILTER_KEYS, "filters[].");
                String fc = fr.text("column", true);
                FilterOp op = fr.enumValue("op", FilterOp::fromWire, "eq, ne, lt, lte, gt, gte, in, not_in, is_null, not_null");
                Object value = fr.value("value");
                if (op.takesValue() && value == null || op.takesList() != value instanceof List) {
                    throw fr.fail("value", op.takesList() ? "must be a list for " + op.wireName()
                            : op.takesValue() ? "is required for " + op.wireName() : "must be absent for " + op.wireName());
                }
                filters.add(new Filter(fc, op, value));
            }
        }
        return new Metric(name, r.text("description", false), entity, new Measure(agg, column, expression), time,
                grains, filters, origin);
    }

    /** Strict access to one object's keys, with messages that name the file and the key. */
    private static final class Reader {
        private final JsonNode node;
        private final String where;
        private final String prefix;

        Reader(JsonNode node, String where, Set<String> allowed) throws SemanticProjectException {
            this(node, where, allowed, "");
            JsonNode version = node.get("version");
            if (version == null || !version.canConvertToInt() || version.asInt() != VERSION) {
                throw fail("version", "must be " + VERSION + " (the first key of every file)");
            }
        }

        Reader(JsonNode node, String where, Set<String> allowed, String prefix) throws SemanticProjectException {
            this.where = where;
            this.prefix = prefix;
            if (node == null || !node.isObject()) {
                throw new SemanticProjectException(where + ": " + (prefix.isEmpty() ? "the file" : "'" + prefix.replaceAll("[.\\[\\]]+$", "") + "'")
                        + " must be a mapping of keys to values.");
            }
            this.node = node;
            for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
                String key = names.next();
                if (!allowed.contains(key)) {
                    throw fail(key, "is not a known key; the keys are " + String.join(", ", allowed.stream().sorted().toList()));
                }
            }
        }

        boolean has(String key) {
            return node.hasNonNull(key);
        }

        String name() throws SemanticProjectException {
            return identifier("name");
        }

        String identifier(String key) throws SemanticProjectException {
            String v = text(key, true);
            if (!NAME.matcher(v).matches()) {
                throw fail(key, "must be an identifier (letters, digits, underscores, at most 63), not '" + excerpt(v) + "'");
            }
            return v;
        }

        String text(String key, boolean required) throws SemanticProjectException {
            JsonNode v = node.get(key);
            if (v == null || v.isNull()) {
                if (required) {
                    throw fail(key, "is required");
                }
                return null;
            }
            if (!v.isValueNode() || v.isBinary()) {
                throw fail(key, "must be a single value");
            }
            String text = v.asText().strip();
            if (text.isEmpty() && required) {
                throw fail(key, "must not be empty");
            }
            return text;
        }

        List<String> texts(String key, boolean required) throws SemanticProjectException {
            JsonNode v = node.get(key);
            if (v == null || v.isNull()) {
                if (required) {
                    throw fail(key, "is required");
                }
                return List.of();
            }
            if (v.isValueNode()) {
                return List.of(v.asText().strip());  // a single column may be written without brackets
            }
            if (!v.isArray()) {
                throw fail(key, "must be a list");
            }
            List<String> out = new ArrayList<>();
            for (JsonNode x : v) {
                if (!x.isValueNode() || x.asText().isBlank()) {
                    throw fail(key, "must list plain names");
                }
                out.add(x.asText().strip());
            }
            return out;
        }

        JsonNode object(String key) throws SemanticProjectException {
            JsonNode v = node.get(key);
            if (v == null || !v.isObject()) {
                throw fail(key, "is required and must be a mapping");
            }
            return v;
        }

        List<ColumnPair> pairs(String key, boolean required) throws SemanticProjectException {
            JsonNode v = node.get(key);
            if (v == null || v.isNull() || v.isArray() && v.isEmpty()) {
                if (required) {
                    throw fail(key, "is required: a list of {source, target} column pairs");
                }
                return List.of();
            }
            if (!v.isArray()) {
                throw fail(key, "must be a list of {source, target} column pairs");
            }
            List<ColumnPair> out = new ArrayList<>();
            for (JsonNode p : v) {
                Reader pr = new Reader(p, where, PAIR_KEYS, prefix + key + "[].");
                out.add(new ColumnPair(pr.text("source", true), pr.text("target", true)));
            }
            return out;
        }

        interface Parse<T> {
            T parse(String text);
        }

        <T> T enumValue(String key, Parse<T> parse, String allowed) throws SemanticProjectException {
            String v = text(key, true);
            try {
                return parse.parse(v);
            } catch (IllegalArgumentException e) {
                throw fail(key, "is '" + excerpt(v) + "'; use one of " + allowed);
            }
        }

        Object value(String key) throws SemanticProjectException {
            JsonNode v = node.get(key);
            if (v == null || v.isNull()) {
                return null;
            }
            if (v.isArray()) {
                List<Object> out = new ArrayList<>();
                for (JsonNode x : v) {
                    if (!x.isValueNode() || x.isNull()) {
                        throw fail(key, "must list plain values");
                    }
                    out.add(scalar(x));
                }
                return out;
            }
            if (!v.isValueNode()) {
                throw fail(key, "must be a value or a list of values");
            }
            return scalar(v);
        }

        private static Object scalar(JsonNode x) {
            if (x.isIntegralNumber()) {
                return x.asLong();
            }
            if (x.isNumber()) {
                return x.asDouble();
            }
            if (x.isBoolean()) {
                return x.asBoolean();
            }
            return x.asText();
        }

        SemanticProjectException fail(String key, String what) {
            return new SemanticProjectException(where + ": '" + prefix + excerpt(key) + "' " + what + ".");
        }

        private static String excerpt(String s) {
            return s.length() > 64 ? s.substring(0, 64) + "…" : s;
        }
    }
}
