package dev.schemabrain.semantic.project;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.error.SemanticProjectException;
import dev.schemabrain.catalog.InferenceMethod;
import dev.schemabrain.catalog.ValidationState;
import dev.schemabrain.demo.DemoDatabase;
import dev.schemabrain.index.IndexListener;
import dev.schemabrain.index.Indexer;
import dev.schemabrain.semantic.model.Aggregation;
import dev.schemabrain.semantic.model.Cardinality;
import dev.schemabrain.semantic.model.Entity;
import dev.schemabrain.semantic.model.Join;
import dev.schemabrain.semantic.model.Metric;
import dev.schemabrain.semantic.model.Origin;
import dev.schemabrain.semantic.model.SemanticModel;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.source.Sources;
import dev.schemabrain.store.SemanticLayer;
import dev.schemabrain.store.SqliteStore;
import dev.schemabrain.store.StoreSnapshot;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The semantic layer in the store, the YAML project and the dbt import, on the demo database (a real SQLite file). */
class SemanticProjectTest {

    @TempDir
    Path dir;
    Path store;
    SourceUrl url;

    @BeforeEach
    void index() throws Exception {
        Path demo = DemoDatabase.ensure(dir.resolve("demo.sqlite"));
        url = SourceUrl.parse("sqlite:" + demo);
        store = dir.resolve("store.db");
        reindex();
    }

    private void reindex() throws Exception {
        try (SchemaSource source = Sources.open(url)) {
            new Indexer().run(url, source, store, false, IndexListener.SILENT);
        }
    }

    private SemanticModel stored() throws Exception {
        try (SqliteStore s = SqliteStore.open(store)) {
            return s.read(SemanticLayer::stored);
        }
    }

    private void replace(SemanticModel model) throws Exception {
        try (SqliteStore s = SqliteStore.open(store)) {
            s.write(c -> {
                SemanticLayer.replace(c, model);
                return null;
            });
        }
    }

    private SemanticProject.Loaded write(String relative, String yaml) throws Exception {
        Path file = dir.resolve("project").resolve(relative);
        Files.createDirectories(file.getParent());
        Files.writeString(file, yaml);
        return SemanticProject.read(dir.resolve("project"));
    }

    @Test
    void indexingStoresTheDraftsAndARoundTripThroughYamlKeepsThem() throws Exception {
        SemanticModel drafts = stored();
        assertEquals(11, drafts.entities().size(), "an entity per table with a key, the junction excluded");
        assertTrue(drafts.join("users_organizations").isPresent());
        assertEquals(Origin.FOREIGN_KEY, drafts.join("users_organizations").orElseThrow().origin());
        assertEquals(Origin.HEURISTIC_DRAFT, drafts.metric("invoices_count").orElseThrow().origin());

        Path out = dir.resolve("exported");
        List<Path> files = SemanticProject.write(out, drafts);
        assertEquals(drafts.entities().size() + drafts.joins().size() + drafts.metrics().size(), files.size());
        SemanticProject.Loaded back = SemanticProject.read(out);
        // Read back, every object is the same apart from its origin (files are the operator's).
        assertEquals(SemanticLayer.encode(withOrigin(drafts)).stream().map(o -> o.definition().replaceAll("\"origin\":\"[a-z_]+\"", "")).toList(),
                SemanticLayer.encode(back.model()).stream().map(o -> o.definition().replaceAll("\"origin\":\"[a-z_]+\"", "")).toList());
        Join bridge = back.model().joins().stream().filter(j -> j.bridge() != null).findFirst().orElseThrow();
        assertEquals(Cardinality.MANY_TO_MANY, bridge.cardinality());
        assertEquals("main.team_members", bridge.bridge().table().toString());
    }

    private static SemanticModel withOrigin(SemanticModel m) {
        return new SemanticModel(
                m.entities().stream().map(e -> new Entity(e.name(), e.description(), e.table(),
                        e.identity(), e.group(), Origin.AUTHORED)).toList(),
                m.joins().stream().map(j -> new Join(j.name(), j.sourceEntity(), j.targetEntity(), j.on(), j.bridge(),
                        j.cardinality(), Origin.AUTHORED)).toList(),
                m.metrics().stream().map(x -> new Metric(x.name(), x.description(), x.entity(), x.measure(), x.timeDimension(),
                        x.timeGrains(), x.filters(), Origin.AUTHORED)).toList());
    }

    @Test
    void appliedObjectsReplaceDraftsAndSurviveReindexing() throws Exception {
        SemanticProject.Loaded project = write("metrics/invoices_count.yaml", """
                version: 1
                name: invoices_count
                description: Invoices that were not voided
                entity: invoices
                measure: {agg: count, column: id}
                time_dimension: invoices.issued_at
                time_grains: [month, year]
                filters: [{column: invoices.status, op: not_in, value: [void]}]
                """);
        write("metrics/revenue.yaml", """
                version: 1
                name: revenue
                entity: invoices
                measure: {agg: sum, expression: "total_cents - tax_cents"}
                """);
        project = SemanticProject.read(dir.resolve("project"));
        SemanticModel before = stored();
        assertEquals(2, SemanticProject.diff(before, project.model()).size());
        SemanticModel merged = SemanticProject.merge(before, project.model());
        assertEquals(List.of(), SemanticProject.check(merged, catalog(), project));
        replace(merged);

        reindex();
        SemanticModel after = stored();
        Metric count = after.metric("invoices_count").orElseThrow();
        assertEquals(new Origin(InferenceMethod.MANUALLY_AUTHORED, ValidationState.APPLIED), count.origin());
        assertEquals("Invoices that were not voided", count.description());
        assertEquals(1, count.filters().size());
        assertEquals(Aggregation.SUM, after.metric("revenue").orElseThrow().measure().agg());
        assertEquals(List.of(), SemanticProject.diff(after, project.model()), "in sync after a re-index");
        assertTrue(after.metric("users_count").isPresent(), "drafts of other names stay");

        // A file removed from the project is drift, and applying removes the object.
        Files.delete(dir.resolve("project/metrics/revenue.yaml"));
        SemanticProject.Loaded smaller = SemanticProject.read(dir.resolve("project"));
        assertEquals("- metric revenue", SemanticProject.diff(after, smaller.model()).get(0).toString());
        assertFalse(SemanticProject.merge(after, smaller.model()).metric("revenue").isPresent());
    }

    private Catalog catalog() throws Exception {
        try (SqliteStore s = SqliteStore.open(store)) {
            return s.read(c -> StoreSnapshot.read(c).catalog());
        }
    }

    // How each file's shape is checked, with the messages, is SemanticFilesTest.
    @Test
    void checkingAgainstTheCatalogNamesTheFileOfEveryProblem() throws Exception {
        SemanticProject.Loaded project = write("metrics/m.yaml", """
                version: 1
                name: m
                entity: invoices
                measure: {agg: sum, column: amount}
                time_dimension: invoices.status
                """);
        write("joins/k.yaml", """
                version: 1
                name: k
                source_entity: invoices
                target_entity: nobody
                on: [{source: id, target: id}]
                cardinality: many_to_one
                """);
        project = SemanticProject.read(dir.resolve("project"));
        List<String> problems = SemanticProject.check(SemanticProject.merge(stored(), project.model()), catalog(), project);
        assertEquals(List.of(
                "joins/k.yaml: target_entity 'nobody' is not an entity; define it or fix the name.",
                "metrics/m.yaml: measure column amount is not a column of main.invoices.",
                "metrics/m.yaml: time_dimension invoices.status is not a date or time column."), problems);
    }

    @Test
    void dbtManifestGivesEntitiesJoinsAndSimpleMetrics() throws Exception {
        Path manifest = Path.of(getClass().getResource("/dbt/demo-manifest.json").toURI());
        DbtManifest.Result result = DbtManifest.read(manifest, catalog());
        SemanticModel m = result.model();
        assertEquals(List.of("customers", "invoices", "subscriptions"), m.entities().stream().map(e -> e.name()).toList());
        assertEquals("main.organizations", m.entity("customers").orElseThrow().table().toString(), "the model's alias is its relation");
        assertEquals(List.of("id"), m.entity("customers").orElseThrow().identity(), "unique + not_null tests make the key");
        assertEquals(Origin.DBT, m.entity("invoices").orElseThrow().origin());
        assertEquals(List.of("invoices_subscriptions", "subscriptions_customers"), m.joins().stream().map(Join::name).toList());
        Join j = m.join("subscriptions_customers").orElseThrow();
        assertEquals("organization_id", j.on().get(0).source());
        assertEquals(Cardinality.MANY_TO_ONE, j.cardinality());
        Metric revenue = m.metric("invoiced_revenue").orElseThrow();
        assertEquals("amount_due_cents", revenue.measure().column());
        assertEquals("invoices.issued_at", revenue.timeDimension(), "the semantic model's default time dimension");
        assertEquals(Aggregation.COUNT, m.metric("invoice_count").orElseThrow().measure().agg());
        assertEquals(2, m.metrics().size());
        assertTrue(result.skipped().stream().anyMatch(s -> s.startsWith("model stg_events")), result.skipped().toString());
        assertTrue(result.skipped().stream().anyMatch(s -> s.startsWith("metric median_invoice")), result.skipped().toString());
        assertTrue(result.skipped().stream().anyMatch(s -> s.startsWith("metric paid_ratio")), result.skipped().toString());

        SemanticProjectException notDbt = assertThrows(SemanticProjectException.class,
                () -> DbtManifest.read(Path.of(getClass().getResource("/dbt/demo-manifest.json").toURI()).resolveSibling("missing.json"), catalog()));
        assertTrue(notDbt.getMessage().startsWith("There is no file"), notDbt.getMessage());
    }
}
