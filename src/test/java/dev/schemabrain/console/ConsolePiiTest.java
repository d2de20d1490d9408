package dev.schemabrain.console;

import com.fasterxml.jackson.databind.JsonNode;
import dev.schemabrain.audit.ArgsHash;
import dev.schemabrain.audit.AuditKey;
import dev.schemabrain.audit.AuditLog;
import dev.schemabrain.audit.AuditRecord;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.mcp.tools.StandardTools;
import dev.schemabrain.served.StoreCatalogProvider;
import dev.schemabrain.pii.PiiCategory;
import dev.schemabrain.pii.PiiPolicy;
import dev.schemabrain.pii.SubjectClass;
import dev.schemabrain.pii.SubjectClasses;
import dev.schemabrain.store.StoreLocation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The PII and roles pages on the indexed demo over HTTP: a retag, an untag and a subject class written to
 * pii_policy.yaml as policy tag writes it, applied so a running server's describe_table sees it, and audited under the
 * reviewer; forged and token-less forms refused; the roles page explaining each role of a policy file; no value of a
 * PII column on either page.
 */
class ConsolePiiTest {

    private static final String REVIEWER = "bob";
    private static final Pattern CSRF = Pattern.compile("name=\"csrf\" value=\"([^\"]+)\"");

    @TempDir
    static Path dir;

    static Path database;
    static StoreLocation store;
    static Path policyFile;
    static AuditKey key;
    static Console console;
    static String cookie;
    /** A server's provider, warmed before any change: it must reload to see one. */
    static StoreCatalogProvider served;
    static ToolRegistry tools;

    @BeforeAll
    static void start() throws Exception {
        DemoConsole.Indexed demo = DemoConsole.index(dir);
        database = demo.database();
        store = demo.store();
        key = demo.key();
        policyFile = dir.resolve("schemabrain").resolve("pii_policy.yaml");
        Path access = dir.resolve("access.yaml");
        Files.writeString(access, """
                version: 1
                roles:
                  finance:
                    allow: [main.invoices, main.payments]
                    pii_clearance: [contact]
                    min_group_size: 10
                    reviewer: true
                  support:
                    allow: [main.*]
                    row_filters:
                      - {entity: organizations, column: organizations.id, op: eq, claim: org_id}
                default_role: none
                """);
        Files.setPosixFilePermissions(access, PosixFilePermissions.fromString("rw-------"));
        console = Console.start(new Console.Settings(store, Optional.of(demo.url()), key, REVIEWER, LocalDate.of(2025, 1, 1),
                "127.0.0.1", 0, policyFile, Optional.of(access), Optional.empty()));
        cookie = DemoConsole.signIn(console, DemoConsole.token(console));
        served = new StoreCatalogProvider(store, Optional.empty());
        tools = StandardTools.registry(served, Optional.empty());
        assertTrue(served.current().isPresent(), "the server's catalog is loaded before any change");
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

    static HttpResponse<String> post(String path, Map<String, String> form) throws Exception {
        return DemoConsole.post(console, path, cookie, form, null);
    }

    /** The form as the PII page sends it, with the session's token. */
    static Map<String, String> form(String... pairs) throws Exception {
        Matcher m = CSRF.matcher(get("/pii", cookie).body());
        assertTrue(m.find(), "the PII page has a form token");
        Map<String, String> out = new LinkedHashMap<>();
        out.put("csrf", m.group(1));
        for (int i = 0; i < pairs.length; i += 2) {
            out.put(pairs[i], pairs[i + 1]);
        }
        return out;
    }

    static List<AuditRecord> auditRows() throws Exception {
        try (AuditLog log = AuditLog.openExisting(store)) {
            return log.list(10_000, OptionalLong.empty());
        }
    }

    static boolean audited(String tool, Map<String, Object> args) throws Exception {
        return auditRows().stream().anyMatch(r -> r.entry().tool().equals(tool) && REVIEWER.equals(r.entry().caller())
                && ArgsHash.of(key, args).equals(r.entry().argsHash()));
    }

    /** describe_table's column, as the running server answers it. */
    static JsonNode described(String table, String column) {
        JsonNode answer = tools.call("describe_table", Map.of("qualified_name", table), "test").toTree();
        for (JsonNode c : answer.path("data").path("columns")) {
            if (c.path("name").asText().equals(column)) {
                return c;
            }
        }
        throw new AssertionError(table + " has no column " + column + ": " + answer);
    }

    static String policyText() throws Exception {
        return Files.exists(policyFile) ? Files.readString(policyFile) : "";
    }

    @Test
    void retaggingWritesThePolicyFileTheServedCatalogAndTheAudit() throws Exception {
        String column = "main.users.phone_number";
        assertFalse(described("main.users", "phone_number").path("redacted").asBoolean(), "served in clear before");
        HttpResponse<String> r = post("/pii-retag", form("column", column, "category", "credential"));
        assertEquals(200, r.statusCode(), r.body());
        assertTrue(r.body().contains("Retagged " + column + " as credential."), r.body());
        PiiPolicy.ColumnOverride written = PiiPolicy.read(policyFile).columns().stream()
                .filter(c -> c.column().equals(column)).findFirst().orElseThrow();
        assertEquals(Set.of(PiiCategory.CREDENTIAL), written.tag().categories());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(policyFile)));
        JsonNode now = described("main.users", "phone_number");
        assertEquals("credential", now.path("pii_categories").get(0).asText(), now.toString());
        assertTrue(now.path("redacted").asBoolean(), "credential is blocked: the column is redacted now");
        assertTrue(audited(PiiReview.RETAG, Map.of("column", column, "categories", List.of("credential"))));
        String page = get("/pii", cookie).body();
        assertTrue(Pattern.compile("<th scope=\"row\">" + Pattern.quote(column) + "</th><td>pii</td><td>credential</td>"
                + "<td>yes</td><td>operator</td>").matcher(page).find(), page);
        assertTrue(get("/audit?caller=" + REVIEWER, cookie).body().contains(PiiReview.RETAG));
    }

    @Test
    void untaggingServesTheColumnAsNotPii() throws Exception {
        String column = "main.page_views.ip_address";
        assertEquals("online_identifier", described("main.page_views", "ip_address").path("pii_categories").get(0).asText());
        HttpResponse<String> r = post("/pii-untag", form("column", column));
        assertEquals(200, r.statusCode(), r.body());
        assertTrue(PiiPolicy.read(policyFile).columns().stream()
                .anyMatch(c -> c.column().equals(column) && c.tag().categories().isEmpty()), policyText());
        assertTrue(described("main.page_views", "ip_address").path("pii_categories").isEmpty());
        String tagged = r.body().substring(0, r.body().indexOf("id=\"untagged\""));
        assertFalse(tagged.contains("<th scope=\"row\">" + column + "</th>"), "no longer listed as tagged");
        assertTrue(r.body().contains("<th scope=\"row\">" + column + "</th><td>set in the policy file; the classifier had found"),
                "listed as the operator's not-PII column, with the classifier's evidence: " + r.body());
        assertTrue(audited(PiiReview.UNTAG, Map.of("column", column, "categories", List.of())));
        // Undone from the same page: retagged as it was.
        assertEquals(200, post("/pii-retag", form("column", column, "category", "online_identifier")).statusCode());
        assertEquals("online_identifier", described("main.page_views", "ip_address").path("pii_categories").get(0).asText());
    }

    @Test
    void confirmingMakesTheClassifiersTagTheOperators() throws Exception {
        String column = "main.users.email";
        HttpResponse<String> r = post("/pii-confirm", form("column", column));
        assertEquals(200, r.statusCode(), r.body());
        assertTrue(PiiPolicy.read(policyFile).columns().stream()
                .anyMatch(c -> c.column().equals(column) && c.tag().categories().contains(PiiCategory.CONTACT)), policyText());
        assertTrue(r.body().contains("<th scope=\"row\">" + column + "</th><td>pii</td><td>contact</td><td>no</td>"
                + "<td>operator</td>"), r.body());
        assertTrue(audited(PiiReview.CONFIRM, Map.of("column", column, "categories", List.of("contact"))));
    }

    @Test
    void theFloorIsNotLiftedFromTheConsole() throws Exception {
        String before = policyText();
        HttpResponse<String> r = post("/pii-untag", form("column", "main.payments.card_number"));
        assertEquals(409, r.statusCode(), r.body());
        assertTrue(r.body().contains("always-blocked categories off main.payments.card_number (payment_card)"), r.body());
        assertEquals(before, policyText(), "nothing written");
        assertTrue(described("main.payments", "card_number").path("redacted").asBoolean());
    }

    @Test
    void settingASubjectClassIsWrittenAppliedAndAudited() throws Exception {
        String entity = "organizations";
        SubjectClass drafted = subjectOf(entity).subjectClass();
        SubjectClass other = drafted == SubjectClass.NONE ? SubjectClass.ORGANISATION : SubjectClass.NONE;
        HttpResponse<String> r = post("/pii-subject", form("entity", entity, "subject", other.wireName()));
        assertEquals(200, r.statusCode(), r.body());
        assertEquals(other, PiiPolicy.read(policyFile).subjects().classes().get(entity), policyText());
        assertEquals(other, subjectOf(entity).subjectClass(), "the running server's catalog has it");
        assertEquals("operator", subjectOf(entity).origin());
        assertTrue(audited(PiiReview.SUBJECT, Map.of("entity", entity, "subject", other.wireName())));
        assertTrue(r.body().contains("<th scope=\"row\">" + entity + "</th><td>main.organizations</td><td>" + other.wireName()
                + "</td><td>operator</td>"), r.body());
    }

    static SubjectClasses.Assigned subjectOf(String entity) {
        return served.current().orElseThrow().subjectClasses().stream().filter(a -> a.entity().equals(entity))
                .findFirst().orElseThrow();
    }

    @Test
    void aForgedCategoryOrSubjectIsRefusedInOneSentence() throws Exception {
        String before = policyText();
        long rows = auditRows().size();
        HttpResponse<String> r = post("/pii-retag", form("column", "main.users.last_name", "category", "<b>nuclear</b>"));
        assertEquals(400, r.statusCode(), r.body());
        assertTrue(r.body().contains("That is not a PII category; pick one of contact, financial,"), r.body());
        assertFalse(r.body().contains("<b>nuclear</b>") || r.body().contains("Exception"), r.body());
        HttpResponse<String> s = post("/pii-subject", form("entity", "users", "subject", "robot"));
        assertEquals(400, s.statusCode(), s.body());
        assertTrue(s.body().contains("That is not a data-subject class; pick person, organisation or none."), s.body());
        HttpResponse<String> unknown = post("/pii-retag", form("column", "main.users.no_such_column", "category", "contact"));
        assertEquals(409, unknown.statusCode(), unknown.body());
        assertTrue(unknown.body().contains("The column main.users.no_such_column is not in the index"), unknown.body());
        assertEquals(before, policyText(), "nothing written");
        assertEquals(rows, auditRows().size(), "nothing audited");
    }

    @Test
    void aFormWithoutItsTokenOrSessionChangesNothing() throws Exception {
        String before = policyText();
        for (Map<String, String> f : List.of(Map.of("column", "main.users.last_name", "category", "health"),
                Map.of("column", "main.users.last_name", "category", "health", "csrf", "forged"))) {
            for (String path : List.of("/pii-retag", "/pii-untag", "/pii-confirm")) {
                HttpResponse<String> r = post(path, f);
                assertEquals(403, r.statusCode(), path);
                assertTrue(r.body().contains("security token is missing or wrong"), r.body());
            }
        }
        HttpResponse<String> noSession = DemoConsole.post(console, "/pii-untag", null,
                Map.of("column", "main.users.last_name", "csrf", "x"), null);
        assertEquals(401, noSession.statusCode());
        assertEquals(401, get("/roles", null).statusCode());
        assertEquals(before, policyText());
    }

    @Test
    void theRolesPageExplainsEachRole() throws Exception {
        HttpResponse<String> r = get("/roles", cookie);
        assertEquals(200, r.statusCode(), r.body());
        String page = r.body();
        int finance = page.indexOf("<h2 id=\"role-finance\">finance</h2>");
        int support = page.indexOf("<h2 id=\"role-support\">support</h2>");
        assertTrue(finance > 0 && support > finance, page);
        String financePart = page.substring(finance, support);
        assertTrue(financePart.contains("<dt>Tables (2 of 12)</dt><dd>main.invoices</dd><dd>main.payments</dd><dt>"), financePart);
        assertTrue(financePart.contains("<dt>Metrics (8 of 24,") && financePart.contains("<dd>payments_count</dd>"), financePart);
        assertFalse(financePart.contains("main.users"), "finance does not reach users");
        assertTrue(financePart.contains("<dd>contact</dd>") && financePart.contains("10 (never below"), financePart);
        assertTrue(page.substring(support).contains("organizations rows where organizations.id equals the caller&#39;s claim"
                + " org_id"), page);
        assertTrue(financePart.contains("<dt>Reviews in the console</dt><dd>yes (reviewer: true)"), financePart);
        assertTrue(page.substring(support).contains("<dt>Reviews in the console</dt><dd>no: serve --console answers 403"), page);
        assertTrue(page.contains("A credential that names no role gets nothing"), page);
        assertTrue(RolesPage.unrestricted().contains("Without an access policy every caller sees every table"));
    }

    @Test
    void noValueOfAPiiColumnOnThePiiOrRolesPage() throws Exception {
        List<String> values = DemoPiiValues.of(database);
        for (String path : List.of("/pii", "/roles")) {
            assertFalse(DemoPiiValues.shown(get(path, cookie).body(), values), path + " shows a personal value");
        }
    }
}
