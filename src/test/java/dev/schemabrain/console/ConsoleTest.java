package dev.schemabrain.console;

import dev.schemabrain.audit.ArgsHash;
import dev.schemabrain.audit.AuditKey;
import dev.schemabrain.audit.AuditRecord;
import dev.schemabrain.catalog.ValidationState;
import dev.schemabrain.pii.PiiPolicy;
import dev.schemabrain.semantic.model.Metric;
import dev.schemabrain.semantic.model.SemanticModel;
import dev.schemabrain.store.SemanticLayer;
import dev.schemabrain.store.Store;
import dev.schemabrain.store.StoreLocation;
import dev.schemabrain.store.Stores;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The console on the demo database (indexed for real, get_metric run on its SQLite file) driven over HTTP: no page
 * without a session, a token that signs in once, forms refused without their token, verdicts written into the store and
 * the audit chain under the reviewer's name, no value of a PII column on any page, and text escaped.
 */
class ConsoleTest {

    private static final String REVIEWER = "alice";
    /** A draft no test approves or rejects: the refused forms must leave it a draft. */
    private static final String UNTOUCHED = "invoices_total_cents_sum";
    private static final Pattern CSRF = Pattern.compile("name=\"csrf\" value=\"([^\"]+)\"");

    @TempDir
    static Path dir;

    static Path database;
    static StoreLocation store;
    static AuditKey key;
    static Console console;
    static String token;
    static String cookie;

    @BeforeAll
    static void start() throws Exception {
        DemoConsole.Indexed demo = DemoConsole.index(dir);
        database = demo.database();
        store = demo.store();
        key = demo.key();
        // The demo's data ends on 2025-01-01: its last 12 months have rows.
        console = Console.start(new Console.Settings(store, Optional.of(demo.url()), key, REVIEWER, LocalDate.of(2025, 1, 1),
                "127.0.0.1", 0, PiiPolicy.DEFAULT_FILE, Optional.empty(), Optional.empty()));
        token = DemoConsole.token(console);
        cookie = DemoConsole.signIn(console, token);
    }

    @AfterAll
    static void stop() {
        if (console != null) {
            console.close();
        }
    }

    static HttpResponse<String> get(String path, String cookie) throws Exception {
        return DemoConsole.get(console, path, cookie);
    }

    static HttpResponse<String> post(String path, String cookie, Map<String, String> form, String origin) throws Exception {
        return DemoConsole.post(console, path, cookie, form, origin);
    }

    static String csrf() throws Exception {
        Matcher m = CSRF.matcher(get("/", cookie).body());
        assertTrue(m.find(), "the drafts page has a form token");
        return m.group(1);
    }

    static SemanticModel stored() throws Exception {
        return DemoConsole.stored(store);
    }

    static List<AuditRecord> auditRows() throws Exception {
        return DemoConsole.auditRows(store);
    }

    @Test
    void noPageAndNoFormWithoutASession() throws Exception {
        for (String path : List.of("/", "/audit", "/pii", "/audit?caller=alice", "/no-such-page")) {
            for (String c : Arrays.asList(null, "schemabrain_console=forged")) {
                HttpResponse<String> r = get(path, c);
                assertEquals(401, r.statusCode(), path);
                assertTrue(r.body().contains("name=\"token\""), path + ": the answer is the sign-in page");
            }
        }
        for (String path : List.of("/approve", "/reject")) {
            HttpResponse<String> r = post(path, null, Map.of("metric", UNTOUCHED, "csrf", "x"), null);
            assertEquals(401, r.statusCode(), path);
        }
        assertEquals(ValidationState.DRAFT, stored().metric(UNTOUCHED).orElseThrow().origin().state());
    }

    @Test
    void theTokenSignsInOnceAndAWrongOneNever() throws Exception {
        for (HttpResponse<String> again : List.of(get("/login?token=" + token, null),
                post("/login", null, Map.of("token", token), null), get("/login?token=wrong", null))) {
            assertEquals(401, again.statusCode());
            assertTrue(again.headers().firstValue("Set-Cookie").isEmpty());
            assertTrue(again.body().contains("wrong or was already used"), again.body());
        }
        assertEquals(200, get("/", cookie).statusCode(), "the session it gave stays good");
    }

    @Test
    void aFormWithoutItsTokenOrWithAWrongOneIsRefused() throws Exception {
        for (Map<String, String> form : List.of(Map.of("metric", UNTOUCHED),
                Map.of("metric", UNTOUCHED, "csrf", "not-the-token"))) {
            for (String path : List.of("/approve", "/reject")) {
                HttpResponse<String> r = post(path, cookie, form, null);
                assertEquals(403, r.statusCode(), path + " " + form);
                assertTrue(r.body().contains("This form&#39;s security token is missing or wrong"), r.body());
                assertFalse(r.body().contains("Exception"), r.body());
            }
        }
        assertEquals(ValidationState.DRAFT, stored().metric(UNTOUCHED).orElseThrow().origin().state());
    }

    @Test
    void anotherOriginIsRefusedEvenWithTheToken() throws Exception {
        HttpResponse<String> r = post("/approve", cookie, Map.of("metric", UNTOUCHED, "csrf", csrf()), "http://evil.example");
        assertEquals(403, r.statusCode());
        assertTrue(r.body().contains("another origin"), r.body());
        assertEquals(ValidationState.DRAFT, stored().metric(UNTOUCHED).orElseThrow().origin().state());
    }

    /** A rebound DNS name arrives with its own Host: refused before the session is even looked at. */
    @Test
    void aHostOtherThanLoopbackIsRefused() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", console.port())) {
            socket.getOutputStream().write(("GET / HTTP/1.1\r\nHost: evil.example:" + console.port() + "\r\n" + "Cookie: "
                    + cookie + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(answer.startsWith("HTTP/1.1 403"), answer);
            assertTrue(answer.contains("This Host is not the loopback address"), answer);
            assertFalse(answer.contains("Drafts to review</h1>"), answer);
        }
    }

    @Test
    void theDraftsPageShowsAssumptionsTheAnswerAndTheSql() throws Exception {
        String page = get("/", cookie).body();
        assertTrue(page.contains("<h2 id=\"m-invoices_total_cents_sum\">invoices_total_cents_sum</h2>"), "a draft is listed");
        assertTrue(page.contains("In plain words") && page.contains("a draft nobody has reviewed"), "its assumptions");
        assertTrue(page.contains("by month from 2024-01-01 to 2024-12-31"), "its last 12 months");
        assertTrue(page.contains("<svg role=\"img\""), "a chart");
        assertTrue(page.contains("Compiled SQL") && page.contains("SELECT"), "its SQL");
        assertTrue(page.contains("action=\"approve\"") && page.contains("action=\"reject\""), "its verdict forms");
    }

    @Test
    void approvingWritesTheReviewerIntoTheStoreAndTheChain() throws Exception {
        String metric = "users_count";
        HttpResponse<String> r = post("/approve", cookie, Map.of("metric", metric, "csrf", csrf()), null);
        assertEquals(200, r.statusCode(), r.body());
        SemanticModel model = stored();
        assertEquals(ValidationState.CONFIRMED, model.metric(metric).orElseThrow().origin().state());
        assertEquals(REVIEWER, model.review(metric).orElseThrow().by());
        assertFalse(model.review(metric).orElseThrow().at().isBlank());
        assertTrue(auditRows().stream().anyMatch(row -> row.entry().tool().equals(DraftReview.APPROVE)
                && REVIEWER.equals(row.entry().caller())
                && ArgsHash.of(key, Map.of("name", metric)).equals(row.entry().argsHash())));
        assertFalse(get("/", cookie).body().contains("id=\"m-" + metric + "\""), "no longer a draft to review");
        String audit = get("/audit?caller=" + REVIEWER, cookie).body();
        assertTrue(audit.contains(DraftReview.APPROVE) && audit.contains("Chain intact"), audit);
        HttpResponse<String> twice = post("/approve", cookie, Map.of("metric", metric, "csrf", csrf()), null);
        assertEquals(409, twice.statusCode());
        assertTrue(twice.body().contains("is no longer a draft"), twice.body());
    }

    @Test
    void rejectingKeepsTheMetricRejectedAndRecordsTheReviewer() throws Exception {
        // A simple draft other than those the other tests use, that no metric is built on.
        SemanticModel before = stored();
        String metric = before.metrics().stream().map(Metric::name)
                .filter(n -> !n.equals(UNTOUCHED) && !n.equals("users_count"))
                .filter(n -> before.metric(n).orElseThrow().origin().state() == ValidationState.DRAFT)
                .filter(n -> before.metrics().stream().noneMatch(m -> !m.name().equals(n) && DraftReview.uses(m, n)))
                .findFirst().orElseThrow();
        HttpResponse<String> r = post("/reject", cookie, Map.of("metric", metric, "csrf", csrf()), null);
        assertEquals(200, r.statusCode(), r.body());
        assertEquals(ValidationState.REJECTED, stored().metric(metric).orElseThrow().origin().state(), "kept, rejected");
        assertEquals(REVIEWER, stored().review(metric).orElseThrow().by());
        assertTrue(auditRows().stream().anyMatch(row -> row.entry().tool().equals(DraftReview.REJECT)
                && REVIEWER.equals(row.entry().caller())
                && ArgsHash.of(key, Map.of("name", metric)).equals(row.entry().argsHash())));
    }

    @Test
    void theAuditPageChartsCallsAndRefusalsByDayAsTheChainHoldsThem() throws Exception {
        get("/", cookie);   // the drafts page's previews are get_metric calls in the chain
        String page = get("/audit", cookie).body();
        List<AuditRecord> rows = auditRows();
        Map<String, long[]> days = new TreeMap<>();
        for (AuditRecord r : rows.subList(Math.max(0, rows.size() - 500), rows.size())) {
            long[] n = days.computeIfAbsent(r.occurredAt().substring(0, 10), d -> new long[2]);
            n[0]++;
            n[1] += r.entry().errorKind() == null ? 0 : 1;
        }
        assertTrue(page.contains("aria-label=\"Calls (blue) and refusals (red) by day\""), page);
        // Reading the audit page writes no row: the chain read after it holds the same rows.
        for (var d : days.entrySet()) {
            Matcher m = Pattern.compile("<th scope=\"row\">" + d.getKey() + "</th><td>(\\d+)</td><td>(\\d+)</td>").matcher(page);
            assertTrue(m.find(), d.getKey() + " in " + page);
            assertEquals(d.getValue()[0], Long.parseLong(m.group(1)), "calls of " + d.getKey());
            assertEquals(d.getValue()[1], Long.parseLong(m.group(2)), "refusals of " + d.getKey());
        }
    }

    @Test
    void noPageShowsAValueOfAPiiColumn() throws Exception {
        List<String> values = DemoPiiValues.of(database);
        String pii = get("/pii", cookie).body();
        assertTrue(pii.contains("main.payments.card_number") && pii.contains("payment_card"), pii);
        for (String path : List.of("/", "/audit", "/pii")) {
            assertFalse(DemoPiiValues.shown(get(path, cookie).body(), values), path + " shows a personal value");
        }
    }

    @Test
    void aDescriptionIsEscaped() throws Exception {
        String metric = "invoices_total_cents_sum";
        try (Store s = Stores.open(store)) {
            s.write(c -> {
                SemanticModel model = SemanticLayer.stored(c);
                List<Metric> metrics = model.metrics().stream().map(m -> !m.name().equals(metric) ? m
                        : new Metric(m.name(), "<script>alert('x')</script> & more", m.entity(), m.measure(), m.timeDimension(),
                        m.timeGrains(), m.filters(), m.origin(), m.kind())).toList();
                SemanticLayer.replace(c, new SemanticModel(model.entities(), model.joins(), metrics, model.reviews()));
                return null;
            });
        }
        String page = get("/", cookie).body();
        assertFalse(page.contains("<script>"), "no script tag reaches the page");
        assertTrue(page.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; more"));
    }
}
