package dev.schemabrain.console;

import com.fasterxml.jackson.databind.JsonNode;
import dev.schemabrain.audit.ArgsHash;
import dev.schemabrain.audit.AuditKey;
import dev.schemabrain.audit.AuditRecord;
import dev.schemabrain.catalog.InferenceMethod;
import dev.schemabrain.catalog.ValidationState;
import dev.schemabrain.demo.DemoDatabase;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.execute.ExecutorSettings;
import dev.schemabrain.execute.QueryExecutor;
import dev.schemabrain.index.IndexListener;
import dev.schemabrain.index.Indexer;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.mcp.tools.StandardTools;
import dev.schemabrain.served.StoreCatalogProvider;
import dev.schemabrain.pii.PiiPolicy;
import dev.schemabrain.semantic.model.Filter;
import dev.schemabrain.semantic.model.FilterOp;
import dev.schemabrain.semantic.model.Metric;
import dev.schemabrain.semantic.model.SemanticModel;
import dev.schemabrain.semantic.project.SemanticProject;
import dev.schemabrain.source.Sources;
import dev.schemabrain.store.StoreLocation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Editing a draft's statuses before approving it, and rejecting for good, on the demo database indexed for real (the
 * console started with a project directory): the preview's numbers against hand-written SQL, the approved definition in
 * the store, the YAML and the audit chain, a forged status refused, forms without their token refused, and a rejected
 * metric that a re-index leaves rejected and that no tool serves.
 */
class ConsoleReviewTest {

    private static final String REVIEWER = "bob";
    private static final Pattern CSRF = Pattern.compile("name=\"csrf\" value=\"([^\"]+)\"");

    @TempDir
    static Path dir;

    static Path database;
    static Path storeFile;
    static Path project;
    static SourceUrl url;
    static StoreLocation store;
    static AuditKey key;
    static Console console;
    static String cookie;
    static HttpClient http;
    static QueryExecutor executor;

    @BeforeAll
    static void start() throws Exception {
        database = dir.resolve("demo.sqlite");
        DemoDatabase.create(database);
        url = SourceUrl.parse("sqlite:" + database);
        storeFile = dir.resolve("store.db");
        index();
        store = new StoreLocation.SqliteFile(storeFile);
        project = dir.resolve("project");
        byte[] raw = new byte[AuditKey.MIN_BYTES];
        new SecureRandom().nextBytes(raw);
        key = AuditKey.of(raw);
        console = Console.start(new Console.Settings(store, Optional.of(url), key, REVIEWER, LocalDate.of(2025, 1, 1),
                "127.0.0.1", 0, PiiPolicy.DEFAULT_FILE, Optional.empty(), Optional.of(project)));
        String login = console.loginUrl();
        http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
        HttpResponse<String> signedIn = get(login.substring(login.indexOf("/login")));
        assertEquals(303, signedIn.statusCode(), signedIn.body());
        String set = signedIn.headers().firstValue("Set-Cookie").orElseThrow();
        cookie = set.substring(0, set.indexOf(';'));
    }

    @AfterAll
    static void stop() {
        if (console != null) {
            console.close();
        }
        if (executor != null) {
            executor.close();
        }
    }

    static void index() throws Exception {
        try (SchemaSource source = Sources.open(url)) {
            new Indexer().run(url, source, storeFile, false, IndexListener.SILENT);
        }
    }

    static HttpResponse<String> get(String path) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + console.port() + path)).GET();
        if (cookie != null) {
            b.header("Cookie", cookie);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A form post; {@code statuses} become repeated "status" fields, as checkboxes send them. */
    static HttpResponse<String> post(String path, Map<String, String> form, List<String> statuses) throws Exception {
        StringBuilder body = new StringBuilder();
        form.forEach((k, v) -> body.append(body.length() == 0 ? "" : "&").append(k).append('=')
                .append(URLEncoder.encode(v, StandardCharsets.UTF_8)));
        statuses.forEach(s -> body.append("&status=").append(URLEncoder.encode(s, StandardCharsets.UTF_8)));
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + console.port() + path))
                .header("Content-Type", "application/x-www-form-urlencoded").header("Cookie", cookie)
                .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build(), HttpResponse.BodyHandlers.ofString());
    }

    static String csrf() throws Exception {
        Matcher m = CSRF.matcher(get("/").body());
        assertTrue(m.find(), "the drafts page has a form token");
        return m.group(1);
    }

    static Map<String, String> form(String metric) throws Exception {
        Map<String, String> form = new LinkedHashMap<>();
        form.put("csrf", csrf());
        form.put("metric", metric);
        return form;
    }

    static SemanticModel stored() throws Exception {
        return DemoConsole.stored(store);
    }

    static List<AuditRecord> auditRows() throws Exception {
        return DemoConsole.auditRows(store);
    }

    /** The side-by-side table's rows: month → {now, with the statuses chosen}. */
    static Map<String, long[]> compared(String page) {
        int table = page.indexOf("<table class=\"compare\"");
        assertTrue(table >= 0, page);
        String body = page.substring(page.indexOf("<tbody>", table), page.indexOf("</tbody>", table));
        Map<String, long[]> out = new LinkedHashMap<>();
        Matcher row = Pattern.compile("<tr><td>([^<]*)</td><td>([^<]*)</td><td>([^<]*)</td></tr>").matcher(body);
        while (row.find()) {
            out.put(row.group(1).substring(0, 7), new long[] {Long.parseLong(row.group(2)), Long.parseLong(row.group(3))});
        }
        return out;
    }

    /** Invoices issued in 2024 by month, counted by hand on the demo file: month → count. */
    static Map<String, Long> invoicesByMonth(String statuses) throws Exception {
        Map<String, Long> out = new LinkedHashMap<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + database); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT substr(issued_at, 1, 7), COUNT(*) FROM invoices WHERE issued_at >= '2024-01-01'"
                     + " AND issued_at < '2025-01-01'" + statuses + " GROUP BY 1 ORDER BY 1")) {
            while (rs.next()) {
                out.put(rs.getString(1), rs.getLong(2));
            }
        }
        return out;
    }

    @Test
    void aDraftWithAStatusColumnOffersEveryValueOfItsDomain() throws Exception {
        String page = get("/").body();
        // invoices_count filters no status: every value is counted, so every box is ticked.
        for (String v : List.of("open", "paid", "void", "uncollectible")) {
            assertTrue(page.contains("id=\"s-invoices_count-" + v + "\" name=\"status\" value=\"" + v + "\" checked>"), v);
        }
        // invoices_total_cents_sum counts paid invoices only.
        assertTrue(page.contains("id=\"s-invoices_total_cents_sum-paid\" name=\"status\" value=\"paid\" checked>"), page);
        assertTrue(page.contains("id=\"s-invoices_total_cents_sum-void\" name=\"status\" value=\"void\">"), page);
        assertTrue(page.contains("formaction=\"approve-edit\""), "relative, so it works under /console/ too");
    }

    @Test
    void previewWithFewerStatusesChangesTheNumberAsHandWrittenSqlCountsIt() throws Exception {
        String metric = "invoices_count";
        HttpResponse<String> r = post("/preview", form(metric), List.of("paid", "open"));
        assertEquals(200, r.statusCode(), r.body());
        Map<String, long[]> rows = compared(r.body());
        Map<String, Long> all = invoicesByMonth("");
        Map<String, Long> chosen = invoicesByMonth(" AND status IN ('paid', 'open')");
        assertEquals(12, all.size(), "the demo has invoices in every month of 2024");
        assertEquals(all.keySet(), rows.keySet());
        boolean changed = false;
        for (Map.Entry<String, long[]> e : rows.entrySet()) {
            assertEquals(all.get(e.getKey()), e.getValue()[0], "now, " + e.getKey());
            assertEquals(chosen.get(e.getKey()), e.getValue()[1], "with paid and open, " + e.getKey());
            changed |= e.getValue()[0] != e.getValue()[1];
        }
        assertTrue(changed, "leaving out void and uncollectible invoices changes the number");
        assertTrue(r.body().contains("Compiled SQL with your edit"), "the new SQL is shown");
        assertTrue(r.body().contains("value=\"paid\" checked>") && r.body().contains("value=\"void\">"),
                "the form keeps the statuses chosen");
        // Nothing saved, and the draft is what it was.
        Metric stored = stored().metric(metric).orElseThrow();
        assertEquals(ValidationState.DRAFT, stored.origin().state());
        assertTrue(stored.filters().isEmpty());
    }

    @Test
    void approvingWithStatusesWritesTheStoreTheYamlAndTheChain() throws Exception {
        String metric = "invoices_tax_cents_sum";
        HttpResponse<String> r = post("/approve-edit", form(metric), List.of("uncollectible", "paid"));
        assertEquals(200, r.statusCode(), r.body());
        SemanticModel model = stored();
        Metric approved = model.metric(metric).orElseThrow();
        assertEquals(InferenceMethod.MANUALLY_AUTHORED, approved.origin().method());
        assertEquals(ValidationState.CONFIRMED, approved.origin().state());
        assertEquals(1, approved.filters().size());
        assertEquals("invoices.status", approved.filters().get(0).column());
        assertEquals(FilterOp.IN, approved.filters().get(0).op());
        assertEquals(List.of("paid", "uncollectible"), approved.filters().get(0).value(), "the domain's order");
        assertEquals(REVIEWER, model.review(metric).orElseThrow().by());

        Path file = project.resolve("metrics").resolve(metric + ".yaml");
        assertTrue(Files.exists(file), "the project holds the metric's file");
        String yaml = Files.readString(file);
        assertTrue(yaml.contains("validation_state: confirmed") && yaml.contains("uncollectible"), yaml);
        Metric read = SemanticProject.read(project).model().metric(metric).orElseThrow();
        assertEquals(approved.filters(), read.filters(), "the file is the stored definition, as apply reads it");

        assertTrue(auditRows().stream().anyMatch(row -> row.entry().tool().equals(DraftReview.APPROVE)
                && REVIEWER.equals(row.entry().caller())
                && ArgsHash.of(key, Map.of("name", metric, "statuses", List.of("paid", "uncollectible")))
                .equals(row.entry().argsHash())), "an audit row with the statuses chosen among its arguments");

        // Served as approved: get_metric now compiles the reviewer's filter.
        JsonNode answer = tools().call("get_metric", Map.of("name", metric), "test").toTree();
        assertTrue(answer.path("data").path("params").toString().contains("uncollectible"), answer.toString());
    }

    @Test
    void approvingTheStatusesItAlreadyCountsIsAPlainConfirmation() throws Exception {
        String metric = "invoices_total_cents_avg";
        Metric before = stored().metric(metric).orElseThrow();
        HttpResponse<String> r = post("/approve-edit", form(metric), List.of("paid"));
        assertEquals(200, r.statusCode(), r.body());
        Metric after = stored().metric(metric).orElseThrow();
        assertEquals(before.origin().confirmed(), after.origin(), "as apply: an unchanged definition keeps its method");
        assertEquals(before.filters(), after.filters());
    }

    @Test
    void aStatusOutsideTheDomainIsRefusedInOneSentence() throws Exception {
        for (String path : List.of("/preview", "/approve-edit")) {
            HttpResponse<String> r = post(path, form("invoices_count"), List.of("paid", "' OR 1=1"));
            assertEquals(409, r.statusCode(), r.body());
            assertTrue(r.body().contains("&#39;&#39; OR 1=1&#39; is not a choice for invoices.status; choose among open, paid,"
                    + " void, uncollectible."), r.body());
            assertFalse(r.body().contains("Exception"), r.body());
        }
        HttpResponse<String> none = post("/approve-edit", form("invoices_count"), List.of());
        assertEquals(409, none.statusCode());
        assertTrue(none.body().contains("Choose at least one status"), none.body());
        Metric m = stored().metric("invoices_count").orElseThrow();
        assertEquals(ValidationState.DRAFT, m.origin().state());
        assertTrue(m.filters().isEmpty());
    }

    @Test
    void previewAndApproveWithoutTheFormTokenAreRefused() throws Exception {
        for (String path : List.of("/preview", "/approve-edit", "/restore")) {
            for (String csrf : Arrays.asList(null, "not-the-token")) {
                Map<String, String> form = new LinkedHashMap<>();
                form.put("metric", "invoices_count");
                if (csrf != null) {
                    form.put("csrf", csrf);
                }
                HttpResponse<String> r = post(path, form, List.of("paid"));
                assertEquals(403, r.statusCode(), path);
                assertTrue(r.body().contains("security token is missing or wrong"), r.body());
            }
        }
        Metric m = stored().metric("invoices_count").orElseThrow();
        assertEquals(ValidationState.DRAFT, m.origin().state());
        assertTrue(m.filters().isEmpty());
    }

    /** The tools an agent calls, over the same store. */
    static synchronized ToolRegistry tools() {
        if (executor == null) {
            executor = new QueryExecutor(url, ExecutorSettings.defaults());
        }
        return StandardTools.registry(new StoreCatalogProvider(store, Optional.empty()), Optional.of(executor));
    }

    @Test
    void aRejectedMetricStaysRejectedThroughAReIndexAndIsNeverServed() throws Exception {
        String metric = "projects_count";
        HttpResponse<String> r = post("/reject", form(metric), List.of());
        assertEquals(200, r.statusCode(), r.body());
        index();
        Metric kept = stored().metric(metric).orElseThrow();
        assertEquals(ValidationState.REJECTED, kept.origin().state(), "the re-index did not draft it again");
        assertEquals(REVIEWER, stored().review(metric).orElseThrow().by());
        assertTrue(Files.readString(project.resolve("metrics").resolve(metric + ".yaml")).contains("validation_state: rejected"));

        ToolRegistry tools = tools();
        assertFalse(tools.call("list_metrics", Map.of(), "test").toTree().toString().contains(metric));
        assertFalse(tools.call("find_relevant_metrics", Map.of("question", "how many projects were created"), "test")
                .toTree().toString().contains("\"" + metric + "\""));
        JsonNode rejected = tools.call("get_metric", Map.of("name", metric), "test").toTree().path("error");
        JsonNode unknown = tools.call("get_metric", Map.of("name", "projects_countx"), "test").toTree().path("error");
        assertEquals(unknown.path("kind").asText(), rejected.path("kind").asText(), rejected.toString());
        assertEquals(unknown.path("message").asText().replace("projects_countx", metric), rejected.path("message").asText());

        String page = get("/").body();
        assertFalse(page.contains("id=\"m-" + metric + "\""), "not a draft to review");
        assertTrue(page.contains("<h2 id=\"rejected\">Rejected</h2>") && page.contains("id=\"r-" + metric + "\""), page);
        assertTrue(page.contains("Restore " + metric));

        HttpResponse<String> restored = post("/restore", form(metric), List.of());
        assertEquals(200, restored.statusCode(), restored.body());
        assertEquals(ValidationState.DRAFT, stored().metric(metric).orElseThrow().origin().state());
        assertFalse(Files.exists(project.resolve("metrics").resolve(metric + ".yaml")));
        assertTrue(tools().call("list_metrics", Map.of(), "test").toTree().toString().contains(metric), "served again");
        assertTrue(auditRows().stream().anyMatch(row -> row.entry().tool().equals(DraftReview.RESTORE)
                && REVIEWER.equals(row.entry().caller())));
        assertNotEquals(200, post("/restore", form(metric), List.of()).statusCode(), "a draft is not restored twice");
    }

    /** A post with the edit form's fields: the statuses ticked, the currency and the time axis chosen. */
    static HttpResponse<String> postEdit(String path, String metric, List<String> statuses, String currency, String timeAxis)
            throws Exception {
        Map<String, String> form = form(metric);
        form.put("currency", currency);
        form.put("time_axis", timeAxis);
        return post(path, form, statuses);
    }

    /** Succeeded payments in 2024 by month of {@code dated}, summed by hand on the demo file: month → cents. */
    static Map<String, Long> paymentsByMonth(String dated, String currency) throws Exception {
        Map<String, Long> out = new LinkedHashMap<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + database);
             PreparedStatement st = c.prepareStatement("SELECT substr(" + dated + ", 1, 7), SUM(amount_cents)"
                     + " FROM payments WHERE status = 'succeeded' AND currency = ? AND " + dated + " >= '2024-01-01' AND "
                     + dated + " < '2025-01-01' GROUP BY 1 ORDER BY 1")) {
            st.setString(1, currency);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getString(1), rs.getLong(2));
                }
            }
        }
        return out;
    }

    /** The edited answer's rows when it has other columns than the draft's: month → value. */
    static Map<String, Long> edited(String page) {
        int at = page.indexOf("<div id=\"edited\">");
        assertTrue(at >= 0, "an edit that changes the answer's columns shows it in a table of its own: " + page);
        String body = page.substring(page.indexOf("<tbody>", at), page.indexOf("</tbody>", at));
        Map<String, Long> out = new LinkedHashMap<>();
        Matcher row = Pattern.compile("<tr><td>([^<]*)</td><td>([^<]*)</td></tr>").matcher(body);
        while (row.find()) {
            out.put(row.group(1).substring(0, 7), Long.parseLong(row.group(2)));
        }
        return out;
    }

    @Test
    void aSumOfMoneyOffersItsCurrenciesAndItsDateColumns() throws Exception {
        String page = get("/").body();
        String m = "payments_amount_cents_sum";
        assertTrue(page.contains("id=\"c-" + m + "-\" name=\"currency\" value=\"\" checked> per currency"),
                "the draft answers per currency: " + page);
        for (String code : List.of("USD", "EUR")) {
            assertTrue(page.contains("name=\"currency\" value=\"" + code + "\"> only " + code), code);
        }
        assertTrue(page.contains("name=\"time_axis\" value=\"payments.created_at\" checked>"), "dated as drafted");
        assertTrue(page.contains("name=\"time_axis\" value=\"payments.paid_at\">"), "the other date column is offered");
        // A count adds no amounts: no currency to choose.
        assertFalse(page.contains("id=\"c-invoices_count-"), "a count offers no currency");
    }

    @Test
    void previewInOneCurrencyDatedByAnotherColumnEqualsHandWrittenSql() throws Exception {
        String metric = "payments_amount_cents_sum";
        HttpResponse<String> r = postEdit("/preview", metric, List.of("succeeded"), "EUR", "payments.paid_at");
        assertEquals(200, r.statusCode(), r.body());
        Map<String, Long> expected = paymentsByMonth("paid_at", "EUR");
        assertFalse(expected.isEmpty(), "the demo has payments in euros");
        assertEquals(expected, edited(r.body()), "only EUR, by the month each payment was paid");
        String sql = r.body().substring(r.body().indexOf("Compiled SQL with your edit"));
        assertTrue(sql.contains("&quot;paid_at&quot;") && !sql.contains("&quot;created_at&quot;"), "dated by paid_at: " + sql);
        assertTrue(r.body().contains("With your edit: counting succeeded; only EUR; dated by payments.paid_at."), r.body());
        assertTrue(r.body().contains("name=\"currency\" value=\"EUR\" checked>"), "the form keeps the currency chosen");
        assertTrue(r.body().contains("name=\"time_axis\" value=\"payments.paid_at\" checked>"), "and the axis");
        Metric stored = stored().metric(metric).orElseThrow();
        assertEquals(ValidationState.DRAFT, stored.origin().state(), "nothing is saved");
        assertEquals("payments.created_at", stored.timeDimension());
    }

    @Test
    void approvingACurrencyAndATimeAxisWritesThemAndTheChainHoldsThem() throws Exception {
        String metric = "payments_amount_cents_avg";
        HttpResponse<String> r = postEdit("/approve-edit", metric, List.of("succeeded"), "USD", "payments.paid_at");
        assertEquals(200, r.statusCode(), r.body());
        assertTrue(r.body().contains("counting succeeded; only USD; dated by payments.paid_at"), r.body());
        Metric approved = stored().metric(metric).orElseThrow();
        assertEquals(InferenceMethod.MANUALLY_AUTHORED, approved.origin().method());
        assertEquals("payments.paid_at", approved.timeDimension());
        assertTrue(approved.filters().contains(new Filter("payments.currency", FilterOp.EQ, "USD")),
                approved.filters()::toString);
        Map<String, Object> args = new LinkedHashMap<>();
        args.put("name", metric);
        args.put("statuses", List.of("succeeded"));
        args.put("currency", "USD");
        args.put("time_axis", "payments.paid_at");
        assertTrue(auditRows().stream().anyMatch(row -> row.entry().tool().equals(DraftReview.APPROVE)
                && ArgsHash.of(key, args).equals(row.entry().argsHash())), "the chain holds what was chosen");
        // Served as approved: one currency, so get_metric answers without grouping by it.
        JsonNode answer = tools().call("get_metric", Map.of("name", metric), "test").toTree();
        assertTrue(answer.path("error").isMissingNode() || answer.path("error").isNull(), answer.toString());
        assertTrue(answer.path("data").path("assumptions").path("currency").asText().contains("all amounts are in USD"),
                answer.toString());
        String yaml = Files.readString(project.resolve("metrics").resolve(metric + ".yaml"));
        assertTrue(yaml.contains("payments.paid_at") && yaml.contains("USD"), yaml);
    }

    @Test
    void aCurrencyOrAxisTheDraftDoesNotOfferIsRefused() throws Exception {
        String metric = "payments_amount_cents_sum";
        HttpResponse<String> currency = postEdit("/preview", metric, List.of("succeeded"), "XYZ", "payments.paid_at");
        assertEquals(409, currency.statusCode(), currency.body());
        assertTrue(currency.body().contains("&#39;XYZ&#39; is not a choice for payments.currency; choose among"), currency.body());
        HttpResponse<String> axis = postEdit("/approve-edit", metric, List.of("succeeded"), "", "payments.card_number");
        assertEquals(409, axis.statusCode(), axis.body());
        assertTrue(axis.body().contains("is not a choice for the metric&#39;s time axis"), axis.body());
        HttpResponse<String> count = postEdit("/preview", "invoices_count", List.of("paid"), "USD", "");
        assertEquals(409, count.statusCode(), count.body());
        assertTrue(count.body().contains("so no currency can be chosen for it"), count.body());
        assertEquals(ValidationState.DRAFT, stored().metric(metric).orElseThrow().origin().state());
    }
}
