package dev.schemabrain.mcp.tools;

import dev.schemabrain.execute.SourceExecutors;
import dev.schemabrain.served.StoreCatalogProvider;
import dev.schemabrain.access.Access;
import dev.schemabrain.access.AccessPolicy;
import dev.schemabrain.access.Caller;
import dev.schemabrain.access.Role;
import dev.schemabrain.access.RowFilter;
import dev.schemabrain.access.TablePattern;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.demo.DemoDatabase;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.error.ErrorKind;
import dev.schemabrain.execute.ExecutorSettings;
import dev.schemabrain.execute.QueryExecutor;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.mcp.envelope.Status;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.semantic.model.Aggregation;
import dev.schemabrain.semantic.model.Cardinality;
import dev.schemabrain.semantic.model.ColumnPair;
import dev.schemabrain.semantic.model.Entity;
import dev.schemabrain.semantic.model.Join;
import dev.schemabrain.semantic.model.Measure;
import dev.schemabrain.semantic.model.Metric;
import dev.schemabrain.semantic.model.Origin;
import dev.schemabrain.semantic.model.SemanticModel;
import dev.schemabrain.store.SemanticLayer;
import dev.schemabrain.store.Store;
import dev.schemabrain.store.StoreLocation;
import dev.schemabrain.store.Stores;
import dev.schemabrain.testing.Indexed;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An independent red team's findings against row filters, each the attack that worked, now refused or filtered:
 * a filter dropped where the path to its entity crosses a hidden table, a second entity over the filtered table,
 * a via that moves the filter onto another row, a filter column on another table, empty claims, and sampled
 * values surviving in descriptions and in tables without an entity. The demo database on real SQLite; K = 1.
 */
class AccessRedTeamTest {

    private static final RowFilter BY_COUNTRY = new RowFilter("organizations", "organizations.country", RowFilter.Op.IN,
            "countries");

    @TempDir
    static Path dir;
    static QueryExecutor executor;
    static QueryExecutor moved;
    static ToolRegistry tools;
    static ToolRegistry twoEntities;
    static ToolRegistry movedTickets;

    @BeforeAll
    static void index() throws Exception {
        Path database = DemoDatabase.ensure(dir.resolve("rt.sqlite"));
        SourceUrl url = SourceUrl.parse("sqlite:" + database);
        Path store = Indexed.store(url, dir.resolve("rt.db"));
        executor = new QueryExecutor(url, ExecutorSettings.defaults());
        tools = StandardTools.registry(new StoreCatalogProvider(store), SourceExecutors.of(Optional.of(executor)), 1, ExampleQueries.NONE);

        // A second entity over organizations, as an authored model or a dbt import can declare.
        Path second = dir.resolve("rt-two.db");
        Files.copy(store, second);
        try (Store s = Stores.open(new StoreLocation.SqliteFile(second))) {
            s.write(c -> {
                SemanticModel m = SemanticLayer.stored(c);
                List<Entity> entities = new ArrayList<>(m.entities());
                entities.add(new Entity("accounts", "Customer accounts.", QualifiedName.of("main", "organizations"),
                        List.of("id"), null, Origin.AUTHORED));
                List<Metric> metrics = new ArrayList<>(m.metrics());
                metrics.add(new Metric("accounts_count", "Accounts.", "accounts", Measure.of(Aggregation.COUNT, "id"), null,
                        List.of(), List.of(), Origin.AUTHORED));
                List<Join> joins = new ArrayList<>(m.joins());
                joins.add(new Join("subscriptions_accounts", "subscriptions", "accounts",
                        List.of(new ColumnPair("organization_id", "id")), null, Cardinality.MANY_TO_ONE, Origin.AUTHORED));
                SemanticLayer.replace(c, new SemanticModel(entities, joins, metrics));
                return null;
            });
        }
        twoEntities = StandardTools.registry(new StoreCatalogProvider(second), SourceExecutors.of(Optional.of(executor)), 1, ExampleQueries.NONE);

        // Three French organisations' tickets filed by a user of an American one: two paths to organizations disagree.
        Path copy = dir.resolve("rt-moved.sqlite");
        Files.copy(database, copy);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + copy); Statement st = c.createStatement()) {
            st.executeUpdate("UPDATE support_tickets SET user_id = (SELECT u.id FROM users u JOIN organizations o"
                    + " ON o.id = u.organization_id WHERE o.country = 'US' LIMIT 1) WHERE id IN (SELECT t.id FROM"
                    + " support_tickets t JOIN organizations o ON o.id = t.organization_id WHERE o.country = 'FR' LIMIT 3)");
        }
        moved = new QueryExecutor(SourceUrl.parse("sqlite:" + copy), ExecutorSettings.defaults());
        movedTickets = StandardTools.registry(new StoreCatalogProvider(store), SourceExecutors.of(Optional.of(moved)), 1, ExampleQueries.NONE);
    }

    @AfterAll
    static void close() {
        if (executor != null) {
            executor.close();
        }
        if (moved != null) {
            moved.close();
        }
    }

    @Test
    void aFilterWhosePathCrossesAHiddenTableRefusesInsteadOfAnsweringTheWholeTotal() {
        // subscriptions links invoices to organizations and is hidden: the filter cannot be applied.
        Access us = access(List.of("invoices", "invoice_line_items", "organizations"), List.of(BY_COUNTRY), "US");
        Envelope total = tools.call("get_metric", Map.of("name", "invoices_total_cents_sum"), "t", us);
        assertEquals(ErrorKind.POLICY_BLOCKED, kind(total), total.toJson());
        Envelope lines = tools.call("get_metric", Map.of("name", "invoice_line_items_amount_cents_sum",
                "group_by", List.of("invoices.status")), "t", us);
        assertEquals(ErrorKind.POLICY_BLOCKED, kind(lines), lines.toJson());
    }

    @Test
    void aSecondEntityOverTheFilteredTableIsFilteredToo() {
        Access us = access(List.of("invoices", "subscriptions", "organizations", "plans", "invoice_line_items"),
                List.of(BY_COUNTRY), "US");
        Envelope e = twoEntities.call("get_metric", Map.of("name", "accounts_count", "group_by", List.of("accounts.country")),
                "t", us);
        assertEquals(Status.SUCCESS, e.status(), e.toJson());
        assertEquals(1, e.data().get("rows").size(), e.toJson());
        assertEquals("US", e.data().get("rows").get(0).get("accounts.country").asText(), e.toJson());
    }

    @Test
    void aViaCannotMoveTheFilterOntoAnotherRowOfTheSameEntity() {
        Access us = access(List.of("support_tickets", "users", "organizations"), List.of(BY_COUNTRY), "US");
        Envelope via = movedTickets.call("get_metric", Map.of("name", "support_tickets_count",
                "group_by", List.of("support_tickets.organization_id"), "via", List.of("support_tickets_users")), "t", us);
        assertEquals(ErrorKind.POLICY_BLOCKED, kind(via), via.toJson());
        Envelope own = movedTickets.call("get_metric", Map.of("name", "support_tickets_count",
                "group_by", List.of("support_tickets.organization_id")), "t", us);
        assertEquals(Status.SUCCESS, own.status(), own.toJson());
        own.data().get("rows").forEach(r -> assertFalse(r.get("support_tickets.organization_id").asText().equals("8"),
                "the French organisation 8 must not appear: " + own.toJson()));
    }

    @Test
    void aFilterColumnOnAnotherTableAndEmptyClaimsRefuse() {
        List<String> billing = List.of("invoices", "subscriptions", "organizations", "plans", "invoice_line_items");
        Access wrongTable = access(billing, List.of(new RowFilter("subscriptions", "organizations.id", RowFilter.Op.EQ,
                "countries")), "3");
        Envelope e = tools.call("get_metric", Map.of("name", "subscriptions_count"), "t", wrongTable);
        assertEquals(ErrorKind.POLICY_BLOCKED, kind(e), e.toJson());
        assertTrue(e.error().message().contains("column is not on its entity's table"), e.toJson());
        for (String empty : List.of("", " , ,", ",")) {
            Envelope blank = tools.call("get_metric", Map.of("name", "invoices_total_cents_sum"), "t",
                    access(billing, List.of(BY_COUNTRY), empty));
            assertEquals(ErrorKind.POLICY_BLOCKED, kind(blank), "claim '" + empty + "': " + blank.toJson());
        }
    }

    @Test
    void noSampledValueOfAFilteredTableSurvivesInDescriptionsOrInTablesWithoutAnEntity() {
        Access us = access(List.of("organizations", "users", "teams", "team_members", "projects", "subscriptions"),
                List.of(BY_COUNTRY), "US");
        String org = tools.call("describe_table", Map.of("qualified_name", "main.organizations"), "t", us).toJson();
        for (String foreign : List.of("Paris", "Berlin", "\"FR\"", "FR,")) {
            assertFalse(org.contains(foreign), foreign + " in " + org);
        }
        String members = tools.call("describe_column", Map.of("qualified_name", "main.team_members.user_id"), "t", us).toJson();
        assertFalse(members.contains("\"samples\":[\""), members);
        // A filter naming no entity limits no statement: nothing's samples are shown.
        Access typo = access(List.of("organizations", "subscriptions"),
                List.of(new RowFilter("organisation", "organizations.country", RowFilter.Op.IN, "countries")), "US");
        String country = tools.call("describe_column", Map.of("qualified_name", "main.organizations.country"), "t", typo).toJson();
        assertFalse(country.contains("\"FR\""), country);
    }

    @Test
    void aHiddenTableAndAMissingOneAnswerAlikeInAgentSql() {
        Access narrow = access(List.of("organizations"), List.of(), "US");
        for (String tool : List.of("validate_query", "execute")) {
            Envelope hidden = tools.call(tool, Map.of("sql", "SELECT count(*) FROM main.users"), "t", narrow);
            Envelope missing = tools.call(tool, Map.of("sql", "SELECT count(*) FROM main.usersx"), "t", narrow);
            assertEquals(ErrorKind.ALLOWLIST_VIOLATION, kind(hidden), hidden.toJson());
            assertEquals(kind(hidden), kind(missing), missing.toJson());
            assertEquals(hidden.error().message().replace("main.users", "main.usersx"), missing.error().message());
            assertEquals(hidden.toJson().replace("main.users", "main.usersx").replace("users\"", "usersx\""),
                    missing.toJson(), "the whole answer, hint included, is the same but for the name");
        }
    }

    private static Access access(List<String> allow, List<RowFilter> filters, String claim) {
        Role role = new Role("r", allow.stream().map(t -> new TablePattern("main", t)).toList(), Optional.empty(), filters,
                Set.of(), OptionalInt.empty(), Optional.empty());
        return new AccessPolicy(Map.of("r", role), Optional.empty())
                .resolve(new Caller("token:rt", Optional.of("r"), Map.of("countries", claim)));
    }

    private static ErrorKind kind(Envelope e) {
        return e.error() == null ? null : e.error().kind();
    }
}
