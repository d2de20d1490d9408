package dev.schemabrain.semantic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.schemabrain.semantic.model.Aggregation;
import dev.schemabrain.semantic.model.Entity;
import dev.schemabrain.semantic.model.Filter;
import dev.schemabrain.semantic.model.Metric;
import dev.schemabrain.semantic.model.SemanticModel;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A hand-written judgement of drafted metrics, decided by one rule and applied the same way to the blind schema
 * (src/test/resources/blind-drafts/*.yaml) and to the sample databases (expected-metrics/*.yaml):
 * <ul>
 *   <li>nonsensical: the draft matches a {@code never} entry (a sum of a price, rate, face value, minor units, sort
 *       order, key or flag; a snapshot summed over time): no filter or grouping makes the number mean anything;</li>
 *   <li>misleading: a {@code count_distinct} of the entity's single-column key beside its count (the same number
 *       twice, inviting a choice that does not exist); a {@code misleading} entry; or a {@code metrics} entry drafted
 *       without a filter it needs (settled statuses for money, no test rows, no soft-deleted rows: the entity's
 *       {@code every} list and the entry's {@code filters}) or without naming, in its description, a column the agent
 *       must group or filter by ({@code mentions}: the currency beside an amount, a status whose settled values are
 *       unknown), or with a filter the rule does not ask for (it drops rows that count);</li>
 *   <li>sensible: a {@code metrics} entry drafted with all of those;</li>
 *   <li>unjudged: anything the lists do not name (reported, so nobody can hide a draft by not listing it).</li>
 * </ul>
 * A filter is written {@code entity.column op value}, a list value comma-joined: {@code bookings.status in confirmed,completed}.
 */
record DraftVerdicts(String database, Map<String, List<String>> every, List<Entry> metrics, List<Entry> never,
                     List<Entry> misleading) {

    enum Verdict { SENSIBLE, MISLEADING, NONSENSICAL, UNJUDGED }

    record Entry(String entity, Aggregation agg, String column, String expression, String snapshot, List<String> filters,
                 List<String> mentions) {

        boolean matches(Metric m) {
            ExpectedMetrics.Expected e = new ExpectedMetrics.Expected(entity, agg, column, expression, snapshot, null);
            return e.matches(m);
        }
    }

    record Judged(Metric metric, Verdict verdict, String why) {
    }

    static DraftVerdicts load(String resource) throws IOException {
        try (InputStream in = DraftVerdicts.class.getResourceAsStream(resource)) {
            JsonNode root = new ObjectMapper(new YAMLFactory()).readTree(in);
            Map<String, List<String>> every = new LinkedHashMap<>();
            if (root.has("every")) {
                root.get("every").fields().forEachRemaining(f -> every.put(f.getKey(), strings(f.getValue())));
            }
            return new DraftVerdicts(root.get("database").asText(), every, entries(root.get("metrics")),
                    entries(root.get("never")), entries(root.get("misleading")));
        }
    }

    private static List<Entry> entries(JsonNode array) {
        List<Entry> out = new ArrayList<>();
        if (array != null) {
            for (JsonNode m : array) {
                out.add(new Entry(m.get("entity").asText(), Aggregation.fromWire(m.get("agg").asText()), text(m, "column"),
                        text(m, "expression"), text(m, "snapshot"), strings(m.get("filters")), strings(m.get("mentions"))));
            }
        }
        return out;
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        if (array != null) {
            array.forEach(n -> out.add(n.asText()));
        }
        return out;
    }

    private static String text(JsonNode node, String key) {
        return node.hasNonNull(key) ? node.get(key).asText() : null;
    }

    static String shown(Filter f) {
        String value = f.value() instanceof List<?> list ? list.stream().map(String::valueOf).collect(Collectors.joining(","))
                : f.value() == null ? "" : " " + f.value();
        return f.column() + " " + f.op().wireName() + (f.value() instanceof List<?> ? " " + value : value);
    }

    List<Judged> judge(SemanticModel model) {
        List<Judged> out = new ArrayList<>();
        for (Metric m : model.metrics()) {
            out.add(judge(model, m));
        }
        return out;
    }

    private Judged judge(SemanticModel model, Metric drafted) {
        // What the metric answers by default: its own filters and its entity's default segments.
        List<Filter> effective = new ArrayList<>(drafted.filters());
        model.entity(drafted.entity()).ifPresent(e -> e.defaultSegments().forEach(g -> effective.addAll(g.filters())));
        Metric m = new Metric(drafted.name(), drafted.description(), drafted.entity(), drafted.measure(), drafted.timeDimension(),
                drafted.timeGrains(), effective, drafted.origin(), drafted.kind());
        if (never.stream().anyMatch(e -> e.matches(m))) {
            return new Judged(m, Verdict.NONSENSICAL, "a never entry");
        }
        if (isKeyTwin(model, m)) {
            return new Judged(m, Verdict.MISLEADING, "count_distinct of the single-column key: the count again");
        }
        if (misleading.stream().anyMatch(e -> e.matches(m))) {
            return new Judged(m, Verdict.MISLEADING, "a misleading entry");
        }
        for (Entry e : metrics) {
            if (!e.matches(m)) {
                continue;
            }
            List<String> has = m.filters().stream().map(DraftVerdicts::shown).toList();
            List<String> wanted = new ArrayList<>(every.getOrDefault(m.entity(), List.of()));
            wanted.addAll(e.filters());
            List<String> lacking = new ArrayList<>();
            wanted.stream().filter(f -> !has.contains(f)).forEach(lacking::add);
            e.mentions().stream().filter(s -> m.description() == null || !m.description().contains(s))
                    .map(s -> "says " + s).forEach(lacking::add);
            List<String> extra = has.stream().filter(f -> !wanted.contains(f)).toList();   // drops rows that count
            if (!lacking.isEmpty() || !extra.isEmpty()) {
                return new Judged(m, Verdict.MISLEADING, (lacking.isEmpty() ? "" : "lacks " + String.join("; ", lacking))
                        + (extra.isEmpty() ? "" : (lacking.isEmpty() ? "" : "; ") + "filters too much: " + String.join("; ", extra)));
            }
            return new Judged(m, Verdict.SENSIBLE, "");
        }
        return new Judged(m, Verdict.UNJUDGED, "not listed");
    }

    private static boolean isKeyTwin(SemanticModel model, Metric m) {
        if (m.measure().agg() != Aggregation.COUNT_DISTINCT) {
            return false;
        }
        List<String> key = model.entity(m.entity()).map(Entity::identity).orElse(List.of());
        return key.size() == 1 && key.get(0).equals(m.measure().column());
    }

    /** The listed sensible metrics no draft matches: what the drafts miss (recall), not what they get wrong. */
    List<String> missing(SemanticModel model) {
        return metrics.stream().filter(e -> model.metrics().stream().noneMatch(e::matches))
                .map(e -> e.entity() + " " + e.agg().wireName() + " " + (e.column() != null ? e.column() : e.expression() != null
                        ? e.expression() : "*") + (e.snapshot() == null ? "" : " (" + e.snapshot() + ")")).toList();
    }

    static Map<Verdict, Long> counts(List<Judged> judged) {
        Map<Verdict, Long> out = new EnumMap<>(Verdict.class);
        for (Verdict v : Verdict.values()) {
            out.put(v, judged.stream().filter(j -> j.verdict() == v).count());
        }
        return out;
    }

    /** One line per draft (verdict, name, measure, filters, why) and a total line. */
    static String table(String database, List<Judged> judged) {
        StringBuilder s = new StringBuilder();
        for (Judged j : judged) {
            Metric m = j.metric();
            s.append(database).append('\t').append(j.verdict().name().toLowerCase()).append('\t').append(m.name()).append('\t')
                    .append(m.measure().agg().wireName()).append(' ')
                    .append(m.measure().column() != null ? m.measure().column() : m.measure().expression() != null
                            ? m.measure().expression() : "*")
                    .append(m.measure().nonAdditive() == null ? "" : " (" + ExpectedMetrics.snapshot(m.measure().nonAdditive()) + ")")
                    .append('\t').append(m.filters().stream().map(DraftVerdicts::shown).collect(Collectors.joining("; ")))
                    .append('\t').append(j.why()).append('\n');
        }
        return s.toString();
    }

    static String total(String database, List<Judged> judged) {
        Map<Verdict, Long> c = counts(judged);
        return String.format("%s\t%d drafts\tsensible %d\tmisleading %d\tnonsensical %d\tunjudged %d%n", database, judged.size(),
                c.get(Verdict.SENSIBLE), c.get(Verdict.MISLEADING), c.get(Verdict.NONSENSICAL), c.get(Verdict.UNJUDGED));
    }
}
