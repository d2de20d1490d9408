package dev.schemabrain.semantic.project;

import dev.schemabrain.error.SemanticProjectException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.semantic.SemanticInference;
import dev.schemabrain.semantic.compile.CompileException;
import dev.schemabrain.semantic.compile.MeasureExpression;
import dev.schemabrain.semantic.compile.MetricCompiler;
import dev.schemabrain.semantic.model.Aggregation;
import dev.schemabrain.semantic.model.Cardinality;
import dev.schemabrain.semantic.model.ColumnPair;
import dev.schemabrain.semantic.model.Entity;
import dev.schemabrain.semantic.model.Join;
import dev.schemabrain.semantic.model.Measure;
import dev.schemabrain.semantic.model.Metric;
import dev.schemabrain.semantic.model.Origin;
import dev.schemabrain.semantic.model.SemanticModel;
import dev.schemabrain.semantic.model.TimeGrain;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a dbt {@code manifest.json} into semantic objects (origin dbt_import, applied): an entity per
 * model whose relation is in the index and that has a primary key (its semantic model's primary entity, which also
 * names it; a primary_key constraint; a column tested both unique and not_null; else the table's own key); a
 * many_to_one join per {@code relationships} test and per MetricFlow foreign entity; MetricFlow's metrics
 * ({@link MetricFlowMetrics}) and the older {@code calculation_method} metrics. Every metric kept compiles; anything
 * that cannot be carried over exactly is skipped with the reason, never guessed.
 */
public final class DbtManifest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern REF = Pattern.compile("ref\\(\\s*['\"](?:[^'\"]+['\"]\\s*,\\s*['\"])?([^'\"]+)['\"]");
    private static final Pattern SOURCE = Pattern.compile("source\\(\\s*['\"]([^'\"]+)['\"]\\s*,\\s*['\"]([^'\"]+)['\"]");
    private static final Pattern IDENTIFIER = MetricFlowModels.IDENTIFIER;

    /** What was imported, what was left out and why, and what the import made to carry something over ({@code notes}). */
    public record Result(SemanticModel model, List<String> skipped, List<String> notes) {
    }

    private record Model(String uniqueId, String name, Table table, JsonNode node) {
    }

    private DbtManifest() {
    }

    public static Result read(Path manifest, Catalog catalog) throws SemanticProjectException {
        JsonNode root = parse(manifest);
        Import run = new Import(catalog);
        run.readModels(root);
        run.readColumnTests();
        run.readSemanticModels(root);
        run.readEntities();
        run.readRelationships();
        return run.result(root);
    }

    private static JsonNode parse(Path manifest) throws SemanticProjectException {
        JsonNode root;
        try {
            root = JSON.readTree(Files.readString(manifest));
        } catch (NoSuchFileException e) {
            throw new SemanticProjectException("There is no file " + manifest + "; pass the path of dbt's target/manifest.json.");
        } catch (IOException e) {
            throw new SemanticProjectException(manifest + " is not a JSON file (" + firstLine(e.getMessage())
                    + "); pass dbt's target/manifest.json.", e);
        }
        if (root == null || !root.path("nodes").isObject()) {
            throw new SemanticProjectException(manifest + " has no 'nodes'; it is not a dbt manifest (dbt writes one to target/manifest.json).");
        }
        return root;
    }

    /** One import: what each step found, for the next; {@link #skipped} gathers what was left out and why. */
    private static final class Import {
        private final Catalog catalog;
        private final List<String> skipped = new ArrayList<>();
        private final Map<String, Table> byName = new HashMap<>();
        private final Map<String, List<Table>> byTable = new HashMap<>();
        /** Models (and sources) that are indexed, by unique id and by name. */
        private final Map<String, Model> models = new LinkedHashMap<>();
        private final Map<String, Model> modelsByName = new HashMap<>();
        private final List<JsonNode> tests = new ArrayList<>();
        private final Map<String, Set<String>> unique = new HashMap<>();
        private final Map<String, Set<String>> notNull = new HashMap<>();
        /** MetricFlow semantic models, by the dbt model they describe; the first names the model's entity. */
        private final Map<String, List<JsonNode>> semantic = new LinkedHashMap<>();
        private final Map<String, Entity> entities = new LinkedHashMap<>();
        private final List<Join> joins = new ArrayList<>();

        Import(Catalog catalog) {
            this.catalog = catalog;
            for (Table t : catalog.tables()) {
                byName.put(key(t.name().schema(), t.name().table()), t);
                byTable.computeIfAbsent(t.name().table().toLowerCase(Locale.ROOT), k -> new ArrayList<>()).add(t);
            }
        }

        /** The indexed models, snapshots, seeds and sources; the tests, for later. */
        void readModels(JsonNode root) {
            for (Iterator<Map.Entry<String, JsonNode>> it = root.path("nodes").fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                JsonNode n = e.getValue();
                switch (n.path("resource_type").asText()) {
                    case "model", "snapshot", "seed" -> readModel(e.getKey(), n);
                    case "test" -> tests.add(n);
                    default -> {
                    }
                }
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = root.path("sources").fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                JsonNode n = e.getValue();
                String relation = n.hasNonNull("identifier") ? n.path("identifier").asText() : n.path("name").asText();
                locate(n.path("schema").asText(), relation, byName, byTable).ifPresent(t -> {
                    Model m = new Model(e.getKey(), n.path("source_name").asText() + "_" + n.path("name").asText(), t, n);
                    models.put(e.getKey(), m);
                });
            }
        }

        private void readModel(String id, JsonNode n) {
            String name = n.path("name").asText();
            String relation = n.hasNonNull("alias") ? n.path("alias").asText() : name;
            Optional<Table> table = locate(n.path("schema").asText(), relation, byName, byTable);
            if (table.isEmpty()) {
                skipped.add("model " + name + ": its relation " + n.path("schema").asText() + "." + relation + " is not in the index");
                return;
            }
            Model m = new Model(id, name, table.get(), n);
            models.put(id, m);
            modelsByName.put(name, m);
        }

        /** Column tests: unique and not_null mark keys (relationships make joins, later). */
        void readColumnTests() {
            for (JsonNode t : tests) {
                String kind = t.path("test_metadata").path("name").asText();
                String attached = attachedNode(t);
                String column = column(t);
                if (attached == null || column == null) {
                    continue;
                }
                if (kind.equals("unique")) {
                    unique.computeIfAbsent(attached, k -> new HashSet<>()).add(column);
                } else if (kind.equals("not_null")) {
                    notNull.computeIfAbsent(attached, k -> new HashSet<>()).add(column);
                }
            }
        }

        void readSemanticModels(JsonNode root) {
            for (JsonNode sm : iterable(root.path("semantic_models"))) {
                Model m = modelOf(sm, models, modelsByName);
                if (m == null) {
                    skipped.add("semantic model " + sm.path("name").asText() + ": its model " + sm.path("model").asText("?")
                            + " is not indexed");
                    continue;
                }
                semantic.computeIfAbsent(m.uniqueId(), k -> new ArrayList<>()).add(sm);
            }
        }

        /** An entity per model with a primary key and a name no other model gave. */
        void readEntities() {
            Set<String> entityNames = new HashSet<>();
            for (Model m : models.values()) {
                JsonNode primary = semantic.containsKey(m.uniqueId()) ? MetricFlowModels.primary(semantic.get(m.uniqueId()).get(0)) : null;
                List<String> identity = primary == null ? List.of() : existing(m.table(), List.of(MetricFlowModels.expr(primary)));
                if (identity.isEmpty()) {
                    identity = primaryKey(m, unique.getOrDefault(m.uniqueId(), Set.of()), notNull.getOrDefault(m.uniqueId(), Set.of()));
                }
                // A semantic model's primary entity names it as MetricFlow's filters (account__tier) and agents do.
                String name = SemanticInference.identifier(primary == null ? m.name() : primary.path("name").asText());
                if (identity.isEmpty()) {
                    if (m.uniqueId().startsWith("model.")) {
                        skipped.add("model " + m.name() + ": no primary key (no primary_key constraint, no column tested unique and not_null, none in the database)");
                    }
                    continue;
                }
                if (!entityNames.add(name)) {
                    skipped.add("model " + m.name() + ": another model already gives the entity name " + name);
                    continue;
                }
                String description = m.node().path("description").asText("");
                entities.put(m.uniqueId(), new Entity(name, description.isBlank() ? null : description.strip(), m.table().name(),
                        identity, m.table().name().schema(), Origin.DBT));
            }
        }

        /** A join per relationships test between two imported entities. */
        void readRelationships() {
            Set<String> joinNames = new HashSet<>();
            for (JsonNode t : tests) {
                if (t.path("test_metadata").path("name").asText().equals("relationships")) {
                    readRelationship(t, joinNames);
                }
            }
        }

        private void readRelationship(JsonNode t, Set<String> joinNames) {
            JsonNode kwargs = t.path("test_metadata").path("kwargs");
            String attached = attachedNode(t);
            String column = column(t);
            String field = kwargs.path("field").asText(null);
            Entity child = attached == null ? null : entities.get(attached);
            Entity parent = target(kwargs.path("to").asText(""), t, attached, models, modelsByName, entities);
            if (child == null || parent == null || column == null || field == null) {
                skipped.add("relationships test " + t.path("name").asText("?") + ": one of its models is not an imported entity");
                return;
            }
            String name = child.name() + "_" + parent.name();
            if (!joinNames.add(name)) {
                name = name + "_by_" + SemanticInference.identifier(column);
                joinNames.add(name);
            }
            Cardinality cardinality = unique.getOrDefault(attached, Set.of()).contains(column) ? Cardinality.ONE_TO_ONE : Cardinality.MANY_TO_ONE;
            joins.add(new Join(name, child.name(), parent.name(), List.of(new ColumnPair(column, field)), null, cardinality, Origin.DBT));
        }

        /** The semantic models of imported entities, with the joins their foreign entities make. */
        private MetricFlowModels flow() {
            List<MetricFlowModels.Semantic> semanticModels = new ArrayList<>();
            semantic.forEach((id, list) -> {
                Entity e = entities.get(id);
                for (JsonNode sm : list) {
                    if (e == null) {
                        skipped.add("semantic model " + sm.path("name").asText() + ": its model is not an imported entity");
                    } else {
                        semanticModels.add(new MetricFlowModels.Semantic(sm.path("name").asText(), sm, e, models.get(id).table()));
                    }
                }
            });
            MetricFlowModels flow = new MetricFlowModels(semanticModels);
            joins.addAll(flow.joins(joins, skipped));
            return flow;
        }

        /** The metrics, older ones and MetricFlow's, each kept only if it compiles; then the whole model. */
        Result result(JsonNode root) {
            MetricFlowModels flow = flow();
            List<Metric> metrics = new ArrayList<>();
            List<JsonNode> semanticMetrics = new ArrayList<>();
            for (JsonNode metric : iterable(root.path("metrics"))) {
                if (!metric.has("calculation_method")) {
                    semanticMetrics.add(metric);
                    continue;
                }
                try {
                    metrics.add(legacyMetric(metric, models, modelsByName, entities));
                } catch (SemanticProjectException e) {
                    skipped.add("metric " + metric.path("name").asText() + ": " + e.getMessage());
                }
            }
            MetricFlowMetrics translated = new MetricFlowMetrics(flow);
            translated.translate(semanticMetrics);
            metrics.addAll(translated.metrics());
            skipped.addAll(translated.skipped());
            List<String> notes = new ArrayList<>(translated.notes());
            List<Entity> entityList = new ArrayList<>(entities.values());
            List<Metric> compiling = compiling(catalog, entityList, joins, metrics, translated.madeFor(), skipped, notes);
            return new Result(new SemanticModel(entityList, joins, compiling), skipped, notes);
        }
    }

    /**
     * The metrics that compile against the catalog and the imported entities and joins, as apply checks them; the others
     * are skipped with the compiler's sentence, and so is what rests on them. A metric made for one that fails goes too.
     */
    private static List<Metric> compiling(Catalog catalog, List<Entity> entities, List<Join> joins, List<Metric> metrics,
                                          Map<String, String> madeFor, List<String> skipped, List<String> notes) {
        List<Metric> kept = new ArrayList<>(metrics);
        boolean changed = true;
        while (changed) {
            changed = false;
            MetricCompiler compiler = new MetricCompiler(catalog, new SemanticModel(entities, joins, kept));
            for (Metric m : List.copyOf(kept)) {
                Optional<String> problem = compiler.check(m);
                if (problem.isPresent()) {
                    kept.remove(m);
                    skipped.add("metric " + m.name() + ": " + problem.get());
                    changed = true;
                }
            }
            Set<String> names = new HashSet<>();
            kept.forEach(m -> names.add(m.name()));
            for (Metric m : List.copyOf(kept)) {
                String owner = madeFor.get(m.name());
                if (owner != null && !names.contains(owner)) {
                    kept.remove(m);
                    notes.removeIf(n -> n.startsWith("metric " + owner + ":"));
                    changed = true;
                }
            }
        }
        return kept;
    }

    private static Model modelOf(JsonNode semanticModel, Map<String, Model> models, Map<String, Model> modelsByName) {
        Matcher ref = REF.matcher(semanticModel.path("model").asText(""));
        if (ref.find() && modelsByName.containsKey(ref.group(1))) {
            return modelsByName.get(ref.group(1));
        }
        for (JsonNode d : semanticModel.path("depends_on").path("nodes")) {
            if (models.containsKey(d.asText())) {
                return models.get(d.asText());
            }
        }
        return null;
    }

    private static Metric legacyMetric(JsonNode metric, Map<String, Model> models, Map<String, Model> modelsByName,
                                       Map<String, Entity> entities) throws SemanticProjectException {
        if (metric.hasNonNull("filters") && metric.path("filters").size() > 0) {
            throw new SemanticProjectException("its filters are not carried over");
        }
        Entity entity = entityOfRef(metric.path("model").asText(""), modelsByName, entities);
        List<TimeGrain> grains = new ArrayList<>();
        for (JsonNode g : metric.path("time_grains")) {
            try {
                grains.add(TimeGrain.fromWire(g.asText()));
            } catch (IllegalArgumentException ignored) {
                // dbt allows grains SchemaBrain has no bucket for; the others still apply.
            }
        }
        return metric(metric.path("name").asText(), metric.path("description").asText(""), entity,
                aggregation(metric.path("calculation_method").asText()), metric.path("expression").asText("").strip(),
                metric.path("timestamp").asText(null), grains);
    }

    private static Metric metric(String name, String description, Entity entity, Aggregation agg, String expr, String timeColumn,
                                 List<TimeGrain> grains) throws SemanticProjectException {
        if (!IDENTIFIER.matcher(name).matches()) {
            throw new SemanticProjectException("its name is not an identifier");
        }
        Measure measure;
        if (agg == Aggregation.COUNT && (expr.equals("1") || expr.equals("*"))) {
            measure = new Measure(agg, null, null);
        } else if (IDENTIFIER.matcher(expr).matches()) {
            measure = new Measure(agg, expr, null);
        } else {
            try {
                MeasureExpression.columns(expr);
            } catch (CompileException e) {
                throw new SemanticProjectException("its expression '" + expr + "' is outside SchemaBrain's arithmetic grammar");
            }
            measure = new Measure(agg, null, expr);
        }
        String time = timeColumn == null || !IDENTIFIER.matcher(timeColumn).matches() ? null : entity.name() + "." + timeColumn;
        return new Metric(name, description.isBlank() ? null : description.strip(), entity.name(), measure, time, grains,
                List.of(), Origin.DBT);
    }

    private static Aggregation aggregation(String dbt) throws SemanticProjectException {
        return switch (dbt.toLowerCase(Locale.ROOT)) {
            case "sum" -> Aggregation.SUM;
            case "count" -> Aggregation.COUNT;
            case "count_distinct" -> Aggregation.COUNT_DISTINCT;
            case "average", "avg" -> Aggregation.AVG;
            case "min" -> Aggregation.MIN;
            case "max" -> Aggregation.MAX;
            default -> throw new SemanticProjectException("its aggregation " + dbt + " has no SchemaBrain equivalent");
        };
    }

    private static Entity entityOfRef(String ref, Map<String, Model> modelsByName, Map<String, Entity> entities)
            throws SemanticProjectException {
        Matcher m = REF.matcher(ref);
        Model model = m.find() ? modelsByName.get(m.group(1)) : null;
        Entity entity = model == null ? null : entities.get(model.uniqueId());
        if (entity == null) {
            throw new SemanticProjectException("its model " + ref + " is not an imported entity");
        }
        return entity;
    }

    private static Entity target(String to, JsonNode test, String attached, Map<String, Model> models,
                                 Map<String, Model> modelsByName, Map<String, Entity> entities) {
        Matcher ref = REF.matcher(to);
        if (ref.find()) {
            Model m = modelsByName.get(ref.group(1));
            return m == null ? null : entities.get(m.uniqueId());
        }
        Matcher source = SOURCE.matcher(to);
        if (source.find()) {
            for (Model m : models.values()) {
                if (m.uniqueId().startsWith("source.") && m.uniqueId().endsWith("." + source.group(1) + "." + source.group(2))) {
                    return entities.get(m.uniqueId());
                }
            }
        }
        // Fall back on the test's dependencies: the one that is not the attached model.
        for (JsonNode d : test.path("depends_on").path("nodes")) {
            if (!d.asText().equals(attached) && entities.containsKey(d.asText())) {
                return entities.get(d.asText());
            }
        }
        return null;
    }

    private static List<String> primaryKey(Model m, Set<String> unique, Set<String> notNull) {
        for (JsonNode c : m.node().path("constraints")) {
            if (c.path("type").asText().equals("primary_key") && c.path("columns").size() > 0) {
                List<String> columns = new ArrayList<>();
                c.path("columns").forEach(x -> columns.add(x.asText()));
                return existing(m.table(), columns);
            }
        }
        for (JsonNode col : iterable(m.node().path("columns"))) {
            for (JsonNode c : col.path("constraints")) {
                if (c.path("type").asText().equals("primary_key")) {
                    return existing(m.table(), List.of(col.path("name").asText()));
                }
            }
        }
        List<String> tested = unique.stream().filter(notNull::contains).sorted().toList();
        if (!tested.isEmpty()) {
            return existing(m.table(), List.of(tested.get(0)));
        }
        return m.table().primaryKey();
    }

    /** The columns as the catalog spells them; empty if any is missing. */
    private static List<String> existing(Table t, List<String> columns) {
        List<String> out = new ArrayList<>();
        for (String c : columns) {
            Optional<String> found = t.columns().stream().map(x -> x.name()).filter(x -> x.equalsIgnoreCase(c)).findFirst();
            if (found.isEmpty()) {
                return List.of();
            }
            out.add(found.get());
        }
        return out;
    }

    private static String attachedNode(JsonNode test) {
        if (test.hasNonNull("attached_node")) {
            return test.path("attached_node").asText();
        }
        Matcher m = REF.matcher(test.path("test_metadata").path("kwargs").path("model").asText(""));
        for (JsonNode d : test.path("depends_on").path("nodes")) {
            if (m.find(0) && d.asText().endsWith("." + m.group(1))) {
                return d.asText();
            }
        }
        return null;
    }

    private static String column(JsonNode test) {
        String c = test.path("column_name").asText(null);
        if (c == null) {
            c = test.path("test_metadata").path("kwargs").path("column_name").asText(null);
        }
        return c;
    }

    private static Optional<Table> locate(String schema, String relation, Map<String, Table> byName, Map<String, List<Table>> byTable) {
        Table exact = byName.get(key(schema, relation));
        if (exact != null) {
            return Optional.of(exact);
        }
        List<Table> same = byTable.getOrDefault(relation.toLowerCase(Locale.ROOT), List.of());
        return same.size() == 1 ? Optional.of(same.get(0)) : Optional.empty();
    }

    private static String key(String schema, String table) {
        return schema.toLowerCase(Locale.ROOT) + "." + table.toLowerCase(Locale.ROOT);
    }

    private static Iterable<JsonNode> iterable(JsonNode objectOrArray) {
        if (objectOrArray.isArray()) {
            return objectOrArray;
        }
        List<JsonNode> values = new ArrayList<>();
        objectOrArray.fields().forEachRemaining(e -> values.add(e.getValue()));
        return values;
    }

    private static String firstLine(String s) {
        return s == null ? "" : s.lines().findFirst().orElse("");
    }
}
