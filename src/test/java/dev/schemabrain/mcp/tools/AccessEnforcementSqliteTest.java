package dev.schemabrain.mcp.tools;

import dev.schemabrain.execute.SourceExecutors;
import dev.schemabrain.served.StoreCatalogProvider;
import com.fasterxml.jackson.databind.JsonNode;
import dev.schemabrain.access.Access;
import dev.schemabrain.access.AccessPolicy;
import dev.schemabrain.access.Caller;
import dev.schemabrain.access.Role;
import dev.schemabrain.access.RowFilter;
import dev.schemabrain.access.TablePattern;
import dev.schemabrain.demo.DemoDatabase;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.error.ErrorKind;
import dev.schemabrain.execute.BoundQuery;
import dev.schemabrain.execute.ExecutorSettings;
import dev.schemabrain.execute.QueryExecutor;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.mcp.envelope.Status;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.testing.Indexed;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Access enforcement on the demo database, a real SQLite file: a finance role sees billing but not users, payments or
 * activity, and only the organizations of the countries its claim lists (an IN row filter two many-to-one hops
 * from invoices). Its number equals hand-written SQL with the same WHERE.
 */
class AccessEnforcementSqliteTest {

    @TempDir
    static Path dir;
    static QueryExecutor executor;
    static ToolRegistry tools;

    static final Role FINANCE = new Role("finance", List.of(new TablePattern("main", "invoices"),
            new TablePattern("main", "invoice_line_items"), new TablePattern("main", "subscriptions"),
            new TablePattern("main", "organizations"), new TablePattern("main", "plans")), Optional.empty(),
            List.of(new RowFilter("organizations", "organizations.country", RowFilter.Op.IN, "countries")), Set.of(),
            OptionalInt.empty(), Optional.empty());
    static final AccessPolicy POLICY = new AccessPolicy(Map.of("finance", FINANCE), Optional.of("finance"));

    @BeforeAll
    static void index() throws Exception {
        SourceUrl url = SourceUrl.parse("sqlite:" + DemoDatabase.ensure(dir.resolve("access-demo.sqlite")));
        Path store = Indexed.store(url, dir.resolve("access-demo.db"));
        executor = new QueryExecutor(url, ExecutorSettings.defaults());
        tools = StandardTools.registry(new StoreCatalogProvider(store), SourceExecutors.of(Optional.of(executor)), 1, ExampleQueries.NONE);
    }

    @AfterAll
    static void close() {
        if (executor != null) {
            executor.close();
        }
    }

    static Access finance(String countries) {
        return POLICY.resolve(new Caller("token:fin", Optional.empty(), countries == null ? Map.of() : Map.of("countries", countries)));
    }

    static BigDecimal decimal(Object value) {
        return value == null ? null : new BigDecimal(value.toString()).stripTrailingZeros();
    }

    @Test
    void anInRowFilterTwoHopsAwayEqualsHandWrittenSql() throws Exception {
        Envelope listed = tools.call("list_metrics", Map.of("limit", 200), "test", finance("US,DE"));
        String metric = null;
        for (JsonNode m : listed.data().get("metrics")) {
            if (m.path("measure").path("column").asText().equals("total_cents") && m.path("measure").path("agg").asText().equals("sum")) {
                metric = m.get("name").asText();
            }
        }
        assertTrue(metric != null, listed.toJson());
        Envelope e = tools.call("get_metric", Map.of("name", metric), "test", finance("US, DE"));
        assertEquals(Status.SUCCESS, e.status(), e.toJson());
        List<List<Object>> hand = executor.execute(new BoundQuery("SELECT sum(i.total_cents) FROM invoices i JOIN subscriptions s"
                + " ON s.id = i.subscription_id JOIN organizations o ON o.id = s.organization_id"
                // The drafted metric counts paid invoices; the row filter adds the countries.
                + " WHERE i.status = 'paid' AND o.country IN ('US', 'DE')",
                List.of()), 10).rows();
        assertEquals(decimal(hand.get(0).get(0)), decimal(e.data().get("rows").get(0).get(metric).asText()), e.toJson());
        List<List<Object>> all = executor.execute(new BoundQuery("SELECT sum(total_cents) FROM invoices WHERE status = 'paid'", List.of()), 10).rows();
        assertTrue(decimal(hand.get(0).get(0)).compareTo(decimal(all.get(0).get(0))) < 0, "the filter narrows");

        Envelope missing = tools.call("get_metric", Map.of("name", metric), "test", finance(null));
        assertEquals(ErrorKind.POLICY_BLOCKED, missing.error() == null ? null : missing.error().kind(), missing.toJson());
    }

    @Test
    void theHiddenTablesAreAbsentFromListingsAndRefusedByName() {
        Access fin = finance("US");
        for (String tool : List.of("list_indexed_schemas", "list_entities", "list_joins", "list_metrics")) {
            String json = tools.call(tool, Map.of(), "test", fin).toJson().toLowerCase(Locale.ROOT);
            for (String hidden : List.of("users", "payments", "page_views", "support_tickets", "team_members", "projects")) {
                assertFalse(json.contains(hidden), tool + " names " + hidden + ": " + json);
            }
        }
        for (String q : List.of("card numbers of payments", "user email addresses", "page views per user")) {
            String json = tools.call("find_relevant_tables", Map.of("query", q), "test", fin).toJson();
            assertFalse(json.contains("main.payments") || json.contains("main.users") || json.contains("main.page_views"), json);
        }
        Envelope users = tools.call("describe_table", Map.of("qualified_name", "main.users"), "test", fin);
        assertEquals(ErrorKind.ALLOWLIST_VIOLATION, users.error().kind(), users.toJson());
        Envelope cards = tools.call("describe_column", Map.of("qualified_name", "main.payments.card_number"), "test", fin);
        assertEquals(ErrorKind.ALLOWLIST_VIOLATION, cards.error().kind(), cards.toJson());
    }
}
