package dev.schemabrain.semantic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.demo.DemoDatabase;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.semantic.model.Aggregation;
import dev.schemabrain.semantic.model.Metric;
import dev.schemabrain.semantic.model.NonAdditive;
import dev.schemabrain.semantic.model.SemanticModel;
import dev.schemabrain.engine.IntrospectionOptions;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.source.Sources;
import dev.schemabrain.testing.TestPostgres;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The metrics an analyst would define per sample database (src/test/resources/expected-metrics/*.yaml) and how
 * many of them the drafts produce, matched name-independently: the same entity, aggregation and measure.
 */
record ExpectedMetrics(String database, List<Expected> metrics, List<Expected> never) {

    /** The four sample databases, in report order. */
    static final List<String> DATABASES = List.of("demo", "chinook", "northwind", "pagila");

    /**
     * One metric of the list: a column, an expression, or neither (a count matches any count of the entity); a
     * semi-additive one names its snapshot ({@code balance_date last per account_id}), and only a draft with that
     * snapshot matches it, as only a draft without one matches an entry without.
     */
    record Expected(String entity, Aggregation agg, String column, String expression, String snapshot, String why) {

        Expected(String entity, Aggregation agg, String column, String expression, String why) {
            this(entity, agg, column, expression, null, why);
        }

        boolean matches(Metric m) {
            if (!m.entity().equals(entity) || m.measure().agg() != agg
                    || !Objects.equals(snapshot, ExpectedMetrics.snapshot(m.measure().nonAdditive()))) {
                return false;
            }
            if (agg == Aggregation.COUNT) {
                return true;   // a count of rows and a count of the (non-null) identity are the same number
            }
            if (column != null) {
                return column.equalsIgnoreCase(m.measure().column());
            }
            return m.measure().expression() != null && tokens(expression).equals(tokens(m.measure().expression()));
        }

        String shown() {
            return entity + " " + agg.wireName() + (column != null ? " " + column : expression != null ? " " + expression : "")
                    + (snapshot == null ? "" : " (" + snapshot + ")");
        }
    }

    /** A snapshot as the lists write it: its column, last or first, and per which columns. */
    static String snapshot(NonAdditive n) {
        return n == null ? null : n.column() + " " + n.window().wireName()
                + (n.groupings().isEmpty() ? "" : " per " + String.join(",", n.groupings()));
    }

    /** The tokens of an expression, sorted: the same factors in another order match. */
    static List<String> tokens(String expression) {
        List<String> out = new ArrayList<>();
        var m = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*|\\d+(\\.\\d+)?|[-+*/()]").matcher(expression);
        while (m.find()) {
            out.add(m.group().toLowerCase(Locale.ROOT));
        }
        out.sort(null);
        return out;
    }

    static ExpectedMetrics load(String database) throws IOException {
        try (InputStream in = ExpectedMetrics.class.getResourceAsStream("/expected-metrics/" + database + ".yaml")) {
            JsonNode root = new ObjectMapper(new YAMLFactory()).readTree(in);
            return new ExpectedMetrics(root.get("database").asText(), list(root.get("metrics")), list(root.get("never")));
        }
    }

    private static List<Expected> list(JsonNode array) {
        List<Expected> out = new ArrayList<>();
        if (array != null) {
            for (JsonNode m : array) {
                out.add(new Expected(m.get("entity").asText(), Aggregation.fromWire(m.get("agg").asText()),
                        text(m, "column"), text(m, "expression"), text(m, "snapshot"), text(m, "why")));
            }
        }
        return out;
    }

    private static String text(JsonNode node, String key) {
        return node.hasNonNull(key) ? node.get(key).asText() : null;
    }

    /** The expected metrics no draft matches. */
    List<Expected> missing(SemanticModel model) {
        return metrics.stream().filter(e -> model.metrics().stream().noneMatch(e::matches)).toList();
    }

    /** The drafts an analyst would reject that the model holds. */
    List<Expected> rejected(SemanticModel model) {
        return never.stream().filter(e -> model.metrics().stream().anyMatch(e::matches)).toList();
    }

    double recall(SemanticModel model) {
        return 1.0 - (double) missing(model).size() / metrics.size();
    }

    /** The source URL each database is read from: the demo as a real SQLite file, the others on the embedded PostgreSQL. */
    static String url(String database, Path dir) {
        return switch (database) {
            case "demo" -> "sqlite:" + DemoDatabase.ensure(dir.resolve("demo.sqlite"));
            case "chinook" -> {
                TestPostgres.loadSample("chinook", "chinook.sql");
                yield TestPostgres.url("chinook");
            }
            case "northwind" -> {
                TestPostgres.loadSample("northwind", "northwind.sql");
                yield TestPostgres.url("northwind");
            }
            case "pagila" -> {
                TestPostgres.loadSample("pagila", "pagila-pg15.sql");
                yield TestPostgres.url("pagila");
            }
            default -> throw new IllegalArgumentException(database);
        };
    }

    /** The catalog as an index run reads it (with sample values). */
    static Catalog catalog(String url) throws Exception {
        try (SchemaSource s = Sources.open(SourceUrl.parse(url))) {
            return s.introspect(IntrospectionOptions.fresh());
        }
    }
}
