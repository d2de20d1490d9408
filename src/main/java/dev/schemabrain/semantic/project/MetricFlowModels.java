package dev.schemabrain.semantic.project;

import com.fasterxml.jackson.databind.JsonNode;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.error.SemanticProjectException;
import dev.schemabrain.semantic.model.Cardinality;
import dev.schemabrain.semantic.model.ColumnPair;
import dev.schemabrain.semantic.model.Entity;
import dev.schemabrain.semantic.model.Join;
import dev.schemabrain.semantic.model.Origin;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * MetricFlow's semantic models, each tied to the SchemaBrain entity of its dbt model: their dimensions, entities
 * and measures by name, the joins their foreign entities imply, and the resolution of the names a where filter uses.
 */
final class MetricFlowModels {

    static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    /** One semantic model over an imported entity. */
    record Semantic(String name, JsonNode node, Entity entity, Table table) {

        Optional<JsonNode> dimension(String name) {
            for (JsonNode d : node.path("dimensions")) {
                if (d.path("name").asText().equals(name)) {
                    return Optional.of(d);
                }
            }
            return Optional.empty();
        }

        Optional<JsonNode> entityNamed(String name) {
            for (JsonNode e : node.path("entities")) {
                if (e.path("name").asText().equals(name)) {
                    return Optional.of(e);
                }
            }
            return Optional.empty();
        }

        boolean identifiedBy(String entityName) {
            return entityNamed(entityName).map(e -> !e.path("type").asText().equals("foreign")).orElse(false);
        }
    }

    /** A measure and the semantic model it belongs to. */
    record Owned(JsonNode measure, Semantic owner) {
    }

    private final List<Semantic> models;
    private final Map<String, Owned> measures = new HashMap<>();

    MetricFlowModels(List<Semantic> models) {
        this.models = List.copyOf(models);
        for (Semantic s : models) {
            for (JsonNode m : s.node().path("measures")) {
                measures.putIfAbsent(m.path("name").asText(), new Owned(m, s));
            }
        }
    }

    Optional<Owned> measure(String name) {
        return Optional.ofNullable(measures.get(name));
    }

    List<Semantic> models() {
        return models;
    }

    /** The semantic model's primary entity, or null. */
    static JsonNode primary(JsonNode semanticModel) {
        for (JsonNode e : semanticModel.path("entities")) {
            if (e.path("type").asText().equals("primary")) {
                return e;
            }
        }
        return null;
    }

    /** An entity's or dimension's column: its {@code expr} when given, else its name. */
    static String expr(JsonNode element) {
        return element.hasNonNull("expr") ? element.path("expr").asText().strip() : element.path("name").asText();
    }

    /** The column {@code element} reads, as the table spells it; the reason when it is an expression or missing. */
    static String column(Table table, JsonNode element, String what) throws SemanticProjectException {
        String expr = expr(element);
        if (!IDENTIFIER.matcher(expr).matches()) {
            throw new SemanticProjectException(what + " " + element.path("name").asText() + " is the SQL expression '"
                    + expr + "', not a column");
        }
        return table.columns().stream().map(c -> c.name()).filter(c -> c.equalsIgnoreCase(expr)).findFirst()
                .orElseThrow(() -> new SemanticProjectException(what + " " + element.path("name").asText() + " reads "
                        + expr + ", which is not a column of " + table.name()));
    }

    /** The time column of a measure: its own agg_time_dimension, else its semantic model's default. */
    String timeColumn(Owned m) throws SemanticProjectException {
        String name = m.measure().path("agg_time_dimension").asText(null);
        if (name == null) {
            name = m.owner().node().path("defaults").path("agg_time_dimension").asText(null);
        }
        if (name == null) {
            return null;
        }
        String dimension = name;
        JsonNode d = m.owner().dimension(name).orElseThrow(() -> new SemanticProjectException("its agg_time_dimension "
                + dimension + " is not a dimension of semantic model " + m.owner().name()));
        return column(m.owner().table(), d, "time dimension");
    }

    /**
     * The many-to-one joins MetricFlow's entities imply: a foreign entity of one semantic model meets the primary (or
     * unique) entity of that name in another. A join {@code existing} already has between the same columns is not repeated.
     */
    List<Join> joins(List<Join> existing, List<String> skipped) {
        List<Join> out = new ArrayList<>();
        Set<String> names = new HashSet<>();
        existing.forEach(j -> names.add(j.name()));
        for (Semantic child : models) {
            for (JsonNode foreign : child.node().path("entities")) {
                if (!foreign.path("type").asText().equals("foreign")) {
                    continue;
                }
                String entityName = foreign.path("name").asText();
                for (Semantic parent : models) {
                    if (parent.entity().name().equals(child.entity().name()) || !parent.identifiedBy(entityName)) {
                        continue;
                    }
                    String from;
                    String to;
                    try {
                        from = column(child.table(), foreign, "entity");
                        to = column(parent.table(), parent.entityNamed(entityName).orElseThrow(), "entity");
                    } catch (SemanticProjectException e) {
                        skipped.add("join " + child.name() + " -> " + parent.name() + ": " + e.getMessage());
                        continue;
                    }
                    ColumnPair on = new ColumnPair(from, to);
                    boolean known = false;
                    for (Join j : existing) {
                        known |= j.sourceEntity().equals(child.entity().name()) && j.targetEntity().equals(parent.entity().name())
                                && j.on().size() == 1 && sameColumns(j.on().get(0), on);
                    }
                    for (Join j : out) {
                        known |= j.sourceEntity().equals(child.entity().name()) && j.targetEntity().equals(parent.entity().name())
                                && sameColumns(j.on().get(0), on);
                    }
                    if (known) {
                        continue;
                    }
                    String name = child.entity().name() + "_" + parent.entity().name();
                    if (!names.add(name)) {
                        name = name + "_by_" + from.toLowerCase(Locale.ROOT);
                        names.add(name);
                    }
                    out.add(new Join(name, child.entity().name(), parent.entity().name(), List.of(on), null,
                            Cardinality.MANY_TO_ONE, Origin.DBT));
                }
            }
        }
        return out;
    }

    private static boolean sameColumns(ColumnPair a, ColumnPair b) {
        return a.source().equalsIgnoreCase(b.source()) && a.target().equalsIgnoreCase(b.target());
    }

    /** The names a where filter uses, seen from a metric over {@code home}, whose time axis is {@code timeColumn}. */
    WhereFilters.Resolver resolver(Semantic home, String timeColumn) {
        return new WhereFilters.Resolver() {
            @Override
            public WhereFilters.Column dimension(String name) throws SemanticProjectException {
                if (name.equals("metric_time")) {
                    if (timeColumn == null) {
                        throw new SemanticProjectException("its filter reads metric_time, but its measure has no agg_time_dimension");
                    }
                    return column(home, timeColumn, true);
                }
                String[] path = name.split("__");
                if (path.length > 2) {
                    throw new SemanticProjectException("its filter reads " + name + " along a multi-hop entity path, which"
                            + " SchemaBrain does not pin (it finds the join path itself)");
                }
                String dim = path[path.length - 1];
                List<Semantic> found = new ArrayList<>();
                for (Semantic s : path.length == 1 ? List.of(home) : models) {
                    if (s.dimension(dim).isPresent() && (path.length == 1 || s.identifiedBy(path[0]))) {
                        found.add(s);
                    }
                }
                if (found.size() != 1) {
                    throw new SemanticProjectException("its filter reads the dimension " + name + ", which "
                            + (found.isEmpty() ? "no imported semantic model has" : found.size() + " semantic models have"));
                }
                Semantic s = found.get(0);
                JsonNode d = s.dimension(dim).orElseThrow();
                String col;
                try {
                    col = MetricFlowModels.column(s.table(), d, "dimension");
                } catch (SemanticProjectException e) {
                    throw new SemanticProjectException("its filter reads " + name + ", but the " + e.getMessage());
                }
                return column(s, col, d.path("type").asText().equalsIgnoreCase("time"));
            }

            @Override
            public WhereFilters.Column entity(String name) throws SemanticProjectException {
                JsonNode e = home.entityNamed(name).orElseThrow(() -> new SemanticProjectException("its filter reads the entity "
                        + name + ", which is not an entity of semantic model " + home.name()));
                try {
                    return column(home, MetricFlowModels.column(home.table(), e, "entity"), false);
                } catch (SemanticProjectException x) {
                    throw new SemanticProjectException("its filter reads " + name + ", but the " + x.getMessage());
                }
            }
        };
    }

    private static WhereFilters.Column column(Semantic s, String column, boolean time) {
        boolean dateOnly = s.table().column(column).map(c -> c.dataType().strip().equalsIgnoreCase("date")).orElse(false);
        return new WhereFilters.Column(s.entity().name() + "." + column, time, dateOnly);
    }
}
