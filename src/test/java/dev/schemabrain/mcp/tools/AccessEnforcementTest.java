package dev.schemabrain.mcp.tools;

import dev.schemabrain.execute.SourceExecutors;
import dev.schemabrain.served.StoreCatalogProvider;
import dev.schemabrain.served.ServedCatalog;
import com.fasterxml.jackson.databind.JsonNode;
import dev.schemabrain.access.Access;
import dev.schemabrain.access.AccessPolicy;
import dev.schemabrain.access.Caller;
import dev.schemabrain.access.Role;
import dev.schemabrain.access.RowFilter;
import dev.schemabrain.access.TablePattern;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.error.ErrorKind;
import dev.schemabrain.execute.BoundQuery;
import dev.schemabrain.execute.ExecutorSettings;
import dev.schemabrain.execute.QueryExecutor;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.mcp.envelope.EnvelopeSchema;
import dev.schemabrain.mcp.envelope.Status;
import dev.schemabrain.mcp.tool.CallAudit;
import dev.schemabrain.mcp.tool.Tool;
import dev.schemabrain.mcp.tool.ToolCall;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.pii.BlockList;
import dev.schemabrain.pii.PiiCategory;
import dev.schemabrain.pii.SubjectPolicy;
import dev.schemabrain.semantic.model.Metric;
import dev.schemabrain.semantic.model.MetricKind;
import dev.schemabrain.semantic.model.SemanticModel;
import dev.schemabrain.store.QueryLogRepository;
import dev.schemabrain.testing.Indexed;
import dev.schemabrain.testing.TestPostgres;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import io.modelcontextprotocol.json.schema.jackson2.DefaultJsonSchemaValidator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Access enforcement on Chinook in real PostgreSQL: an analyst whose role allows the sales tables but not employee
 * or playlist, with invoices limited to the customers of support rep 3 (the claim {@code rep}). Its metrics equal
 * hand-written SQL with the same WHERE; its own filter cannot widen the row filter; the hidden tables are refused by
 * name and absent from every answer; a caller without the claim, or without a role, is refused.
 */
class AccessEnforcementTest {

    @TempDir
    static Path dir;
    static QueryExecutor executor;
    static ToolRegistry tools;
    /** The same store served with small-cell suppression at K = 5 and contact details blocked. */
    static ToolRegistry guarded;
    static Path store;
    static final List<ToolCall> CALLS = new ArrayList<>();

    static final Role ANALYST = new Role("analyst", List.of(new TablePattern("public", "invoice"),
            new TablePattern("public", "invoice_line"), new TablePattern("public", "customer"), new TablePattern("public", "track"),
            new TablePattern("public", "album"), new TablePattern("public", "artist"), new TablePattern("public", "genre"),
            new TablePattern("public", "media_type")), Optional.empty(),
            List.of(new RowFilter("customer", "customer.support_rep_id", RowFilter.Op.EQ, "rep")), Set.of(), OptionalInt.empty(),
            Optional.empty());
    static final Role HR = new Role("hr", List.of(new TablePattern("public", "employee")), Optional.empty(), List.of(), Set.of(),
            OptionalInt.empty(), Optional.empty());
    static final AccessPolicy POLICY = new AccessPolicy(Map.of("analyst", ANALYST, "hr", HR), Optional.empty());
    static final Access REP_3 = POLICY.resolve(new Caller("token:ana", Optional.of("analyst"), Map.of("rep", "3")));
    /** Names of the hidden tables, entities and metrics, as an attacker would look for them in any answer. */
    static final List<String> HIDDEN = List.of("employee", "playlist", "play list", "hire_date", "reports_to");

    @BeforeAll
    static void index() throws Exception {
        TestPostgres.loadSample("chinook", "chinook.sql");
        SourceUrl url = SourceUrl.parse(TestPostgres.url("chinook"));
        store = Indexed.store(url, dir.resolve("chinook_access.db"));
        executor = new QueryExecutor(url, ExecutorSettings.defaults());
        guarded = StandardTools.registry(new StoreCatalogProvider(store, Optional.of(BlockList.parse(
                "credential,payment_card,government_id,contact", false))), SourceExecutors.of(Optional.of(executor)), 5, ExampleQueries.NONE);
        tools = StandardTools.registry(new StoreCatalogProvider(store), SourceExecutors.of(Optional.of(executor)), 1, ExampleQueries.NONE).audited(new CallAudit() {
            @Override
            public void beforeSql(ToolCall call, String sqlFingerprint) {
            }

            @Override
            public void completed(ToolCall call, Envelope result) {
                synchronized (CALLS) {
                    CALLS.add(call);
                }
            }
        });
    }

    @AfterAll
    static void close() {
        if (executor != null) {
            executor.close();
        }
    }

    static final JsonSchemaValidator VALIDATOR = new DefaultJsonSchemaValidator();

    /** A call as {@code access}; every answer, refusals included, must be a valid envelope. */
    static Envelope call(Access access, String tool, Map<String, Object> args) {
        Envelope e = tools.call(tool, args, "test", access);
        JsonSchemaValidator.ValidationResponse valid = VALIDATOR.validate(EnvelopeSchema.strict(tools.names()), e.toTree());
        assertTrue(valid.valid(), () -> valid.errorMessage() + "\n" + e.toJson());
        return e;
    }

    static List<List<Object>> hand(String sql) throws Exception {
        return executor.execute(new BoundQuery(sql, List.of()), 10_000).rows();
    }

    static BigDecimal decimal(Object value) {
        return value == null ? null : new BigDecimal(value.toString()).stripTrailingZeros();
    }

    /** country → value, from get_metric's rows. */
    static Map<String, BigDecimal> byKey(Envelope e, String key, String metric) {
        Map<String, BigDecimal> out = new TreeMap<>();
        for (JsonNode row : e.data().get("rows")) {
            out.put(row.get(key).asText(), decimal(row.get(metric).asText()));
        }
        return out;
    }

    @Test
    void theAnalystsRowFilteredMetricEqualsHandWrittenSqlWithTheSameWhere() throws Exception {
        Envelope total = call(REP_3, "get_metric", Map.of("name", "invoice_total_sum"));
        assertEquals(Status.SUCCESS, total.status(), total.toJson());
        BigDecimal expected = decimal(hand("SELECT sum(i.total) FROM invoice i JOIN customer c ON c.customer_id = i.customer_id"
                + " WHERE c.support_rep_id = 3").get(0).get(0));
        assertEquals(expected, decimal(total.data().get("rows").get(0).get("invoice_total_sum").asText()));
        BigDecimal all = decimal(hand("SELECT sum(total) FROM invoice").get(0).get(0));
        assertTrue(expected.compareTo(all) < 0, "the filter narrows: " + expected + " of " + all);
        ToolCall recorded = last("get_metric");
        assertEquals(List.of("customer.support_rep_id"), recorded.rowFiltersApplied());

        // Through two many-to-one hops (invoice_line → invoice → customer), grouped by a column of another entity.
        Envelope lines = call(REP_3, "get_metric", Map.of("name", "invoice_line_revenue", "group_by", List.of("customer.country")));
        assertEquals(Status.SUCCESS, lines.status(), lines.toJson());
        Map<String, BigDecimal> want = new TreeMap<>();
        for (List<Object> row : hand("SELECT c.country, sum(l.unit_price * l.quantity) FROM invoice_line l JOIN invoice i"
                + " ON i.invoice_id = l.invoice_id JOIN customer c ON c.customer_id = i.customer_id WHERE c.support_rep_id = 3"
                + " GROUP BY c.country")) {
            want.put(row.get(0).toString(), decimal(row.get(1)));
        }
        assertEquals(want, byKey(lines, "customer.country", "invoice_line_revenue"));

        // A metric whose rows belong to no customer carries no row filter.
        Envelope tracks = call(REP_3, "get_metric", Map.of("name", "track_count"));
        assertEquals(decimal(hand("SELECT count(*) FROM track").get(0).get(0)),
                decimal(tracks.data().get("rows").get(0).get("track_count").asText()), tracks.toJson());
        assertEquals(List.of(), last("get_metric").rowFiltersApplied());
    }

    @Test
    void aCallersOwnFilterCannotWidenTheRowFilter() throws Exception {
        Envelope widened = call(REP_3, "get_metric", Map.of("name", "invoice_total_sum", "group_by", List.of("customer.support_rep_id"),
                "filters", List.of(Map.of("column", "customer.support_rep_id", "op", "in", "value", List.of(3, 4, 5)))));
        assertTrue(widened.status() == Status.SUCCESS, widened.toJson());
        Map<String, BigDecimal> rows = byKey(widened, "customer.support_rep_id", "invoice_total_sum");
        assertEquals(Set.of("3"), rows.keySet(), "only rep 3's rows, never 4's or 5's: " + widened.toJson());

        Envelope other = call(REP_3, "get_metric", Map.of("name", "invoice_count",
                "filters", List.of(Map.of("column", "customer.support_rep_id", "op", "eq", "value", 5))));
        JsonNode value = other.data().get("rows").get(0).get("invoice_count");
        assertEquals(0, value.asInt(), "rep 5's invoices stay out of rep 3's reach: " + other.toJson());
        assertTrue(decimal(hand("SELECT count(*) FROM invoice i JOIN customer c USING (customer_id) WHERE c.support_rep_id = 5")
                .get(0).get(0)).signum() > 0, "rep 5 has invoices to leak");
    }

    @Test
    void aDryRunCarriesTheRowFilterAsABoundParameter() {
        Envelope dry = call(REP_3, "get_metric", Map.of("name", "invoice_total_sum", "dry_run", true));
        assertEquals(Status.SUCCESS, dry.status(), dry.toJson());
        String sql = dry.data().get("sql").asText();
        assertTrue(sql.contains("\"support_rep_id\" = ?"), sql);
        assertFalse(sql.contains("3"), "the claim is a parameter, never SQL text: " + sql);
        List<String> params = new ArrayList<>();
        dry.data().get("params").forEach(p -> params.add(p.asText()));
        assertTrue(params.contains("3"), params.toString());
    }

    @Test
    void aMissingClaimRefusesWhatReachesItsEntityOnly() {
        Access noClaim = POLICY.resolve(new Caller("token:ana2", Optional.of("analyst"), Map.of()));
        Envelope refused = call(noClaim, "get_metric", Map.of("name", "invoice_total_sum"));
        assertEquals(Status.REFUSED, refused.status(), refused.toJson());
        assertEquals(ErrorKind.POLICY_BLOCKED, refused.error().kind());
        assertTrue(refused.error().message().contains("rep claim"), refused.error().message());
        assertFalse(refused.error().message().contains("support_rep_id"), refused.error().message());
        Envelope tracks = call(noClaim, "get_metric", Map.of("name", "track_count"));
        assertEquals(Status.SUCCESS, tracks.status(), tracks.toJson());
    }

    @Test
    void aHiddenTableIsRefusedByNameWithAWideningHint() {
        for (Map.Entry<String, Map<String, Object>> c : List.of(
                Map.entry("describe_table", Map.<String, Object>of("qualified_name", "public.employee")),
                Map.entry("describe_column", Map.<String, Object>of("qualified_name", "public.employee.last_name")),
                Map.entry("get_example_queries", Map.<String, Object>of("qualified_name", "public.playlist_track")),
                Map.entry("suggest_joins", Map.<String, Object>of("tables", List.of("public.customer", "public.employee"))))) {
            Envelope e = call(REP_3, c.getKey(), c.getValue());
            assertEquals(Status.REFUSED, e.status(), c.getKey() + ": " + e.toJson());
            assertEquals(ErrorKind.ALLOWLIST_VIOLATION, e.error().kind());
            assertNotNull(e.error().recovery().wideningHint(), e.toJson());
        }
        Envelope employee = call(REP_3, "describe_table", Map.of("qualified_name", "public.employee"));
        assertTrue(employee.error().recovery().wideningHint().contains("role hr"), employee.toJson());
        // A name no role allows, whether or not it exists, gets the same refusal: nothing is learnt of what is indexed.
        Envelope nowhere = call(REP_3, "describe_table", Map.of("qualified_name", "secret.salaries"));
        assertEquals(ErrorKind.ALLOWLIST_VIOLATION, nowhere.error().kind(), nowhere.toJson());
        assertTrue(nowhere.error().recovery().wideningHint().contains("outside every role"), nowhere.toJson());

        for (Map.Entry<String, Map<String, Object>> c : List.of(
                Map.entry("describe_entity", Map.<String, Object>of("name", "employee")),
                Map.entry("resolve_join", Map.<String, Object>of("entity_a", "customer", "entity_b", "employee")),
                Map.entry("get_metric", Map.<String, Object>of("name", "employee_count")),
                Map.entry("get_metric", Map.<String, Object>of("name", "invoice_count", "group_by", List.of("employee.title"))))) {
            Envelope e = call(REP_3, c.getKey(), c.getValue());
            assertEquals(ErrorKind.ALLOWLIST_VIOLATION, e.error() == null ? null : e.error().kind(), c + ": " + e.toJson());
            assertTrue(e.error().recovery().wideningHint().contains("hr"), e.toJson());
            assertFalse(e.toJson().contains("public.employee"), "the refusal names no table: " + e.toJson());
        }
    }

    @Test
    void listingsAndSearchesShowOnlyTheVisibleTables() {
        Envelope schemas = call(REP_3, "list_indexed_schemas", Map.of());
        JsonNode pub = schemas.data().get("schemas").get(0);
        assertEquals(8, pub.get("tables").asInt(), schemas.toJson());
        Envelope metrics = call(REP_3, "list_metrics", Map.of("limit", 200));
        List<String> names = new ArrayList<>();
        metrics.data().get("metrics").forEach(m -> names.add(m.get("name").asText()));
        assertFalse(names.contains("employee_count") || names.contains("playlist_count"), names.toString());
        assertTrue(names.contains("invoice_total_sum"), names.toString());
        Envelope joins = call(REP_3, "list_joins", Map.of("limit", 200));
        assertFalse(joins.toJson().contains("customer_employee"), joins.toJson());
    }

    @Test
    void noHiddenNameAppearsInAnyAnswerOfTheRestrictedCaller() {
        List<Map.Entry<String, Map<String, Object>>> calls = new ArrayList<>();
        for (String q : List.of("employee", "staff hire date", "playlist tracks", "support rep", "who reports to whom", "customer")) {
            calls.add(Map.entry("find_relevant_tables", Map.of("query", q)));
            calls.add(Map.entry("find_relevant_entities", Map.of("query", q)));
            calls.add(Map.entry("find_relevant_metrics", Map.of("query", q)));
        }
        for (String name : List.of("employe", "employees", "public.employe", "playlst", "public.playlist_trak", "EMPLOYEE",
                "public.customer", "customer", "public.track", "public.invoice")) {
            calls.add(Map.entry("describe_table", Map.of("qualified_name", name)));
            calls.add(Map.entry("get_example_queries", Map.of("qualified_name", name)));
        }
        for (String column : List.of("public.customer.support_rep_id", "public.customer.support_rep", "customer.employee_id",
                "public.track.track_id")) {
            calls.add(Map.entry("describe_column", Map.of("qualified_name", column)));
        }
        for (String entity : List.of("customer", "track", "employe", "playlst", "invoice")) {
            calls.add(Map.entry("describe_entity", Map.of("name", entity)));
        }
        for (String table : SALES) {
            calls.add(Map.entry("describe_table", Map.of("qualified_name", "public." + table, "response_format", "detailed")));
            calls.add(Map.entry("describe_entity", Map.of("name", table)));
        }
        calls.add(Map.entry("find_relevant_tables", Map.of("query", "*", "limit", 50)));
        calls.add(Map.entry("suggest_joins", Map.of("tables", List.of("public.customer", "public.track"))));
        calls.add(Map.entry("suggest_joins", Map.of("tables", List.of("public.invoice", "public.employe"))));
        calls.add(Map.entry("resolve_join", Map.of("entity_a", "customer", "entity_b", "invoice")));
        calls.add(Map.entry("resolve_join", Map.of("entity_a", "customer", "entity_b", "employe")));
        for (String tool : List.of("list_indexed_schemas", "list_entities", "list_joins", "list_metrics")) {
            calls.add(Map.entry(tool, Map.of()));
        }
        for (String metric : List.of("employe_count", "playlst_count", "customer_count", "invoice_total_sum")) {
            calls.add(Map.entry("get_metric", Map.of("name", metric)));
            calls.add(Map.entry("get_metric", Map.of("name", metric, "dry_run", true)));
        }
        calls.add(Map.entry("get_metric", Map.of("name", "invoice_count", "group_by", List.of("customer.support_rep"))));
        calls.add(Map.entry("get_metric", Map.of("name", "invoice_count", "group_by", List.of("employe.title"))));
        calls.add(Map.entry("get_metric", Map.of("name", "customer_count", "via", List.of("customer_employe"))));
        for (String sql : List.of("SELECT count(*) FROM public.employee", "SELECT title FROM employe",
                "SELECT * FROM public.playlist", "SELECT country, count(*) FROM customer GROUP BY country",
                "SELECT c.country, count(*) FROM customer c JOIN public.employee e ON e.employee_id = c.support_rep_id GROUP BY 1",
                "SELECT count(*) FROM customer")) {
            calls.add(Map.entry("execute", Map.of("sql", sql)));
            calls.add(Map.entry("validate_query", Map.of("sql", sql)));
        }
        Set<String> covered = new TreeSet<>();
        int answered = 0;
        for (Map.Entry<String, Map<String, Object>> c : calls) {
            Envelope answer = call(REP_3, c.getKey(), new HashMap<>(c.getValue()));
            answered += answer.isError() ? 0 : 1;
            String json = answer.toJson().toLowerCase(Locale.ROOT);
            // What the attacker typed may be echoed back; anything else naming a hidden object is a leak.
            for (String typed : strings(c.getValue())) {
                json = json.replace(typed.toLowerCase(Locale.ROOT), "");
                // A query names its tables as schema.table: a refusal may repeat those, as any refusal by name does.
                Matcher named = Pattern.compile("public\\.[a-z_]+")
                        .matcher(typed.toLowerCase(Locale.ROOT));
                while (named.find()) {
                    json = json.replace(named.group(), "");
                }
            }
            covered.add(c.getKey());
            for (String hidden : HIDDEN) {
                assertFalse(json.contains(hidden), c + " names " + hidden + ": " + json);
            }
        }
        System.out.println("ATTACK " + calls.size() + " calls, " + answered + " answered with data");
        assertTrue(answered >= 40, "most calls are answered, so the scan reads real answers: " + answered);
        Set<String> every = new TreeSet<>();
        tools.tools().forEach(t -> every.add(t.spec().name()));
        assertEquals(every, covered, "every tool was attacked");
    }

    @Test
    void aCallerWithoutARoleGetsNothing() {
        Access none = POLICY.resolve(Caller.named("token:stranger"));
        assertTrue(none.denial().isPresent());
        for (Tool tool : tools.tools()) {
            Envelope e = call(none, tool.spec().name(), Map.of("name", "invoice_count", "query", "invoice"));
            assertEquals(Status.REFUSED, e.status(), tool.spec().name() + ": " + e.toJson());
            assertEquals(ErrorKind.ALLOWLIST_VIOLATION, e.error().kind());
            assertTrue(e.error().recovery().wideningHint().contains("role"), e.toJson());
        }
    }

    @Test
    void withoutAPolicyNothingChanges() throws Exception {
        Envelope total = call(Access.UNRESTRICTED, "get_metric", Map.of("name", "invoice_total_sum"));
        assertEquals(decimal(hand("SELECT sum(total) FROM invoice").get(0).get(0)),
                decimal(total.data().get("rows").get(0).get("invoice_total_sum").asText()));
        Envelope employee = call(Access.UNRESTRICTED, "describe_table", Map.of("qualified_name", "public.employee"));
        assertEquals(Status.SUCCESS, employee.status(), employee.toJson());
    }

    /** Every string in a call's arguments, longest first (so a longer echo is removed before a part of it). */
    private static List<String> strings(Object value) {
        List<String> out = new ArrayList<>();
        if (value instanceof String text) {
            out.add(text);
            out.addAll(List.of(text.split("\\.")));   // a name's parts are echoed one by one too
        } else if (value instanceof Map<?, ?> map) {
            map.values().forEach(v -> out.addAll(strings(v)));
        } else if (value instanceof List<?> list) {
            list.forEach(v -> out.addAll(strings(v)));
        }
        out.sort((a, b) -> b.length() - a.length());
        return out;
    }

    static Role role(String name, List<String> tables, List<RowFilter> rowFilters, Set<String> clearance, OptionalInt k) {
        return new Role(name, tables.stream().map(t -> new TablePattern("public", t)).toList(), Optional.empty(), rowFilters,
                clearance, k, Optional.empty());
    }

    static Access as(Role role, Map<String, String> claims) {
        return new AccessPolicy(Map.of(role.name(), role), Optional.empty())
                .resolve(new Caller("token:" + role.name(), Optional.of(role.name()), claims));
    }

    static final List<String> SALES = List.of("invoice", "invoice_line", "customer", "track", "album", "artist", "genre", "media_type");

    @Test
    void piiClearanceShowsTheClearedCategoriesToThatRoleOnly() {
        Map<String, Object> byEmail = Map.of("name", "customer_count", "group_by", List.of("customer.email"));
        Envelope blocked = guarded.call("get_metric", byEmail, "test",
                as(role("plain", SALES, List.of(), Set.of(), OptionalInt.empty()), Map.of()));
        assertEquals(ErrorKind.PII_BLOCKED, blocked.error() == null ? null : blocked.error().kind(), blocked.toJson());
        Envelope cleared = guarded.call("get_metric", byEmail, "test",
                as(role("marketing", SALES, List.of(), Set.of("contact"), OptionalInt.of(1)), Map.of()));
        assertTrue(cleared.error() == null || cleared.error().kind() != ErrorKind.PII_BLOCKED, cleared.toJson());
    }

    @Test
    void theCatastrophicFloorIsNeverCleared() {
        ServedCatalog whole = new StoreCatalogProvider(store, Optional.of(BlockList.parse(
                "credential,payment_card,government_id,contact", false))).current().orElseThrow();
        ServedCatalog view = whole.scopedTo(as(role("floor", SALES, List.of(), Set.of("credential", "payment_card", "contact"),
                OptionalInt.empty()), Map.of()));
        assertTrue(view.blockList().blocks(PiiCategory.CREDENTIAL) && view.blockList().blocks(PiiCategory.PAYMENT_CARD));
        assertFalse(view.blockList().blocks(PiiCategory.CONTACT));
        assertTrue(whole.blockList().blocks(PiiCategory.CONTACT), "the server's own list is untouched");
    }

    @Test
    void aRolesMinimumGroupSizeOnlyRaisesTheServers() {
        Map<String, Object> byCountry = Map.of("name", "customer_count", "group_by", List.of("customer.country"));
        Envelope strict = tools.call("get_metric", byCountry, "test",
                as(role("strict", SALES, List.of(), Set.of(), OptionalInt.of(1000)), Map.of()));
        assertEquals(Status.DEGRADED, strict.status(), strict.toJson());
        assertEquals(1000, strict.data().get("min_group_size").asInt());
        assertEquals(0, strict.data().get("row_count").asInt(), "no country has 1000 customers: " + strict.toJson());
        Envelope lax = guarded.call("get_metric", byCountry, "test",
                as(role("lax", SALES, List.of(), Set.of(), OptionalInt.of(1)), Map.of()));
        assertEquals(5, lax.data().get("min_group_size").asInt(), "the server's K stands: " + lax.toJson());
    }

    @Test
    void noJoinPathRunsThroughAHiddenTable() {
        Access noInvoices = as(role("catalogue", List.of("customer", "invoice_line", "track"), List.of(), Set.of(),
                OptionalInt.empty()), Map.of());
        Envelope paths = call(noInvoices, "suggest_joins", Map.of("tables", List.of("public.customer", "public.invoice_line")));
        assertFalse(paths.toJson().contains("public.invoice\""), paths.toJson());
        assertFalse(paths.toJson().contains("invoice_id"), "no join on the hidden invoice's key: " + paths.toJson());
        assertTrue(paths.status() != Status.SUCCESS || paths.data().toString().contains("\"paths\":[]"), paths.toJson());
        // Nor does a metric reach a hidden table's rows through a join it cannot see.
        Envelope revenue = call(noInvoices, "get_metric", Map.of("name", "invoice_line_revenue", "group_by",
                List.of("customer.country")));
        assertTrue(revenue.isError(), revenue.toJson());
        assertFalse(revenue.toJson().contains("public.invoice\""), revenue.toJson());
    }

    @Test
    void aRowFilterOnAnEntityTheRoleCannotSeeRefusesWhatWouldReachIt() {
        Access blind = as(role("blind", List.of("invoice", "invoice_line", "track"),
                List.of(new RowFilter("customer", "customer.support_rep_id", RowFilter.Op.EQ, "rep")), Set.of(),
                OptionalInt.empty()), Map.of("rep", "3"));
        Envelope invoices = call(blind, "get_metric", Map.of("name", "invoice_count"));
        assertEquals(ErrorKind.POLICY_BLOCKED, invoices.error() == null ? null : invoices.error().kind(), invoices.toJson());
        assertFalse(invoices.toJson().contains("customer"), "the refusal names nothing hidden: " + invoices.toJson());
        Envelope tracks = call(blind, "get_metric", Map.of("name", "track_count"));
        assertEquals(Status.SUCCESS, tracks.status(), tracks.toJson());
    }

    @Test
    void aMinedQueryThatReadsAHiddenTableIsNeitherShownNorCounted() {
        QueryLogRepository.Example sales = new QueryLogRepository.Example("chinook", "f1", "select",
                "SELECT c.country, sum(i.total) FROM invoice i JOIN customer c ON c.customer_id = i.customer_id GROUP BY 1", 40,
                "2026-01-01", "2026-02-01", List.of("public.invoice", "public.customer"),
                List.of(new QueryLogRepository.StoredJoin("public", "invoice", List.of("customer_id"), "public", "customer",
                        List.of("customer_id"))), List.of(new QueryLogRepository.StoredColumn("public", "invoice", "total",
                List.of("select"))), List.of("sum"), List.of());
        QueryLogRepository.Example staff = new QueryLogRepository.Example("chinook", "f2", "select",
                "SELECT e.last_name, count(*) FROM customer c JOIN employee e ON e.employee_id = c.support_rep_id GROUP BY 1", 90,
                "2026-01-01", "2026-02-01", List.of("public.customer", "public.employee"),
                List.of(new QueryLogRepository.StoredJoin("public", "customer", List.of("support_rep_id"), "public", "employee",
                        List.of("employee_id"))), List.of(new QueryLogRepository.StoredColumn("public", "employee", "last_name",
                List.of("select", "group_by"))), List.of("count"), List.of());
        ToolRegistry mined = StandardTools.registry(new StoreCatalogProvider(store), SourceExecutors.of(Optional.of(executor)), 1,
                (table, column, limit) -> Optional.of(new QueryLogRepository.Page(List.of(staff, sales), 2)));
        Envelope restricted = mined.call("get_example_queries", Map.of("qualified_name", "public.customer"), "test", REP_3);
        assertEquals(1, restricted.data().get("queries").size(), restricted.toJson());
        assertEquals(1, restricted.data().get("total").asInt(), "the hidden query is not counted: " + restricted.toJson());
        assertFalse(restricted.toJson().contains("employee"), restricted.toJson());
        Envelope open = mined.call("get_example_queries", Map.of("qualified_name", "public.customer"), "test", Access.UNRESTRICTED);
        assertEquals(2, open.data().get("queries").size(), open.toJson());
    }

    @Test
    void underARowFilterNoSampledValueOfItsRowsIsShown() {
        Envelope unrestricted = call(Access.UNRESTRICTED, "describe_column", Map.of("qualified_name", "public.invoice.billing_city"));
        assertTrue(unrestricted.toJson().contains("samples"), unrestricted.toJson());
        for (String column : List.of("public.invoice.billing_city", "public.customer.city", "public.invoice_line.unit_price")) {
            Envelope e = call(REP_3, "describe_column", Map.of("qualified_name", column));
            assertEquals(Status.SUCCESS, e.status(), e.toJson());
            JsonNode samples = e.data().path("samples");
            assertTrue(samples.isMissingNode() || samples.isEmpty(), column + ": " + e.toJson());
        }
        Envelope tracks = call(REP_3, "describe_column", Map.of("qualified_name", "public.track.composer"));
        assertFalse(tracks.data().path("samples").isEmpty(), "a table no filter limits keeps its samples: " + tracks.toJson());
    }

    @Test
    void aRowFilterOnNoEntityRefusesRatherThanLimitingNothing() {
        Access typo = as(role("typo", SALES, List.of(new RowFilter("customers", "customers.support_rep_id", RowFilter.Op.EQ,
                "rep")), Set.of(), OptionalInt.empty()), Map.of("rep", "3"));
        Envelope e = call(typo, "get_metric", Map.of("name", "track_count"));
        assertEquals(ErrorKind.POLICY_BLOCKED, e.error() == null ? null : e.error().kind(), e.toJson());
        assertTrue(e.error().message().contains("operator must fix"), e.toJson());
    }

    @Test
    void aStatementThatJoinsTheFilteredEntityCarriesItsFilterEvenFromAnUnrelatedBase() {
        Envelope dry = call(REP_3, "get_metric", Map.of("name", "track_count", "group_by", List.of("customer.country"),
                "dry_run", true));
        // The role's filter on customers is reached one-to-many from tracks (through invoice lines): the tracks kept
        // are those with at least one rep-3 customer's line, and the answer says so.
        assertEquals(Status.DEGRADED, dry.status(), dry.toJson());
        assertEquals("filtered_through_related_rows", dry.degradationReason().wireName(), dry.toJson());
        assertTrue(dry.data().get("sql").asText().contains("\"support_rep_id\" = ?"), dry.toJson());
        assertEquals(List.of("customer.support_rep_id"), last("get_metric").rowFiltersApplied());
    }

    @Test
    void aJoinPathThroughRowsThatBelongToAFilteredEntityCarriesTheFilter() throws Exception {
        // Tracks by billing country walk track → invoice_line → invoice; invoices belong to customers.
        Envelope byCountry = call(REP_3, "get_metric", Map.of("name", "track_count", "group_by",
                List.of("invoice.billing_country")));
        assertFalse(byCountry.isError(), byCountry.toJson());
        assertEquals(List.of("customer.support_rep_id"), last("get_metric").rowFiltersApplied(), byCountry.toJson());
        Set<String> countries = byKey(byCountry, "invoice.billing_country", "track_count").keySet();
        Set<String> rep3 = new TreeSet<>();
        hand("SELECT DISTINCT i.billing_country FROM invoice i JOIN customer c ON c.customer_id = i.customer_id"
                + " WHERE c.support_rep_id = 3").forEach(r -> rep3.add(r.get(0).toString()));
        Set<String> everyone = new TreeSet<>();
        hand("SELECT DISTINCT billing_country FROM invoice").forEach(r -> everyone.add(r.get(0).toString()));
        assertEquals(rep3, countries, "only the countries of rep 3's invoices");
        assertTrue(everyone.size() > rep3.size(), "other reps' countries exist to leak");
    }

    @Test
    void aRatioTheRoleListsIsBuiltOfPartsItDoesNotListWithoutShowingThem() throws Exception {
        ServedCatalog base = new StoreCatalogProvider(store).current().orElseThrow();
        SemanticModel model = base.semantic();
        Metric sum = model.metric("invoice_total_sum").orElseThrow();
        List<Metric> metrics = new ArrayList<>(model.metrics());
        metrics.add(new Metric("average_invoice", "Total per invoice.", "invoice", null, sum.timeDimension(), sum.timeGrains(),
                List.of(), sum.origin(), new MetricKind.Ratio("invoice_total_sum", "invoice_count")));
        ServedCatalog withRatio = new ServedCatalog(base.schemas(), base.catalog(), base.documents(), base.vectors(), () -> null,
                () -> null, new SemanticModel(model.entities(), model.joins(), metrics), base.pii(), base.blockList(),
                SubjectPolicy.NONE, Map.of());
        ToolRegistry ratio = StandardTools.registry(() -> Optional.of(withRatio), SourceExecutors.of(Optional.of(executor)), 1, ExampleQueries.NONE);
        Role listing = new Role("ratio_only", SALES.stream().map(t -> new TablePattern("public", t)).toList(),
                Optional.of(Set.of("average_invoice")), ANALYST.rowFilters(), Set.of(), OptionalInt.empty(), Optional.empty());
        Access caller = as(listing, Map.of("rep", "3"));
        Envelope avg = ratio.call("get_metric", Map.of("name", "average_invoice"), "test", caller);
        assertEquals(Status.SUCCESS, avg.status(), avg.toJson());
        BigDecimal expected = decimal(hand("SELECT sum(i.total) / count(*) FROM invoice i JOIN customer c"
                + " ON c.customer_id = i.customer_id WHERE c.support_rep_id = 3").get(0).get(0));
        assertEquals(0, expected.compareTo(decimal(avg.data().get("rows").get(0).get("average_invoice").asText())
                .setScale(expected.scale(), RoundingMode.HALF_UP)), avg.toJson());
        Envelope part = ratio.call("get_metric", Map.of("name", "invoice_count"), "test", caller);
        assertEquals(ErrorKind.ALLOWLIST_VIOLATION, part.error() == null ? null : part.error().kind(), part.toJson());
        Envelope listed = ratio.call("list_metrics", Map.of(), "test", caller);
        assertEquals(1, listed.data().get("metrics").size(), listed.toJson());
    }

    @Test
    void aMetricWhoseTimeAxisOrPeopleCountNeedsAHiddenTableIsHidden() {
        // Invoice lines are dated by their invoice and belong to customers through it: without invoice, the metric
        // could neither be bucketed by month nor have its small groups counted.
        Access lines = as(role("lines", List.of("invoice_line", "track"), List.of(), Set.of(), OptionalInt.empty()), Map.of());
        Envelope revenue = guarded.call("get_metric", Map.of("name", "invoice_line_revenue", "group_by", List.of("track.name")),
                "test", lines);
        assertEquals(ErrorKind.ALLOWLIST_VIOLATION, revenue.error() == null ? null : revenue.error().kind(), revenue.toJson());
        assertFalse(revenue.toJson().contains("invoice\""), revenue.toJson());
        Envelope listed = guarded.call("list_metrics", Map.of("limit", 200), "test", lines);
        assertFalse(listed.toJson().contains("invoice_line_revenue"), listed.toJson());
        assertTrue(listed.toJson().contains("track_count"), listed.toJson());
    }

    @Test
    void suppressionStillCountsPeopleWhoseTableIsHidden() {
        Access noCustomers = as(role("ledger", List.of("invoice", "invoice_line", "track"), List.of(), Set.of(),
                OptionalInt.empty()), Map.of());
        Envelope byCity = guarded.call("get_metric", Map.of("name", "invoice_total_sum", "group_by",
                List.of("invoice.billing_city")), "test", noCustomers);
        assertTrue(byCity.status() == Status.SUCCESS || byCity.status() == Status.DEGRADED, byCity.toJson());
        assertEquals(5, byCity.data().get("min_group_size").asInt(), byCity.toJson());
        assertTrue(byCity.data().get("suppressed_groups").asInt() > 0, "cities of fewer than 5 customers: " + byCity.toJson());
        // Counted all the same, but the hidden person entity is not named: "people via invoice.customer_id".
        String json = byCity.toJson().replace("customer_id", "");
        assertFalse(json.contains("customer"), json);
        assertTrue(json.contains("people via invoice."), json);
    }

    private static ToolCall last(String tool) {
        synchronized (CALLS) {
            for (int i = CALLS.size() - 1; i >= 0; i--) {
                if (CALLS.get(i).tool().equals(tool)) {
                    return CALLS.get(i);
                }
            }
        }
        throw new AssertionError("no " + tool + " call was recorded");
    }
}
