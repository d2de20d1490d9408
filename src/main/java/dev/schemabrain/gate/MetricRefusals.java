package dev.schemabrain.gate;

import dev.schemabrain.catalog.NameSyntax;
import dev.schemabrain.error.ErrorKind;
import dev.schemabrain.error.ExecutionException;
import dev.schemabrain.execute.BoundQuery;
import dev.schemabrain.execute.QueryExecutor;
import dev.schemabrain.pii.MetricPiiCheck;
import dev.schemabrain.semantic.Dimensions;
import dev.schemabrain.semantic.compile.CompileException;
import dev.schemabrain.semantic.compile.CompiledMetric;
import dev.schemabrain.semantic.compile.FilterTypos;
import dev.schemabrain.semantic.compile.MetricCompiler;
import dev.schemabrain.semantic.compile.MetricRequest;
import dev.schemabrain.semantic.model.Entity;
import dev.schemabrain.semantic.model.Filter;
import dev.schemabrain.semantic.model.SemanticModel;
import dev.schemabrain.served.ServedCatalog;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The metric gate's refusals, each with the call most likely to fix it: the caller's own call with one change where
 * one will do.
 */
public final class MetricRefusals {

    static final String GET_METRIC = "get_metric";
    static final String DESCRIBE_ENTITY = "describe_entity";

    private MetricRefusals() {
    }

    /** The next call: a tool and its arguments. */
    public record Next(String tool, Map<String, Object> args) {
    }

    static Refused compileError(CompileException e, MetricRequest request, String metricEntity) {
        ErrorKind kind = e.problem();
        Next next = switch (kind) {
            case UNKNOWN_METRIC -> e.candidates().isEmpty() ? new Next("list_metrics", Map.of())
                    : retry(request, "name", e.candidates().get(0), new Next("list_metrics", Map.of()));
            case UNKNOWN_GROUP_BY_COLUMN, UNKNOWN_FILTER_COLUMN, UNKNOWN_ORDER_BY_COLUMN, UNKNOWN_MEASURE_COLUMN ->
                    new Next(DESCRIBE_ENTITY, Map.of("name", entityOf(e, metricEntity)));
            case AMBIGUOUS_PATH, AMBIGUOUS_TIME_DIMENSION, GRAIN_MISMATCH -> {
                Map.Entry<String, Object> fix = e.suggestedArgs().entrySet().iterator().next();
                yield retry(request, fix.getKey(), fix.getValue(), metricEntity);
            }
            case UNREACHABLE_ENTITY, UNKNOWN_VIA_JOIN -> new Next("list_joins", Map.of());
            case INVALID_TIME_GRAIN -> retry(request, "time_grain", "month", metricEntity);
            case SCHEMA_DRIFT -> new Next("list_indexed_schemas", Map.of());
            // Which value was wrong is the caller's to fix (fuzzy_matches has the domain's nearest values); a retry
            // without the offending filter would be a different question's number.
            case INVALID_ARGUMENT -> e.suggestedArgs().isEmpty()
                    ? new Next(DESCRIBE_ENTITY, Map.of("name", entityOf(e, metricEntity)))
                    : retry(request, e.suggestedArgs().keySet().iterator().next(), e.suggestedArgs().values().iterator().next(),
                    metricEntity);   // the same question asked so it has one right answer (grouped by currency)
            default -> new Next("list_metrics", Map.of());   // the compiler raises none other today
        };
        return new Refused(kind, e.getMessage(), next.tool(), next.args(), e.candidates().stream().limit(3).toList(), null,
                null, List.of(), List.of(DESCRIBE_ENTITY, "list_metrics"));
    }

    /**
     * pii_blocked, naming only the categories that caused it, before any SQL leaves. A refused grouping
     * suggests grouping by the identity of the entity that owns the column (recovery → describe_entity).
     */
    static Refused pii(MetricPiiCheck.Refusal refusal, CompiledMetric compiled, ServedCatalog served) {
        SemanticModel model = served.semantic();
        String categories = String.join(", ", refusal.categoryNames());
        String metricEntity = compiled.metric().entity();
        Optional<Entity> owner = refusal.table() == null ? Optional.empty()
                : model.entities().stream().filter(e -> e.table().equals(refusal.table())).findFirst();
        String entity = owner.map(Entity::name).orElse(metricEntity);
        String column = refusal.column();
        String why;
        String rewrite;
        if (refusal.cause() == MetricPiiCheck.Cause.BLOCKED) {
            why = "it reads " + column + ", and this server blocks " + categories;
            rewrite = "leave out filters, groupings and time dimensions on columns tagged " + categories;
        } else {
            switch (refusal.use()) {
                case GROUP_BY, TIME_DIMENSION -> {
                    why = (refusal.use() == MetricPiiCheck.Use.GROUP_BY ? "it groups by " : "its time dimension is ") + column
                            + ", a column tagged " + categories + ", and each group would expose a personal value";
                    // Not the owner's identity: one group per person would be suppressed whole.
                    boolean time = refusal.use() == MetricPiiCheck.Use.TIME_DIMENSION;
                    List<String> instead = untagged(served, owner.map(Entity::name).orElse(metricEntity), time);
                    rewrite = instead.isEmpty() ? (time ? "use an untagged date as time_dimension" : "group by an untagged column")
                            + " instead of " + column
                            : (time ? "time_dimension \"" + instead.get(0) + "\"" : "group_by [\"" + instead.get(0) + "\"]")
                            + " instead of " + column + (instead.size() > 1 ? " (or " + String.join(", ", instead.subList(1, instead.size())) + ")" : "")
                            + "; groups about fewer people than the server's minimum are left out";
                }
                case MIN_MAX_OPERAND -> {
                    why = "it takes the min or max over " + column
                            + ", a column tagged " + categories + ", and the answer would be one person's value";
                    rewrite = "use a count or sum metric, or one over an untagged column";
                }
                case FILTER_RANGE -> {
                    why = "it filters " + column + ", a column tagged " + categories + ", by a range, and repeated"
                            + " ranges recover a personal value";
                    rewrite = "filter by an untagged column instead of " + column;
                }
                case FILTER_EQUALITY -> {
                    why = "it filters " + column + ", a direct identifier (" + categories + "), by value, and each"
                            + " answer would confirm whether that person is there";
                    rewrite = "filter by an untagged column, or use is_null / not_null on " + column;
                }
                default -> {
                    why = "it reads " + column + ", a column tagged " + categories;
                    rewrite = "leave out " + column;
                }
            }
        }
        return new Refused(ErrorKind.PII_BLOCKED, "get_metric refused " + compiled.metric().name() + ": " + why
                + "; describe_entity shows each column's PII tags.", DESCRIBE_ENTITY, Map.of("name", entity), List.of(),
                rewrite, null, refusal.categoryNames(), List.of(DESCRIBE_ENTITY, "list_metrics"));
    }

    /** Up to three untagged groupable columns (or dates) of {@code entity} and its parents, as entity.column. */
    private static List<String> untagged(ServedCatalog served, String entity, boolean dates) {
        return served.dimensions(entity).stream()
                .filter(d -> (d.kind() == Dimensions.Kind.DATE) == dates)
                .filter(d -> !served.pii().tag(d.table(), d.column()).tagged())
                .map(d -> d.entity() + "." + d.column()).limit(3).toList();
    }

    static Optional<Refused> typo(MetricRequest request, MetricCompiler compiler, QueryExecutor source,
                                      ServedCatalog served) {
        Optional<FilterTypos.Typo> found = FilterTypos.find(compiler, request.filters(), source.dialect(),
                (table, column) -> served.pii().tag(table, column).tagged(), (sql, params) -> exists(source, sql, params));
        return found.map(typo -> {
            Next next = typoRecovery(request, typo);
            return new Refused(ErrorKind.INVALID_ARGUMENT, typo.message(), next.tool(), next.args(), typo.nearest(), null,
                    null, List.of(), List.of(DESCRIBE_ENTITY, "list_metrics"));
        });
    }

    /** A failed probe proves nothing: the value is taken to exist and the call goes on as before. */
    private static boolean exists(QueryExecutor source, String sql, List<Object> params) {
        try {
            return !source.execute(new BoundQuery(sql, params), 1).rows().isEmpty();
        } catch (ExecutionException e) {
            return true;
        }
    }

    /** The caller's call with the typo replaced, when one value is clearly meant; else the column's entity. */
    private static Next typoRecovery(MetricRequest request, FilterTypos.Typo typo) {
        String entity = typo.reference().substring(0, Math.max(0, typo.reference().indexOf('.')));
        Next describe = new Next(DESCRIBE_ENTITY, Map.of("name", entity));
        if (typo.correction().isEmpty()) {
            return describe;
        }
        Optional<Map<String, Object>> call = retryArgs(request, null, null);
        if (call.isEmpty()) {
            return describe;
        }
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> filters = new ArrayList<>((List<Map<String, Object>>) call.get().get("filters"));
        Map<String, Object> fixed = new LinkedHashMap<>(filters.get(typo.filter()));
        String to = typo.correction().get();
        fixed.put("value", fixed.get("value") instanceof List<?> list
                ? list.stream().map(v -> typo.value().equals(v instanceof String s ? s : String.valueOf(v)) ? to : v).toList() : to);
        filters.set(typo.filter(), fixed);
        return retryArgs(request, "filters", filters).map(a -> new Next(GET_METRIC, a)).orElse(describe);
    }

    /** The caller's call with one argument changed, or describe_entity when it cannot be repeated as written. */
    private static Next retry(MetricRequest request, String key, Object value, String metricEntity) {
        return retry(request, key, value, new Next(DESCRIBE_ENTITY, Map.of("name", metricEntity)));
    }

    /** The caller's call with one argument changed, or {@code otherwise} when it cannot be repeated exactly. */
    public static Next retry(MetricRequest request, String key, Object value, Next otherwise) {
        return retryArgs(request, key, value).map(a -> new Next(GET_METRIC, a)).orElse(otherwise);
    }

    /** The entity a close match names (else the metric's own), for describe_entity. */
    static String entityOf(CompileException e, String metricEntity) {
        return e.candidates().stream().filter(c -> c.contains(".")).map(c -> c.substring(0, c.indexOf('.'))).findFirst()
                .orElse(metricEntity);
    }

    /**
     * The caller's own call again, every argument kept (filters, grain, time dimension, via, order, limit) with
     * {@code key} set to {@code value} (none when {@code key} is null), so a suggested retry never drops a valid
     * filter and answers another question. Empty when an argument could not be echoed as written
     * (longer than an echo may be); the caller then points at describe_entity instead.
     */
    public static Optional<Map<String, Object>> retryArgs(MetricRequest request, String key, Object value) {
        Map<String, Object> args = new LinkedHashMap<>();
        List<String> texts = new ArrayList<>();
        args.put("name", request.metric());
        texts.add(request.metric());
        if (!request.groupBy().isEmpty()) {
            args.put("group_by", request.groupBy());
            texts.addAll(request.groupBy());
        }
        if (!request.filters().isEmpty()) {
            List<Map<String, Object>> filters = new ArrayList<>();
            for (Filter f : request.filters()) {
                Map<String, Object> wire = new LinkedHashMap<>();
                wire.put("column", f.column());
                wire.put("op", f.op().wireName());
                texts.add(f.column());
                if (f.comparesColumns()) {
                    wire.put("other_column", f.otherColumn());
                    texts.add(f.otherColumn());
                }
                if (f.value() != null) {
                    wire.put("value", f.value());
                    (f.value() instanceof List<?> list ? list : List.of(f.value())).forEach(v -> texts.add(String.valueOf(v)));
                }
                filters.add(wire);
            }
            args.put("filters", filters);
        }
        if (request.timeGrain() != null) {
            args.put("time_grain", request.timeGrain());
            texts.add(request.timeGrain());
        }
        if (request.timeDimension() != null) {
            args.put("time_dimension", request.timeDimension());
            texts.add(request.timeDimension());
        }
        if (!request.via().isEmpty()) {
            args.put("via", request.via());
            texts.addAll(request.via());
        }
        if (!request.orderBy().isEmpty()) {
            args.put("order_by", request.orderBy().stream().map(o -> Map.<String, Object>of("column", o.column(),
                    "direction", o.descending() ? "desc" : "asc")).toList());
            request.orderBy().forEach(o -> texts.add(o.column()));
        }
        args.put("limit", request.limit());
        if (!request.segments().isEmpty()) {
            args.put("segments", request.segments());
            texts.addAll(request.segments());
        }
        if (!request.defaultSegments()) {
            args.put("default_segments", false);
        }
        if (key != null) {
            args.put(key, value);
        }
        // A retry is the caller's call exactly, or none: a cut value would be another filter.
        return texts.stream().allMatch(t -> t == null || NameSyntax.excerpt(t).equals(t)) ? Optional.of(args) : Optional.empty();
    }
}
