package dev.schemabrain.semantic.project;

import dev.schemabrain.error.SemanticProjectException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.TypeClass;
import dev.schemabrain.catalog.ValidationState;
import dev.schemabrain.semantic.compile.CompileException;
import dev.schemabrain.semantic.compile.FilterValues;
import dev.schemabrain.semantic.compile.MeasureExpression;
import dev.schemabrain.semantic.compile.MetricCompiler;
import dev.schemabrain.semantic.model.ColumnPair;
import dev.schemabrain.semantic.model.Entity;
import dev.schemabrain.semantic.model.Filter;
import dev.schemabrain.semantic.model.Join;
import dev.schemabrain.semantic.model.Metric;
import dev.schemabrain.semantic.model.Origin;
import dev.schemabrain.semantic.model.Segment;
import dev.schemabrain.semantic.model.SemanticModel;

import java.io.IOException;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * A semantic project on disk: {@code DIR/entities/*.yaml}, {@code DIR/joins/*.yaml},
 * {@code DIR/metrics/*.yaml}, one object per file. Reading checks every file's shape;
 * {@link #check} checks the objects against the indexed catalog; {@link #merge} and {@link #diff}
 * say what applying the project does to the stored layer.
 */
public final class SemanticProject {

    private static final List<String> FOLDERS = List.of("entities", "joins", "metrics");

    /** The objects of a project and the file each came from. */
    public record Loaded(SemanticModel model, Map<String, String> files) {

        public String fileOf(String kind, String name) {
            return files.getOrDefault(kind + "/" + name, kind + " " + name);
        }
    }

    /** One difference between the project and the store: + added, ~ changed, - removed. */
    public record Change(char sign, String kind, String name) {
        @Override
        public String toString() {
            return sign + " " + kind + " " + name;
        }
    }

    private SemanticProject() {
    }

    /**
     * Reads every YAML file of the project; the objects are manually authored (confirmed where a file says so) until
     * {@link #resolve} compares them with the store.
     */
    public static Loaded read(Path dir) throws SemanticProjectException {
        if (!Files.isDirectory(dir)) {
            throw new SemanticProjectException("There is no semantic project at " + dir
                    + "; create " + dir.resolve("entities") + ", joins/ and metrics/ or run 'schemabrain export' first.");
        }
        List<Entity> entities = new ArrayList<>();
        List<Join> joins = new ArrayList<>();
        List<Metric> metrics = new ArrayList<>();
        Map<String, String> files = new LinkedHashMap<>();
        for (String folder : FOLDERS) {
            Path sub = dir.resolve(folder);
            if (!Files.isDirectory(sub)) {
                continue;
            }
            List<Path> paths;
            try (Stream<Path> list = Files.list(sub)) {
                paths = list.filter(p -> p.getFileName().toString().endsWith(".yaml") || p.getFileName().toString().endsWith(".yml"))
                        .sorted().toList();
            } catch (IOException e) {
                throw new SemanticProjectException("Cannot list " + sub + " (" + e.getMessage() + "); check its permissions.", e);
            }
            for (Path p : paths) {
                String where = dir.relativize(p).toString();
                String text = readText(p, where);
                String kind = switch (folder) {
                    case "entities" -> SemanticCodec.ENTITY;
                    case "joins" -> SemanticCodec.JOIN;
                    default -> SemanticCodec.METRIC;
                };
                String name = switch (kind) {
                    case SemanticCodec.ENTITY -> add(entities, SemanticCodec.decodeEntity(text, where, Format.YAML, Origin.AUTHORED), Entity::name);
                    case SemanticCodec.JOIN -> add(joins, SemanticCodec.decodeJoin(text, where, Format.YAML, Origin.AUTHORED), Join::name);
                    default -> add(metrics, SemanticCodec.decodeMetric(text, where, Format.YAML, Origin.AUTHORED), Metric::name);
                };
                String earlier = files.putIfAbsent(kind + "/" + name, where);
                if (earlier != null) {
                    throw new SemanticProjectException(where + ": the " + kind + " '" + name + "' is already defined in "
                            + earlier + "; names must be unique.");
                }
            }
        }
        return new Loaded(new SemanticModel(entities, joins, metrics), files);
    }

    private static <T> String add(List<T> list, T object, Function<T, String> name) {
        list.add(object);
        return name.apply(object);
    }

    private static String readText(Path p, String where) throws SemanticProjectException {
        try {
            if (Files.size(p) > SemanticFileReader.MAX_CHARS) {
                throw SemanticFileReader.tooLarge(where);
            }
            return Files.readString(p, StandardCharsets.UTF_8);
        } catch (MalformedInputException e) {
            throw new SemanticProjectException(where + ": the file is not UTF-8 text; save it as UTF-8.", e);
        } catch (IOException e) {
            throw new SemanticProjectException(where + ": cannot be read (" + e.getMessage() + "); check its permissions.", e);
        }
    }

    /** Writes every object of {@code model} as {@code DIR/<kind folder>/<name>.yaml}; returns the files written. */
    public static List<Path> write(Path dir, SemanticModel model) throws IOException {
        List<Path> written = new ArrayList<>();
        for (Entity e : model.entities()) {
            written.add(writeFile(dir.resolve("entities"), e.name(), SemanticCodec.encode(e)));
        }
        for (Join j : model.joins()) {
            written.add(writeFile(dir.resolve("joins"), j.name(), SemanticCodec.encode(j)));
        }
        for (Metric m : model.metrics()) {
            written.add(writeFile(dir.resolve("metrics"), m.name(), SemanticCodec.encode(m)));
        }
        return written;
    }

    private static Path writeFile(Path folder, String name, ObjectNode tree) throws IOException {
        Files.createDirectories(folder);
        Path target = folder.resolve(name + ".yaml");
        Path temp = Files.createTempFile(folder, "." + name, ".tmp");
        try {
            Files.writeString(temp, SemanticFileReader.YAML.writeValueAsString(tree), StandardCharsets.UTF_8);
            try {
                Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(temp);
        }
        return target;
    }

    /**
     * The project's objects with the origin applying them gives, decided against the stored layer and never taken
     * from a file's {@code origin}: an object whose definition is the stored one stays what it was (a draft keeps
     * its inference method and state); one the operator added or changed is manually authored. Either is confirmed
     * when its file says {@code validation_state: confirmed}, and rejected (kept, never served) when it says
     * {@code validation_state: rejected}.
     */
    public static SemanticModel resolve(SemanticModel stored, SemanticModel project) {
        return new SemanticModel(
                resolve(stored.entities(), project.entities(), Entity::name, Entity::origin, SemanticCodec::encode,
                        SemanticProject::withOrigin),
                resolve(stored.joins(), project.joins(), Join::name, Join::origin, SemanticCodec::encode, Join::withOrigin),
                resolve(stored.metrics(), project.metrics(), Metric::name, Metric::origin, SemanticCodec::encode,
                        Metric::withOrigin));
    }

    private static <T> List<T> resolve(List<T> stored, List<T> project, Function<T, String> name, Function<T, Origin> origin,
                                       Function<T, ObjectNode> encode, BiFunction<T, Origin, T> withOrigin) {
        Map<String, T> before = byName(stored, name);
        List<T> out = new ArrayList<>();
        for (T p : project) {
            T s = before.get(name.apply(p));
            ValidationState claimed = origin.apply(p).state();
            if (s != null && definition(encode.apply(s)).equals(definition(encode.apply(p)))) {
                out.add(claimed == ValidationState.CONFIRMED ? withOrigin.apply(s, origin.apply(s).confirmed())
                        : claimed == ValidationState.REJECTED ? withOrigin.apply(s, origin.apply(s).asRejected()) : s);
            } else {
                out.add(withOrigin.apply(p, origin.apply(p)));
            }
        }
        return out;
    }

    /** An entity from another origin; the operator's entity's segments are theirs too, no longer query-log proposals. */
    private static Entity withOrigin(Entity e, Origin origin) {
        return new Entity(e.name(), e.description(), e.table(), e.identity(), e.group(), origin, !origin.reviewed()
                ? e.segments() : e.segments().stream().map(g -> new Segment(g.name(), g.description(), g.filters(),
                g.isDefault(), null)).toList());
    }

    /**
     * The stored layer after applying {@code resolved} (the project's objects, {@link #resolve resolved}): they
     * replace stored objects of the same name; objects the operator confirmed or authored that the project no
     * longer has are dropped; drafts and imports of other names stay.
     */
    public static SemanticModel merge(SemanticModel stored, SemanticModel resolved) {
        return new SemanticModel(
                merge(stored.entities(), resolved.entities(), Entity::name, Entity::origin),
                merge(stored.joins(), resolved.joins(), Join::name, Join::origin),
                merge(stored.metrics(), resolved.metrics(), Metric::name, Metric::origin));
    }

    private static <T> List<T> merge(List<T> stored, List<T> project, Function<T, String> name, Function<T, Origin> origin) {
        Map<String, T> out = new LinkedHashMap<>();
        for (T s : stored) {
            if (!origin.apply(s).reviewed()) {
                out.put(name.apply(s), s);
            }
        }
        project.forEach(p -> out.put(name.apply(p), p));
        return new ArrayList<>(out.values());
    }

    /**
     * What applying {@code resolved} would change among the objects the operator confirmed or authored: + one becomes
     * theirs (added, or a draft edited or confirmed), ~ one of theirs changes, - one of theirs is gone from the project.
     * A draft the project leaves as it is changes nothing.
     */
    public static List<Change> diff(SemanticModel stored, SemanticModel resolved) {
        List<Change> changes = new ArrayList<>();
        diff(changes, SemanticCodec.ENTITY, stored.entities(), resolved.entities(), Entity::name, Entity::origin, SemanticCodec::encode);
        diff(changes, SemanticCodec.JOIN, stored.joins(), resolved.joins(), Join::name, Join::origin, SemanticCodec::encode);
        diff(changes, SemanticCodec.METRIC, stored.metrics(), resolved.metrics(), Metric::name, Metric::origin, SemanticCodec::encode);
        return changes;
    }

    private static <T> void diff(List<Change> changes, String kind, List<T> stored, List<T> project,
                                 Function<T, String> name, Function<T, Origin> origin, Function<T, ObjectNode> encode) {
        Map<String, T> before = byName(stored, name);
        for (T p : project) {
            T s = before.get(name.apply(p));
            if (s == null || !origin.apply(s).reviewed() && origin.apply(p).reviewed()) {
                changes.add(new Change('+', kind, name.apply(p)));
            } else if (origin.apply(s).reviewed() && !encode.apply(s).equals(encode.apply(p))) {
                changes.add(new Change('~', kind, name.apply(p)));
            }
        }
        List<String> names = project.stream().map(name).toList();
        for (T s : stored) {
            if (origin.apply(s).reviewed() && !names.contains(name.apply(s))) {
                changes.add(new Change('-', kind, name.apply(s)));
            }
        }
    }

    private static <T> Map<String, T> byName(List<T> objects, Function<T, String> name) {
        Map<String, T> out = new HashMap<>();
        objects.forEach(o -> out.put(name.apply(o), o));
        return out;
    }

    /**
     * An object's definition: its file without where it and its segments came from. A segment's query-log marker
     * is the store's to keep, so a file that drops it alone leaves the draft as it is; confirming accepts it.
     */
    private static JsonNode definition(ObjectNode n) {
        ObjectNode copy = n.deepCopy();
        copy.remove("origin");
        copy.remove(SemanticCodec.VALIDATION_STATE);
        copy.path("segments").forEach(g -> ((ObjectNode) g).remove(List.of("origin", "observed")));
        return copy;
    }
    /**
     * Problems of the objects in {@code check} against the catalog and the rest of the model: tables and
     * columns that do not exist, entities a join or metric names that do not exist, a time dimension
     * that is not a date. Each problem is one sentence naming the file.
     */
    public static List<String> check(SemanticModel model, Catalog catalog, Loaded files) {
        List<String> problems = new ArrayList<>();
        Map<QualifiedName, Table> tables = catalog.byName();
        Map<String, Entity> entities = new HashMap<>();
        model.entities().forEach(e -> entities.put(e.name(), e));
        for (Entity e : model.entities()) {
            if (!files.files().containsKey(SemanticCodec.ENTITY + "/" + e.name())) {
                continue;
            }
            String where = files.fileOf(SemanticCodec.ENTITY, e.name());
            Table t = tables.get(e.table());
            if (t == null) {
                problems.add(where + ": table " + e.table() + " is not in the index; index its source or fix 'table'.");
                continue;
            }
            for (String c : e.identity()) {
                if (t.column(c).isEmpty()) {
                    problems.add(where + ": identity column " + c + " is not a column of " + e.table() + ".");
                }
            }
            for (var segment : e.segments()) {
                filters(segment.filters(), entities, tables, where, "segment " + segment.name() + " filters", problems);
            }
        }
        for (Join j : model.joins()) {
            if (!files.files().containsKey(SemanticCodec.JOIN + "/" + j.name())) {
                continue;
            }
            String where = files.fileOf(SemanticCodec.JOIN, j.name());
            Optional<Table> source = entityTable(j.sourceEntity(), entities, tables, where, "source_entity", problems);
            Optional<Table> target = entityTable(j.targetEntity(), entities, tables, where, "target_entity", problems);
            if (source.isEmpty() || target.isEmpty()) {
                continue;
            }
            if (j.bridge() == null) {
                pairs(j.on(), source.get(), target.get(), where, "on", problems);
            } else {
                Table link = tables.get(j.bridge().table());
                if (link == null) {
                    problems.add(where + ": link table " + j.bridge().table() + " ('through') is not in the index.");
                    continue;
                }
                pairs(j.bridge().sourceOn(), source.get(), link, where, "on", problems);
                pairs(j.bridge().targetOn(), link, target.get(), where, "through_on", problems);
            }
        }
        MetricCompiler compiler = new MetricCompiler(catalog, model);   // one for every metric the check compiles
        for (Metric m : model.metrics()) {
            if (!files.files().containsKey(SemanticCodec.METRIC + "/" + m.name())) {
                continue;
            }
            String where = files.fileOf(SemanticCodec.METRIC, m.name());
            Optional<Table> t = entityTable(m.entity(), entities, tables, where, "entity", problems);
            if (t.isEmpty()) {
                continue;
            }
            if (!m.isSimple() || m.measure().nonAdditive() != null || hasParentColumns(m)) {
                // Parts, windows, snapshots and parents' columns: the compiler's own check, as a first call would make it.
                compiler.check(m).ifPresent(problem -> problems.add(where + ": " + problem));
                filters(m.filters(), entities, tables, where, "filters", problems);
                continue;
            }
            if (m.measure().column() != null && t.get().column(m.measure().column()).isEmpty()) {
                problems.add(where + ": measure column " + m.measure().column() + " is not a column of " + t.get().name() + ".");
            }
            if (m.measure().expression() != null) {
                try {
                    for (String c : MeasureExpression.columns(m.measure().expression())) {
                        if (t.get().column(c).isEmpty()) {
                            problems.add(where + ": measure expression reads " + c + ", which is not a column of " + t.get().name() + ".");
                        }
                    }
                } catch (CompileException e) {
                    problems.add(where + ": " + e.getMessage());
                }
            }
            if (m.timeDimension() != null) {
                reference(m.timeDimension(), entities, tables, where, "time_dimension", problems).ifPresent(c -> {
                    if (TypeClass.of(c) != TypeClass.TEMPORAL) {
                        problems.add(where + ": time_dimension " + m.timeDimension() + " is not a date or time column.");
                    }
                });
            }
            filters(m.filters(), entities, tables, where, "filters", problems);
        }
        return problems;
    }

    private static boolean hasParentColumns(Metric m) {
        try {
            return m.measure().expression() != null
                    && MeasureExpression.columns(m.measure().expression()).stream().anyMatch(c -> c.indexOf('.') > 0);
        } catch (CompileException e) {
            return false;
        }
    }

    private static void filters(List<Filter> filters, Map<String, Entity> entities, Map<QualifiedName, Table> tables,
                                String where, String key, List<String> problems) {
        for (int i = 0; i < filters.size(); i++) {
            Filter f = filters.get(i);
            Optional<Column> c = reference(f.column(), entities, tables, where, key, problems);
            if (f.comparesColumns()) {
                reference(f.otherColumn(), entities, tables, where, key, problems);
                continue;
            }
            if (c.isPresent()) {
                try {
                    // The compiler's own check: a default filter outside an ENUM is refused here, not at the first call.
                    FilterValues.check(c.get(), f.column(), f);
                } catch (CompileException e) {
                    String message = e.getMessage();
                    if (!e.candidates().isEmpty()) {
                        message = message.substring(0, message.length() - 1) + "; did you mean "
                                + String.join(" or ", e.candidates()) + "?";
                    }
                    problems.add(where + ": " + key + "[" + i + "]: " + message);
                }
            }
        }
    }

    private static Optional<Table> entityTable(String entity, Map<String, Entity> entities, Map<QualifiedName, Table> tables,
                                               String where, String key, List<String> problems) {
        Entity e = entities.get(entity);
        if (e == null) {
            problems.add(where + ": " + key + " '" + entity + "' is not an entity; define it or fix the name.");
            return Optional.empty();
        }
        Table t = tables.get(e.table());
        if (t == null) {
            problems.add(where + ": entity " + entity + " is on " + e.table() + ", which is not in the index.");
        }
        return Optional.ofNullable(t);
    }

    private static void pairs(List<ColumnPair> pairs, Table left, Table right, String where, String key, List<String> problems) {
        for (ColumnPair p : pairs) {
            if (left.column(p.source()).isEmpty()) {
                problems.add(where + ": " + key + " source column " + p.source() + " is not a column of " + left.name() + ".");
            }
            if (right.column(p.target()).isEmpty()) {
                problems.add(where + ": " + key + " target column " + p.target() + " is not a column of " + right.name() + ".");
            }
        }
    }

    private static Optional<Column> reference(String ref, Map<String, Entity> entities, Map<QualifiedName, Table> tables,
                                              String where, String key, List<String> problems) {
        int dot = ref.indexOf('.');
        if (dot <= 0) {
            problems.add(where + ": " + key + " '" + ref + "' must be entity.column.");
            return Optional.empty();
        }
        Optional<Table> t = entityTable(ref.substring(0, dot), entities, tables, where, key, problems);
        Optional<Column> c = t.flatMap(table -> table.column(ref.substring(dot + 1)));
        if (t.isPresent() && c.isEmpty()) {
            problems.add(where + ": " + key + " '" + ref + "' names no column of " + t.get().name() + ".");
        }
        return c;
    }
}
