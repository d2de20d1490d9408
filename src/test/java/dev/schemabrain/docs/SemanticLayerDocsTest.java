package dev.schemabrain.docs;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.demo.DemoDatabase;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.execute.BoundQuery;
import dev.schemabrain.execute.ExecutorSettings;
import dev.schemabrain.execute.QueryExecutor;
import dev.schemabrain.semantic.SemanticInference;
import dev.schemabrain.semantic.compile.CompiledMetric;
import dev.schemabrain.semantic.compile.MetricCompiler;
import dev.schemabrain.semantic.compile.MetricRequest;
import dev.schemabrain.semantic.model.Metric;
import dev.schemabrain.semantic.model.MetricKind;
import dev.schemabrain.semantic.model.SemanticModel;
import dev.schemabrain.semantic.project.SemanticProject;
import dev.schemabrain.engine.IntrospectionOptions;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.source.Sources;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The worked examples of docs/semantic-layer.md that say they run on the demo database do: each YAML block headed
 * by a plain {@code # metrics/NAME.yaml} or {@code # entities/NAME.yaml} is applied over the demo's drafts as
 * `apply` would, every metric compiles and runs, and the ratio equals hand-written SQL.
 */
class SemanticLayerDocsTest {

    private static final Pattern BLOCK = Pattern.compile("```yaml\\n# ((?:metrics|entities)/[a-z_]+\\.yaml)\\n(.*?)```", Pattern.DOTALL);

    @TempDir
    Path dir;

    @Test
    void theDemoExamplesApplyCompileAndRun() throws Exception {
        String doc = Files.readString(Path.of("docs", "semantic-layer.md"));
        Path project = dir.resolve("project");
        List<String> names = new ArrayList<>();
        Matcher m = BLOCK.matcher(doc);
        while (m.find()) {
            Path file = project.resolve(m.group(1));
            Files.createDirectories(file.getParent());
            Files.writeString(file, m.group(2));
            names.add(m.group(1));
        }
        assertTrue(names.size() >= 8, "the worked examples: " + names);
        Path demo = DemoDatabase.ensure(dir.resolve("demo.sqlite"));
        String url = "sqlite:" + demo;
        Catalog catalog;
        try (SchemaSource s = Sources.open(SourceUrl.parse(url))) {
            catalog = s.introspect(IntrospectionOptions.withoutSamples());
        }
        SemanticModel drafts = new SemanticInference(n -> null).infer(catalog);
        SemanticProject.Loaded loaded = SemanticProject.read(project);
        SemanticModel model = SemanticProject.merge(drafts, loaded.model());
        assertEquals(List.of(), SemanticProject.check(model, catalog, loaded), "the examples apply to the demo");
        MetricCompiler compiler = new MetricCompiler(catalog, model);
        try (QueryExecutor ex = new QueryExecutor(SourceUrl.parse(url), ExecutorSettings.defaults())) {
            for (Metric metric : loaded.model().metrics()) {
                String grain = metric.kind() instanceof MetricKind.Cumulative c && c.windowGrain() != null ? c.windowGrain().wireName()
                        : "month";
                CompiledMetric compiled = compiler.compile(new MetricRequest(metric.name(), List.of(), List.of(), grain, null,
                        List.of(), List.of(), 1000), ex.dialect());
                assertFalse(ex.execute(new BoundQuery(compiled.sql(), compiled.params()), 1000).rows().isEmpty(), metric.name());
            }
            CompiledMetric rate = compiler.compile(new MetricRequest("payment_success_rate", List.of(), List.of(), null, null,
                    List.of(), List.of(), 10), ex.dialect());
            Object got = ex.execute(new BoundQuery(rate.sql(), rate.params()), 10).rows().get(0).get(0);
            Object hand = ex.execute(new BoundQuery("SELECT SUM(CASE WHEN status = 'succeeded' THEN 1 ELSE 0 END) * 1.0 / COUNT(*)"
                    + " FROM payments", List.of()), 10).rows().get(0).get(0);
            assertEquals(new BigDecimal(hand.toString()).setScale(9, RoundingMode.HALF_UP),
                    new BigDecimal(got.toString()).setScale(9, RoundingMode.HALF_UP));
        }
    }
}
