package dev.schemabrain.served;

import dev.schemabrain.access.Access;
import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.NameLookup;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.describe.TableDocuments;
import dev.schemabrain.pii.BlockList;
import dev.schemabrain.pii.MetricPiiCheck;
import dev.schemabrain.pii.PiiCategory;
import dev.schemabrain.pii.PiiTags;
import dev.schemabrain.pii.SubjectClass;
import dev.schemabrain.pii.SubjectClasses;
import dev.schemabrain.pii.SubjectPolicy;
import dev.schemabrain.engine.Engine;
import dev.schemabrain.semantic.compile.CompileException;
import dev.schemabrain.semantic.compile.DataSubjects;
import dev.schemabrain.semantic.compile.MetricCompiler;
import dev.schemabrain.semantic.compile.MetricRequest;
import dev.schemabrain.semantic.compile.SmallCells;
import dev.schemabrain.semantic.compile.SubjectGraph;
import dev.schemabrain.retrieve.HybridRetriever;
import dev.schemabrain.retrieve.MetricSearch;
import dev.schemabrain.retrieve.VectorIndex;
import dev.schemabrain.catalog.InferenceMethod;
import dev.schemabrain.semantic.Dimensions;
import dev.schemabrain.semantic.JoinGraph;
import dev.schemabrain.semantic.QueryLogJoin;
import dev.schemabrain.semantic.TimeAxis;
import dev.schemabrain.semantic.model.ColumnPair;
import dev.schemabrain.semantic.model.Entity;
import dev.schemabrain.semantic.model.Join;
import dev.schemabrain.semantic.model.Metric;
import dev.schemabrain.semantic.model.SemanticModel;
import dev.schemabrain.store.SchemaSummary;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One consistent snapshot of the store as the tools see it: the catalog of every indexed source
 * (merged; tables keep their own schema names), the tables' descriptions and vectors, the columns'
 * PII tags with the block list in force, and the structures derived from them, built on first use and shared by every call until the store changes.
 */
public final class ServedCatalog {

    private final List<SchemaSummary> schemas;
    private final Catalog catalog;
    private final List<TableDocuments> documents;
    private final Map<QualifiedName, TableDocuments> documentsByTable = new HashMap<>();
    /** The int8 vectors every retriever of this catalog shares. */
    private final VectorIndex vectors;
    private final Supplier<Function<String, float[]>> queryEmbedder;
    private final Supplier<MetricSearch> metricSearch;
    private final Supplier<NameLookup> lookup;
    private final Supplier<JoinGraph> joins;
    private final Map<HybridRetriever.Mode, HybridRetriever> retrievers = new EnumMap<>(HybridRetriever.Mode.class);
    private final Map<String, List<Dimensions.Dimension>> dimensions = new ConcurrentHashMap<>();
    private final Map<String, TimeAxis> timeAxes = new ConcurrentHashMap<>();
    private final SemanticModel semantic;
    private final PiiTags pii;
    private final BlockList blockList;
    private final SubjectPolicy subjectPolicy;
    private final Supplier<List<SubjectClasses.Assigned>> subjectClasses;
    private final Supplier<SubjectGraph> subjectGraph;
    private final Supplier<Function<List<String>, List<float[]>>> passageEmbedder;
    /** The whole catalog when this is one caller's view of it (null when it is the whole), and that caller's reach. */
    private final ServedCatalog whole;
    private final Map<QualifiedName, String> tableSources;
    /** How many sources the tables come from: asked by every get_metric and execute to route the statement. */
    private final int sourceCount;
    private final Access access;
    /** The PII categories this view's role sees in clear (none for the whole catalog). */
    private final Set<PiiCategory> cleared;
    /** What get_metric compiles against: the semantic layer, or a view's with the metrics its role does not list. */
    private final SemanticModel compilable;
    /** Each role's view, cut once per served catalog and shared by its calls. */
    private final Map<Object, ServedCatalog> views = new ConcurrentHashMap<>();

    /**
     * @param documents       one per table of {@code catalog}, in its order
     * @param vectors         the int8 vectors of its tables and columns ({@link VectorIndex#builder})
     * @param queryEmbedder   embeds a question; its supplier answers null when no model can be loaded
     * @param passageEmbedder embeds the metrics' documents for find_relevant_metrics; its supplier answers null when
     *                        no model can be loaded
     * @param semantic        the entities, joins and metrics of the served sources
     * @param pii             each column's tag; {@code catalog} must hold no samples of tagged columns
     * @param blockList       the categories this server refuses and redacts
     * @param subjectPolicy   the operator's data-subject overrides
     * @param tableSources    the source each table was indexed from, by id: the database a statement on it runs on
     */
    public ServedCatalog(List<SchemaSummary> schemas, Catalog catalog, List<TableDocuments> documents,
                         VectorIndex vectors, Supplier<Function<String, float[]>> queryEmbedder,
                         Supplier<Function<List<String>, List<float[]>>> passageEmbedder,
                         SemanticModel semantic, PiiTags pii, BlockList blockList, SubjectPolicy subjectPolicy,
                         Map<QualifiedName, String> tableSources) {
        this(schemas, catalog, documents, vectors, queryEmbedder, passageEmbedder, semantic, pii, blockList, subjectPolicy,
                tableSources, null, Access.UNRESTRICTED, Set.of(), semantic);
    }

    /**
     * @param whole  the served catalog this one is a caller's view of, or null when it is the whole
     * @param access the caller's reach this view was cut to
     */
    private ServedCatalog(List<SchemaSummary> schemas, Catalog catalog, List<TableDocuments> documents,
                          VectorIndex vectors, Supplier<Function<String, float[]>> queryEmbedder,
                          Supplier<Function<List<String>, List<float[]>>> passageEmbedder,
                          SemanticModel semantic, PiiTags pii, BlockList blockList, SubjectPolicy subjectPolicy,
                          Map<QualifiedName, String> tableSources, ServedCatalog whole, Access access,
                          Set<PiiCategory> cleared, SemanticModel compilable) {
        this.whole = whole;
        this.tableSources = Map.copyOf(tableSources);
        this.sourceCount = (int) this.tableSources.values().stream().distinct().count();
        this.compilable = compilable;
        this.cleared = Set.copyOf(cleared);
        this.access = access;
        this.passageEmbedder = passageEmbedder;
        this.subjectPolicy = subjectPolicy;
        this.subjectClasses = whole != null ? whole.subjectClasses
                : memoize(() -> SubjectClasses.assign(entityTables(catalog, semantic), pii, subjectPolicy));
        // A caller's view counts the people of the whole catalog: a hidden person table must not weaken suppression.
        this.subjectGraph = whole != null ? whole.subjectGraph
                : memoize(() -> new SubjectGraph(semantic, catalog, dataSubjects(subjectClasses.get(), subjectPolicy)));
        this.semantic = semantic;
        this.pii = pii;
        this.blockList = blockList;
        this.schemas = List.copyOf(schemas);
        this.catalog = catalog;
        this.documents = List.copyOf(documents);
        documents.forEach(d -> documentsByTable.put(d.table(), d));
        this.vectors = vectors;
        this.queryEmbedder = queryEmbedder;
        this.lookup = memoize(() -> new NameLookup(catalog));
        this.joins = memoize(() -> new JoinGraph(catalog, observedJoins(semantic)));
        this.metricSearch = memoize(() -> {
            Map<String, Entity> entities = new HashMap<>();
            semantic.entities().forEach(e -> entities.put(e.name(), e));
            Function<List<String>, List<float[]>> passages = passageEmbedder.get();
            return new MetricSearch(semantic.metrics(), entities, passages, passages == null ? null : queryEmbedder.get());
        });
    }

    /** The semantic joins mine-queries drafted, as join-graph edges between their entities' tables. */
    private static List<QueryLogJoin> observedJoins(SemanticModel semantic) {
        Map<String, QualifiedName> tableOf = new HashMap<>();
        semantic.entities().forEach(e -> tableOf.put(e.name(), e.table()));
        List<QueryLogJoin> out = new ArrayList<>();
        for (Join j : semantic.joins()) {
            QualifiedName many = tableOf.get(j.sourceEntity());
            QualifiedName one = tableOf.get(j.targetEntity());
            if (j.origin().method() == InferenceMethod.OBSERVED_IN_QUERY_LOG && j.bridge() == null && many != null && one != null) {
                out.add(new QueryLogJoin(many, j.on().stream().map(ColumnPair::source).toList(), one,
                        j.on().stream().map(ColumnPair::target).toList(), j.origin().state()));
            }
        }
        return out;
    }

    /**
     * The reach this view was cut to, for what the role decides (visibility, widening hints); unrestricted for the
     * whole catalog. A view is shared by every caller of its role: a caller's claims come from its own call.
     */
    public Access access() {
        return access;
    }

    /**
     * What {@code access} may see of this catalog: only its tables (foreign keys to others dropped), their
     * documents and vectors, the entities, joins and metrics over them, schema counts of them alone, and the PII
     * categories its role is cleared for taken off the block list. Every tool answers from this view, so what a
     * caller may not see is absent from listings, searches, scores, join paths and suggestions alike.
     */
    public ServedCatalog scopedTo(Access access) {
        if (whole != null) {
            return whole.scopedTo(access);
        }
        if (!access.restricted()) {
            return this;
        }
        return views.computeIfAbsent(access.scopeKey() == null ? Access.UNRESTRICTED : access.scopeKey(),
                k -> ScopedView.cut(this, access));
    }

    /** The whole catalog behind a caller's view (itself when it is the whole): to tell hidden from absent. */
    public ServedCatalog whole() {
        return whole == null ? this : whole;
    }

    /** The tables whose rows belong to an entity {@code access}'s row filters limit (its own, or many-to-one from it). */
    public Set<QualifiedName> rowFiltered(Access access) {
        return ScopedView.rowFiltered(this, access);
    }

    /** A view of this catalog made of {@code scoped}'s parts, for {@link ScopedView}. */
    ServedCatalog view(Access scoped, List<SchemaSummary> schemas, Catalog catalog, List<TableDocuments> documents,
                       VectorIndex vectors, SemanticModel semantic, SemanticModel compilable, BlockList blockList,
                       Set<PiiCategory> cleared) {
        return new ServedCatalog(schemas, catalog, documents, vectors, queryEmbedder, passageEmbedder, semantic, pii,
                blockList, subjectPolicy, tableSources, this, scoped, cleared, compilable);
    }

    /**
     * What get_metric compiles a listed metric against: {@link #semantic()}, plus, in a view, the metrics over
     * visible tables its role does not list (the parts of a ratio it may call).
     */
    public SemanticModel compilable() {
        return compilable;
    }

    /** The PII rules for columns a statement reads, as this view's caller is bound by them (its clearance applied). */
    public MetricPiiCheck.Verdict piiCheck(List<MetricPiiCheck.ColumnUse> uses) {
        return MetricPiiCheck.check(uses, pii, blockList, cleared);
    }

    public SemanticModel semantic() {
        return semantic;
    }

    /** How many sources the catalog's tables were indexed from (0 for a catalog not read from a store). */
    public int sourceCount() {
        return sourceCount;
    }

    /** The id of the source {@code table} was indexed from; empty for a catalog not read from a store. */
    public Optional<String> sourceOf(QualifiedName table) {
        return Optional.ofNullable(tableSources.get(table));
    }

    /**
     * The whole catalog with {@code metric}'s definition in place of the served one of its name (added when there is
     * none): a reviewer's preview of an edited draft. Everything else (PII tags, block list, subject policy, so
     * small-cell suppression) is this catalog's; each caller still gets its role's view of it.
     */
    public ServedCatalog withMetric(Metric metric) {
        ServedCatalog w = whole();
        List<Metric> metrics = new ArrayList<>(w.semantic.metrics().stream()
                .filter(m -> !m.name().equals(metric.name())).toList());
        metrics.add(metric);
        SemanticModel edited = new SemanticModel(w.semantic.entities(), w.semantic.joins(), metrics, w.semantic.reviews());
        return new ServedCatalog(w.schemas, w.catalog, w.documents, w.vectors, w.queryEmbedder, w.passageEmbedder, edited,
                w.pii, w.blockList, w.subjectPolicy, w.tableSources);
    }

    /** Every entity's data-subject class, drafted once per served catalog. */
    public List<SubjectClasses.Assigned> subjectClasses() {
        return subjectClasses.get();
    }

    /** How each fact reaches its person, for small-cell suppression. */
    public SubjectGraph subjectGraph() {
        return subjectGraph.get();
    }

    /** Each entity with its table, skipping entities whose table the catalog no longer has. */
    public static Map<String, Table> entityTables(Catalog catalog, SemanticModel semantic) {
        Map<String, Table> out = new LinkedHashMap<>();
        semantic.entities().forEach(e -> catalog.table(e.table()).ifPresent(t -> out.put(e.name(), t)));
        return out;
    }

    /** The compiler's view of the classes and the operator's subject_of and person_keys. */
    public static DataSubjects dataSubjects(List<SubjectClasses.Assigned> classes, SubjectPolicy policy) {
        Set<String> people = new HashSet<>();
        Set<String> organisations = new HashSet<>();
        for (SubjectClasses.Assigned a : classes) {
            if (a.subjectClass() == SubjectClass.PERSON) {
                people.add(a.entity());
            } else if (a.subjectClass() == SubjectClass.ORGANISATION) {
                organisations.add(a.entity());
            }
        }
        return new DataSubjects(people, organisations, policy.subjectOf(), policy.personKeys());
    }

    /** Any K above 1 takes the suppression path a warm-up should load; the answer is discarded. */
    public static final int WARM_GROUP_SIZE = 5;

    /**
     * Computes what the first list_metrics and get_metric of a session would otherwise compute (each entity's
     * dimensions and time axes, the data subjects) and compiles one metric, so the compiler's path is loaded (the
     * server checks {@link #warmStatement} through execute's gate beside it). Nothing reaches the database.
     */
    public void warmUp(Engine engine) {
        semantic.entities().forEach(e -> {
            dimensions(e.name());
            timeAxis(e.name());
        });
        subjectGraph();
        semantic.metrics().stream().filter(Metric::isSimple).findFirst().ifPresent(m -> {
            // Plain, by a time grain and by a dimension: an agent's first get_metric most often asks for one of these.
            List<String> byFirst = dimensions(m.entity()).stream().limit(1).map(Dimensions.Dimension::reference).toList();
            for (MetricRequest request : List.of(
                    new MetricRequest(m.name(), List.of(), List.of(), null, null, List.of(), List.of(), 10),
                    new MetricRequest(m.name(), List.of(), List.of(), "month", null, List.of(), List.of(), 10),
                    new MetricRequest(m.name(), byFirst, List.of(), null, null, List.of(), List.of(), 10))) {
                try {
                    new MetricCompiler(catalog, compilable).compile(request, engine, new SmallCells(WARM_GROUP_SIZE,
                            subjectGraph()));
                } catch (CompileException e) {
                    // A metric that does not compile says so to its caller; warming needs none in particular.
                }
            }
        });
    }

    /**
     * The statement the warm-up checks through execute's gate: a grouped count of the first table's first column,
     * joined through its first foreign key as an agent writes one (aliases, ON, WHERE, ORDER BY, LIMIT), so the
     * parser's and the binder's paths for these are not first run by the caller's first execute.
     */
    public Optional<String> warmStatement(Engine engine) {
        return catalog.tables().stream().filter(t -> !t.columns().isEmpty()).findFirst().map(t -> {
            String column = "a." + engine.quote(t.columns().get(0).name());
            String from = engine.qualified(t.name()) + " AS a" + t.foreignKeys().stream()
                    .filter(fk -> fk.columns().size() == 1 && catalog.table(fk.target()).isPresent()).findFirst()
                    .map(fk -> " JOIN " + engine.qualified(fk.target()) + " AS b ON b." + engine.quote(fk.targetColumns().get(0))
                            + " = a." + engine.quote(fk.columns().get(0)) + " WHERE a." + engine.quote(fk.columns().get(0))
                            + " IS NOT NULL")
                    .orElse("");
            return "SELECT " + column + ", COUNT(*) AS n FROM " + from + " GROUP BY " + column + " ORDER BY n DESC LIMIT 5";
        });
    }

    /** An entity's groupable dimensions, walked once per served catalog (not once per list_metrics call). */
    public List<Dimensions.Dimension> dimensions(String entity) {
        return dimensions.computeIfAbsent(entity, e -> Dimensions.of(catalog, semantic, e));
    }

    /** An entity's time axes, found once per served catalog. */
    public TimeAxis timeAxis(String entity) {
        return timeAxes.computeIfAbsent(entity, e -> TimeAxis.of(catalog, semantic, e));
    }

    public PiiTags pii() {
        return pii;
    }

    public BlockList blockList() {
        return blockList;
    }

    public List<SchemaSummary> schemas() {
        return schemas;
    }

    public Catalog catalog() {
        return catalog;
    }

    /** The descriptions and texts of each table, in the catalog's order. */
    public List<TableDocuments> documents() {
        return documents;
    }

    /** The descriptions and texts of one table. */
    public TableDocuments documents(QualifiedName table) {
        return documentsByTable.get(table);
    }

    public NameLookup lookup() {
        return lookup.get();
    }

    public JoinGraph joins() {
        return joins.get();
    }

    /** The hybrid retriever, the one find_relevant_tables uses. */
    public HybridRetriever retriever() {
        return retriever(HybridRetriever.Mode.HYBRID);
    }

    public synchronized HybridRetriever retriever(HybridRetriever.Mode mode) {
        return retrievers.computeIfAbsent(mode, m -> new HybridRetriever(m, catalog, documents, vectors,
                m == HybridRetriever.Mode.KEYWORD ? null : queryEmbedder.get()));
    }

    /** The metrics' search index (find_relevant_metrics), built and embedded on first use, once per served catalog. */
    public MetricSearch metricSearch() {
        return metricSearch.get();
    }

    /** The int8 vectors every retriever of this catalog shares (and their table graph at scale). */
    public VectorIndex vectors() {
        return vectors;
    }

    public boolean isEmpty() {
        return catalog.tables().isEmpty();
    }

    private static <T> Supplier<T> memoize(Supplier<T> supplier) {
        return new Supplier<>() {
            private volatile T value;

            @Override
            public T get() {
                T v = value;
                if (v == null) {
                    synchronized (this) {
                        v = value;
                        if (v == null) {
                            v = supplier.get();
                            value = v;
                        }
                    }
                }
                return v;
            }
        };
    }
}
