package dev.schemabrain.semantic.project;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schemabrain.catalog.InferenceMethod;
import dev.schemabrain.catalog.ValidationState;
import dev.schemabrain.demo.DemoDatabase;
import dev.schemabrain.mcp.envelope.Confidence;
import dev.schemabrain.semantic.model.Entity;
import dev.schemabrain.semantic.model.Join;
import dev.schemabrain.semantic.model.Metric;
import dev.schemabrain.semantic.model.MetricReview;
import dev.schemabrain.semantic.model.Origin;
import dev.schemabrain.semantic.model.SemanticModel;
import dev.schemabrain.store.SemanticLayer;
import dev.schemabrain.store.Store;
import dev.schemabrain.store.StoreSnapshot;
import dev.schemabrain.store.Stores;
import dev.schemabrain.testing.InProcessCli;
import dev.schemabrain.testing.TestPostgres;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * export → apply keeps every draft the operator left as it is (issue 46): only what they changed or added becomes
 * manually authored, only what they confirmed becomes confirmed, and each of those records who reviewed it and when.
 * The demo database (a real SQLite file) is the source; the store is a SQLite file or a PostgreSQL schema.
 */
class SemanticReviewTest {

    private static final AtomicInteger SCHEMAS = new AtomicInteger();

    @TempDir
    Path dir;
    private String store;
    private Path project;

    private void indexAndExport(String kind) {
        store = kind.equals("sqlite") ? dir.resolve("store.db").toString()
                : TestPostgres.url("postgres") + "?schema=sb_review_" + ProcessHandle.current().pid() + "_"
                + SCHEMAS.incrementAndGet();
        ok("index", "--source", "sqlite:" + DemoDatabase.ensure(dir.resolve("demo.sqlite")));
        project = dir.resolve("project");
        ok("export", project.toString());
    }

    private InProcessCli.Result cli(String... args) {
        String[] all = new String[args.length + 2];
        all[0] = "--store";
        all[1] = store;
        System.arraycopy(args, 0, all, 2, args.length);
        return InProcessCli.run(all);
    }

    private String ok(String... args) {
        InProcessCli.Result r = cli(args);
        assertEquals(0, r.exitCode(), () -> String.join(" ", args) + ": " + r.stdout() + r.stderr());
        return r.stdout();
    }

    private SemanticModel stored() throws Exception {
        try (Store s = Stores.open(Stores.location(store, null, null, Map.of()))) {
            return s.read(SemanticLayer::stored);
        }
    }

    /** Every object's origin, by kind and name. */
    private static Map<String, Origin> origins(SemanticModel m) {
        Map<String, Origin> out = new TreeMap<>();
        m.entities().forEach(e -> out.put("entity " + e.name(), e.origin()));
        m.joins().forEach(j -> out.put("join " + j.name(), j.origin()));
        m.metrics().forEach(x -> out.put("metric " + x.name(), x.origin()));
        return out;
    }

    private static Confidence confidence(Metric m) {
        return Confidence.derive(m.origin().state(), m.origin().method());
    }

    private void edit(String file, String from, String to) throws Exception {
        Path p = project.resolve(file);
        String text = Files.readString(p);
        assertTrue(text.contains(from), text);
        Files.writeString(p, text.replace(from, to));
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgresql"})
    void anUntouchedExportAppliedBackChangesNoOrigin(String kind) throws Exception {
        indexAndExport(kind);
        SemanticModel before = stored();
        assertEquals(Origin.HEURISTIC_DRAFT, before.metric("invoices_count").orElseThrow().origin());
        assertTrue(before.joins().stream().anyMatch(j -> j.origin().equals(Origin.FOREIGN_KEY)), "foreign-key joins too");
        assertTrue(Files.readString(project.resolve("metrics/invoices_count.yaml")).contains("validation_state: draft"));

        assertTrue(ok("diff", project.toString()).startsWith("In sync"), "a project left as exported is no drift");
        String applied = ok("apply", project.toString(), "--reviewer", "alice");
        assertTrue(applied.contains("(0 added, 0 changed, 0 removed)"), applied);

        SemanticModel after = stored();
        assertEquals(origins(before), origins(after));
        assertEquals(before, after, "every definition as it was");
        assertTrue(after.metrics().stream().allMatch(m -> after.review(m.name()).isEmpty()), "nobody reviewed a draft");
        assertEquals(Confidence.LOW, confidence(after.metric("invoices_count").orElseThrow()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgresql"})
    void anEditedMetricAloneBecomesManuallyAuthoredAndSaysWhoReviewedIt(String kind) throws Exception {
        indexAndExport(kind);
        Map<String, Origin> before = origins(stored());
        Path file = project.resolve("metrics/invoices_count.yaml");
        var tree = (ObjectNode) SemanticFileReader.YAML.readTree(file.toFile());
        tree.put("description", "Every invoice issued, voided ones included");
        Files.writeString(file, SemanticFileReader.YAML.writeValueAsString(tree));

        InProcessCli.Result drift = cli("diff", project.toString());
        assertEquals(1, drift.exitCode(), drift.stderr());
        assertEquals("+ metric invoices_count", drift.stdout().lines().findFirst().orElseThrow(), "only the edited metric");
        Instant start = Instant.now().minusSeconds(1);
        ok("apply", project.toString(), "--reviewer", "alice");

        SemanticModel after = stored();
        Metric edited = after.metric("invoices_count").orElseThrow();
        assertEquals(Origin.AUTHORED, edited.origin());
        assertEquals("Every invoice issued, voided ones included", edited.description());
        assertEquals(Confidence.HIGH, confidence(edited));
        Map<String, Origin> expected = new TreeMap<>(before);
        expected.put("metric invoices_count", Origin.AUTHORED);
        assertEquals(expected, origins(after), "every other object keeps its origin");
        assertTrue(after.metrics().stream().filter(m -> !m.name().equals("invoices_count"))
                .allMatch(m -> m.origin().inferred() && confidence(m) != Confidence.HIGH), "the untouched drafts stay drafts");
        assertEquals(Confidence.LOW, confidence(after.metric("users_count").orElseThrow()));

        MetricReview review = after.review("invoices_count").orElseThrow();
        assertEquals("alice", review.by());
        Instant at = Instant.parse(review.at());
        assertFalse(at.isBefore(start) || at.isAfter(Instant.now()), review.at());
        assertTrue(after.review("users_count").isEmpty());

        // Applied again unchanged by someone else: nothing changes, the review stays alice's.
        assertTrue(ok("diff", project.toString()).startsWith("In sync"));
        ok("apply", project.toString(), "--reviewer", "bob");
        assertEquals(review, stored().review("invoices_count").orElseThrow());
        // What the server loads carries the review too.
        try (Store s = Stores.open(Stores.location(store, null, null, Map.of()))) {
            assertEquals(review, s.read(c -> SemanticLayer.load(c, StoreSnapshot.read(c).catalog(),
                    t -> null)).review("invoices_count").orElseThrow());
        }
    }

    /** Hostile: a file that claims to be the heuristic draft is not believed when its definition is not the draft's. */
    @Test
    void aFileClaimingTheDraftOriginOverAnotherDefinitionIsManuallyAuthored() throws Exception {
        indexAndExport("sqlite");
        String file = Files.readString(project.resolve("metrics/invoices_count.yaml"));
        assertTrue(file.contains("origin: heuristic\nvalidation_state: draft\n"), file);
        edit("metrics/invoices_count.yaml", "name: invoices_count\n",
                "name: invoices_count\nfilters: [{column: invoices.status, op: ne, value: void}]\n");
        Files.writeString(project.resolve("metrics/revenue.yaml"), """
                version: 1
                name: revenue
                entity: invoices
                measure: {agg: sum, column: total_cents}
                origin: heuristic
                validation_state: draft
                """);
        ok("apply", project.toString(), "--reviewer", "mallory");

        SemanticModel after = stored();
        assertEquals(Origin.AUTHORED, after.metric("invoices_count").orElseThrow().origin());
        assertEquals(Origin.AUTHORED, after.metric("revenue").orElseThrow().origin(), "a new object is the operator's");
        assertEquals("mallory", after.review("revenue").orElseThrow().by());
    }

    @Test
    void aConfirmedDraftKeepsItsMethodAndLeavesWithItsFile() throws Exception {
        indexAndExport("sqlite");
        Join fk = stored().joins().stream().filter(j -> j.origin().equals(Origin.FOREIGN_KEY)).findFirst().orElseThrow();
        edit("metrics/users_count.yaml", "validation_state: draft", "validation_state: confirmed");
        edit("joins/" + fk.name() + ".yaml", "validation_state: applied", "validation_state: confirmed");
        String diff = cli("diff", project.toString()).stdout();
        assertTrue(diff.contains("+ metric users_count") && diff.contains("+ join " + fk.name()), diff);
        ok("apply", project.toString(), "--reviewer", "alice");

        SemanticModel after = stored();
        Metric users = after.metric("users_count").orElseThrow();
        assertEquals(new Origin(InferenceMethod.HEURISTIC, ValidationState.CONFIRMED), users.origin());
        assertEquals(Confidence.HIGH, confidence(users));
        assertEquals("alice", after.review("users_count").orElseThrow().by());
        assertEquals(new Origin(InferenceMethod.FK_CONSTRAINT, ValidationState.CONFIRMED),
                after.join(fk.name()).orElseThrow().origin());
        Entity users2 = after.entity("users").orElseThrow();
        assertTrue(users2.origin().inferred(), "its entity was not confirmed");

        // A re-index leaves the confirmed draft alone; deleting its file withdraws the confirmation.
        ok("index", "--source", "sqlite:" + dir.resolve("demo.sqlite"));
        assertEquals(users.origin(), stored().metric("users_count").orElseThrow().origin());
        Files.delete(project.resolve("metrics/users_count.yaml"));
        assertTrue(cli("diff", project.toString()).stdout().contains("- metric users_count"));
        ok("apply", project.toString());
        ok("index", "--source", "sqlite:" + dir.resolve("demo.sqlite"));
        assertEquals(Origin.HEURISTIC_DRAFT, stored().metric("users_count").orElseThrow().origin(), "drafted again");
    }

    @Test
    void aRejectedMetricFileKeepsTheMetricRejectedThroughApplyAndIndex() throws Exception {
        indexAndExport("sqlite");
        edit("metrics/users_count.yaml", "validation_state: draft", "validation_state: rejected");
        ok("apply", project.toString(), "--reviewer", "carol");
        assertEquals(new Origin(InferenceMethod.HEURISTIC, ValidationState.REJECTED), stored().metric("users_count")
                .orElseThrow().origin());
        assertEquals("carol", stored().review("users_count").orElseThrow().by());
        assertFalse(cli("diff", project.toString()).stdout().contains("users_count"), "in sync");
        ok("index", "--source", "sqlite:" + dir.resolve("demo.sqlite"));
        assertEquals(ValidationState.REJECTED, stored().metric("users_count").orElseThrow().origin().state(),
                "not drafted again");

        edit("entities/users.yaml", "validation_state: draft", "validation_state: rejected");
        InProcessCli.Result r = cli("apply", project.toString());
        assertEquals(2, r.exitCode(), r.stdout() + r.stderr());
        assertTrue(r.stderr().contains("use one of draft, applied, confirmed."), "only a metric can be rejected: " + r.stderr());
    }

    @Test
    void anUnknownValidationStateIsOneSentence() throws Exception {
        indexAndExport("sqlite");
        edit("metrics/users_count.yaml", "validation_state: draft", "validation_state: reviewed");
        InProcessCli.Result r = cli("apply", project.toString());
        assertEquals(2, r.exitCode(), r.stdout() + r.stderr());
        assertTrue(r.stderr().strip().matches("schemabrain: metrics/users_count\\.yaml:\\d+: 'validation_state' is 'reviewed';"
                + " use one of draft, applied, confirmed, rejected\\."), r.stderr());
    }

    @Test
    void theReviewerDefaultsToTheLoginName() throws Exception {
        indexAndExport("sqlite");
        edit("metrics/users_count.yaml", "validation_state: draft", "validation_state: confirmed");
        Instant before = Instant.now().minus(Duration.ofSeconds(1));
        ok("apply", project.toString());
        MetricReview review = stored().review("users_count").orElseThrow();
        assertEquals(System.getProperty("user.name"), review.by());
        assertFalse(Instant.parse(review.at()).isBefore(before), review.at());
    }
}
