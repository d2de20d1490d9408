package dev.schemabrain.semantic;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.InferenceMethod;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.ValidationState;
import dev.schemabrain.demo.DemoDatabase;
import dev.schemabrain.semantic.model.Aggregation;
import dev.schemabrain.semantic.model.Cardinality;
import dev.schemabrain.semantic.model.ColumnPair;
import dev.schemabrain.semantic.model.Join;
import dev.schemabrain.semantic.model.Metric;
import dev.schemabrain.semantic.model.Origin;
import dev.schemabrain.semantic.model.SemanticModel;
import dev.schemabrain.engine.IntrospectionOptions;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.semantic.project.Format;
import dev.schemabrain.semantic.project.SemanticCodec;
import dev.schemabrain.source.Sources;
import dev.schemabrain.store.SemanticLayer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Drafts inferred from the demo database (a real SQLite file). */
class SemanticInferenceTest {

    @TempDir
    static Path dir;
    static SemanticModel model;

    @BeforeAll
    static void infer() throws Exception {
        Path file = DemoDatabase.ensure(dir.resolve("demo.sqlite"));
        Catalog catalog;
        try (SchemaSource source = Sources.open(SourceUrl.parse("sqlite:" + file))) {
            catalog = source.introspect(IntrospectionOptions.withoutSamples());
        }
        model = new SemanticInference(name -> "about " + name.table()).infer(catalog);
    }

    @Test
    void anEntityPerTableWithAPrimaryKeyButNotForJunctions() {
        assertTrue(model.entity("invoices").isPresent());
        assertEquals(List.of("id"), model.entity("invoices").orElseThrow().identity());
        assertEquals("about invoices", model.entity("invoices").orElseThrow().description());
        assertFalse(model.entity("team_members").isPresent(), "a junction table is a bridge, not an entity");
        assertEquals(InferenceMethod.HEURISTIC, model.entity("users").orElseThrow().origin().method());
        assertEquals(ValidationState.DRAFT, model.entity("users").orElseThrow().origin().state());
    }

    @Test
    void joinsFromForeignKeysCarryTheirColumnsAndCardinality() {
        Join join = model.join("users_organizations").orElseThrow();
        assertEquals("users", join.sourceEntity());
        assertEquals("organizations", join.targetEntity());
        assertEquals(List.of(new ColumnPair("organization_id", "id")), join.on());
        assertEquals(Cardinality.MANY_TO_ONE, join.cardinality());
        assertEquals(InferenceMethod.FK_CONSTRAINT, join.origin().method());
        assertEquals(ValidationState.APPLIED, join.origin().state());
    }

    @Test
    void aJunctionTableBecomesAManyToManyBridge() {
        Join bridge = model.join("teams_users").orElseThrow();
        assertEquals(Cardinality.MANY_TO_MANY, bridge.cardinality());
        assertEquals(QualifiedName.of("main", "team_members"), bridge.bridge().table());
        assertEquals(List.of(new ColumnPair("id", "team_id")), bridge.bridge().sourceOn());
        assertEquals(List.of(new ColumnPair("user_id", "id")), bridge.bridge().targetOn());
        assertEquals(ValidationState.DRAFT, bridge.origin().state());
    }

    @Test
    void suggestedMetricsCountEntitiesAndSumMoneyWithAnEventTime() {
        Metric count = model.metric("invoices_count").orElseThrow();
        assertEquals(Aggregation.COUNT, count.measure().agg());
        Metric total = model.metric("invoices_total_cents_sum").orElseThrow();
        assertEquals(Aggregation.SUM, total.measure().agg());
        assertEquals("total_cents", total.measure().column());
        assertEquals("invoices.issued_at", total.timeDimension(), "issued_at, not the due date");
        assertTrue(model.metric("invoices_tax_cents_sum").isPresent(), "tax adds up");
        assertNull(model.metric("plans_count").orElseThrow().timeDimension(), "plans have no time column");
        assertEquals("users.created_at", model.metric("users_count").orElseThrow().timeDimension(),
                "a birth date says who a user is, not when the row happened");
        assertTrue(model.metrics().stream().noneMatch(m -> m.measure().column() != null && m.measure().column().endsWith("_id")));
    }

    /**
     * Names built from two long table names (a join), a key's columns (the second join between the same pair) or an
     * entity and a column (a metric) must still be identifiers of at most 63 characters: the store refused longer
     * ones on load, and a million-column catalog lost those joins without a word to the agent.
     */
    @Test
    void namesBuiltFromLongTableNamesStayIdentifiersTheStoreAccepts() throws Exception {
        Path file = dir.resolve("long-names.sqlite");
        String parent = "customer_subscription_billing_history_archive";
        String child = "customer_subscription_billing_event_details";
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
             Statement st = c.createStatement()) {
            st.execute("CREATE TABLE " + parent + " (id INTEGER PRIMARY KEY, opened_at TEXT, outstanding_balance_amount_in_reporting_currency REAL)");
            st.execute("CREATE TABLE " + child + " (id INTEGER PRIMARY KEY, happened_at TEXT,"
                    + " billing_archive_id INTEGER REFERENCES " + parent + "(id),"
                    + " shipping_archive_id INTEGER REFERENCES " + parent + "(id),"
                    + " outstanding_balance_amount_in_reporting_currency REAL, total_amount REAL)");
        }
        Catalog catalog;
        try (SchemaSource source = Sources.open(SourceUrl.parse("sqlite:" + file))) {
            catalog = source.introspect(IntrospectionOptions.withoutSamples());
        }
        SemanticModel long1 = new SemanticInference(name -> "about " + name.table()).infer(catalog);
        SemanticModel long2 = new SemanticInference(name -> "about " + name.table()).infer(catalog);
        List<String> joins = long1.joins().stream().map(Join::name).toList();
        assertEquals(2, joins.size(), joins::toString);
        assertEquals(2, new HashSet<>(joins).size(), "two keys between the same tables: two names " + joins);
        List<String> names = new ArrayList<>(joins);
        long1.entities().forEach(e -> names.add(e.name()));
        long1.metrics().forEach(m -> names.add(m.name()));
        assertTrue(long1.metrics().size() >= 4, long1.metrics()::toString);
        for (String name : names) {
            assertTrue(name.length() <= 63 && name.matches("[a-z_][a-z0-9_]*"), name);
        }
        assertTrue(joins.stream().anyMatch(j -> j.startsWith(child + "_" + parent.substring(0, 54 - child.length() - 1))), joins::toString);
        assertEquals(long1, long2, "the same catalog drafts the same names");
        // As the store keeps and reads them: every drafted object decodes under its name.
        for (var stored : SemanticLayer.encode(long1)) {
            String where = "the store's " + stored.kind() + " " + stored.name();
            var origin = Origin.HEURISTIC_DRAFT;
            var format = Format.JSON;
            String decoded = switch (stored.kind()) {
                case "entity" -> SemanticCodec.decodeEntity(stored.definition(), where, format, origin).name();
                case "join" -> SemanticCodec.decodeJoin(stored.definition(), where, format, origin).name();
                default -> SemanticCodec.decodeMetric(stored.definition(), where, format, origin).name();
            };
            assertEquals(stored.name(), decoded);
        }
    }
}
