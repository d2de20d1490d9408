package dev.schemabrain.store;

import dev.schemabrain.error.SemanticProjectException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.InferenceMethod;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.ValidationState;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.pii.PiiTag;
import dev.schemabrain.pii.PiiTags;
import dev.schemabrain.pii.Sensitivity;
import dev.schemabrain.semantic.QueryLogFilter;
import dev.schemabrain.semantic.QueryLogJoin;
import dev.schemabrain.semantic.SemanticInference;
import dev.schemabrain.semantic.model.Entity;
import dev.schemabrain.semantic.model.Join;
import dev.schemabrain.semantic.model.Metric;
import dev.schemabrain.semantic.model.MetricReview;
import dev.schemabrain.semantic.model.Origin;
import dev.schemabrain.semantic.model.SemanticModel;
import dev.schemabrain.semantic.project.SemanticCodec;
import dev.schemabrain.semantic.project.Format;
import dev.schemabrain.store.SemanticRepository.StoredObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.BiPredicate;
import java.util.function.Function;

/**
 * The semantic layer as the store keeps it. Index runs replace the inferred drafts (and only those);
 * {@code apply} and {@code import} write the operator's objects, which drafts never overwrite.
 */
public final class SemanticLayer {

    private static final Logger LOG = LoggerFactory.getLogger(SemanticLayer.class);
    static final ObjectMapper JSON = new ObjectMapper().configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);

    public static final String ENTITY = SemanticCodec.ENTITY;
    public static final String JOIN = SemanticCodec.JOIN;
    public static final String METRIC = SemanticCodec.METRIC;

    private SemanticLayer() {
    }

    /**
     * The model to serve: the stored one without the metrics a reviewer rejected (no agent sees them), or, for a store
     * indexed before the semantic layer existed, a fresh inference.
     */
    public static SemanticModel load(Connection c, Catalog catalog, Function<QualifiedName, String> descriptions)
            throws SQLException {
        List<StoredObject> stored = SemanticRepository.load(c);
        if (stored.isEmpty()) {
            return new SemanticInference(descriptions).infer(catalog);
        }
        return served(decode(stored));
    }

    /** {@code model} without its rejected metrics: what agents may be told about. */
    public static SemanticModel served(SemanticModel model) {
        if (model.metrics().stream().noneMatch(m -> m.origin().rejected())) {
            return model;
        }
        return new SemanticModel(model.entities(), model.joins(),
                model.metrics().stream().filter(m -> !m.origin().rejected()).toList(), model.reviews());
    }

    /** The stored model only (nothing inferred on the fly). */
    public static SemanticModel stored(Connection c) throws SQLException {
        return decode(SemanticRepository.load(c));
    }

    /**
     * Re-infers the drafts from the store's catalog and replaces the stored drafts with them; objects an
     * operator applied or imported keep their names. Call inside the index run's write transaction.
     */
    public static void refreshDrafts(Connection c) throws SQLException {
        StoreSnapshot snapshot = StoreSnapshot.read(c);
        SemanticModel inferred = new SemanticInference(table -> {
            DocumentRepository.ServedDocument d = snapshot.documents().get(DocumentKey.table(table));
            return d == null ? null : d.description();
        }).infer(snapshot.catalog(), observedJoins(c, snapshot.catalog()), observedFilters(c), sensitive(PiiRepository.tags(c)));
        List<StoredObject> stored = SemanticRepository.load(c);
        List<StoredObject> drafts = new ArrayList<>();
        Set<String> kept = new HashSet<>();
        for (StoredObject o : stored) {
            if (origin(o).inferred()) {
                drafts.add(o);
            } else {
                kept.add(o.kind() + "/" + o.name());
            }
        }
        List<StoredObject> fresh = encode(inferred).stream().filter(o -> !kept.contains(o.kind() + "/" + o.name())).toList();
        Set<String> freshKeys = new HashSet<>();
        fresh.forEach(o -> freshKeys.add(o.kind() + "/" + o.name()));
        SemanticRepository.delete(c, drafts.stream().filter(o -> !freshKeys.contains(o.kind() + "/" + o.name())).toList());
        SemanticRepository.put(c, fresh);
    }

    /** The joins mine-queries observed, oriented by the catalog's keys, most observed first. */
    private static List<QueryLogJoin> observedJoins(Connection c, Catalog catalog) throws SQLException {
        Map<QualifiedName, Table> tables = catalog.byName();
        List<QueryLogJoin> out = new ArrayList<>();
        QueryLogRepository.joinObservations(c).entrySet().stream()
                .sorted(Map.Entry.<QueryLogRepository.StoredJoin, Long>comparingByValue().reversed())
                .forEach(e -> QueryLogJoin.of(tables, e.getKey().left(), e.getKey().leftColumns(), e.getKey().right(),
                        e.getKey().rightColumns(), e.getValue()).ifPresent(out::add));
        return out;
    }

    /** The filters mine-queries observed, with how many statements use each and how often they ran. */
    private static List<QueryLogFilter> observedFilters(Connection c) throws SQLException {
        return QueryLogRepository.filterObservations(c).stream().map(o -> new QueryLogFilter(o.filter().qualifiedTable(),
                o.filter().column(), o.filter().operator(), o.filter().values(), o.statements(), o.observations(),
                o.lastSeen())).toList();
    }

    /** A column no segment is drafted on: tagged PII, or above internal sensitivity. */
    private static BiPredicate<QualifiedName, String> sensitive(PiiTags pii) {
        return (table, column) -> {
            PiiTag tag = pii.tag(table, column);
            return tag.tagged() || tag.sensitivity().compareTo(Sensitivity.INTERNAL) > 0;
        };
    }

    /** Makes the stored layer exactly {@code model}; call inside {@link SqliteStore#write}. */
    public static void replace(Connection c, SemanticModel model) throws SQLException {
        replace(c, model, null);
    }

    /**
     * Makes the stored layer exactly {@code model}, stamping {@code review} on each object the operator confirmed,
     * authored or rejected that this write changes (an unchanged row keeps the review it had); call inside
     * {@link SqliteStore#write}.
     */
    public static void replace(Connection c, SemanticModel model, MetricReview review) throws SQLException {
        List<StoredObject> wanted = encode(model).stream()
                .map(o -> review != null && (origin(o).reviewed() || origin(o).rejected())
                ? new StoredObject(o.kind(), o.name(), o.definition(), o.inferenceMethod(), o.validationState(),
                review.by(), review.at()) : o).toList();
        Set<String> keys = new HashSet<>();
        wanted.forEach(o -> keys.add(o.kind() + "/" + o.name()));
        SemanticRepository.delete(c, SemanticRepository.load(c).stream()
                .filter(o -> !keys.contains(o.kind() + "/" + o.name())).toList());
        SemanticRepository.put(c, wanted);
    }

    public static List<StoredObject> encode(SemanticModel model) {
        List<StoredObject> out = new ArrayList<>();
        model.entities().forEach(e -> out.add(stored(ENTITY, e.name(), SemanticCodec.encode(e), e.origin())));
        model.joins().forEach(j -> out.add(stored(JOIN, j.name(), SemanticCodec.encode(j), j.origin())));
        model.metrics().forEach(m -> out.add(stored(METRIC, m.name(), SemanticCodec.encode(m), m.origin())));
        return out;
    }

    private static StoredObject stored(String kind, String name, ObjectNode definition, Origin origin) {
        // The state is the row's own column; out of the definition, a confirmation leaves the definition as it was.
        definition.remove(SemanticCodec.VALIDATION_STATE);
        try {
            return new StoredObject(kind, name, JSON.writeValueAsString(definition), origin.method().wireName(),
                    origin.state().wireName());
        } catch (IOException e) {
            throw new IllegalStateException("a semantic object cannot be written as JSON", e);
        }
    }

    static SemanticModel decode(List<StoredObject> stored) {
        List<Entity> entities = new ArrayList<>();
        List<Join> joins = new ArrayList<>();
        List<Metric> metrics = new ArrayList<>();
        Map<String, MetricReview> reviews = new HashMap<>();
        for (StoredObject o : stored) {
            if (o.kind().equals(METRIC) && o.reviewedBy() != null && o.reviewedAt() != null) {
                reviews.put(o.name(), new MetricReview(o.reviewedBy(), o.reviewedAt()));
            }
            String where = "the store's " + o.kind() + " " + o.name();
            try {
                Origin origin = origin(o);
                switch (o.kind()) {
                    case ENTITY -> entities.add(SemanticCodec.decodeEntity(o.definition(), where, Format.JSON, origin));
                    case JOIN -> joins.add(SemanticCodec.decodeJoin(o.definition(), where, Format.JSON, origin));
                    case METRIC -> metrics.add(SemanticCodec.decodeMetric(o.definition(), where, Format.JSON, origin));
                    default -> LOG.warn("skipping {}: unknown kind", where);
                }
            } catch (SemanticProjectException | IllegalArgumentException e) {
                LOG.warn("skipping {}: {}", where, e.getMessage());
            }
        }
        return new SemanticModel(entities, joins, metrics, reviews);
    }

    static Origin origin(StoredObject o) {
        try {
            return new Origin(InferenceMethod.valueOf(o.inferenceMethod().toUpperCase(Locale.ROOT)),
                    ValidationState.valueOf(o.validationState().toUpperCase(Locale.ROOT)));
        } catch (IllegalArgumentException e) {
            return Origin.HEURISTIC_DRAFT;
        }
    }
}
