package dev.schemabrain.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schemabrain.audit.AuditLog;
import dev.schemabrain.audit.AuditRecord;
import dev.schemabrain.catalog.ValidationState;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.mcp.tools.StandardTools;
import dev.schemabrain.served.StoreCatalogProvider;
import dev.schemabrain.pii.PiiCategory;
import dev.schemabrain.pii.PiiPolicy;
import dev.schemabrain.semantic.model.Filter;
import dev.schemabrain.semantic.model.FilterOp;
import dev.schemabrain.semantic.model.Metric;
import dev.schemabrain.semantic.model.SemanticModel;
import dev.schemabrain.store.SemanticLayer;
import dev.schemabrain.store.Store;
import dev.schemabrain.store.StoreLocation;
import dev.schemabrain.store.Stores;
import dev.schemabrain.testing.Cli;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The console in a real headless Chromium, as a reviewer uses it: {@code schemabrain demo}, then the packaged jar's
 * {@code schemabrain console} on the demo database, then src/test/js/console-e2e.mjs (playwright-core) opens the printed
 * URL, reads the drafts, approves one, rejects another (kept on the Rejected list), reads the audit and PII pages, lets
 * another page on this machine post the approve form, changes a third draft's statuses and approves it after its preview,
 * retags a PII column, reads the roles page, and tries a second browser with no token. Then, for a team, {@code serve
 * --transport http --console} on another copy of the demo: an analyst's token gets 403, a reviewer's the drafts page. The script only records what the browser saw; this class asserts on it, on the store and on the demo
 * database, and the screenshots of each page land in target/console/ (linked from docs/console.md).
 */
class ConsoleBrowserIT {

    /** Pinned: the version checked against Debian's Chromium here; npm's cache makes a reinstall cheap. */
    static final String PLAYWRIGHT_CORE = "1.64.1";
    static final Path NODE_DIR = Path.of("target", "console-e2e").toAbsolutePath();
    static final Path SCREENSHOTS = Path.of("target", "console").toAbsolutePath();
    static final String CHROMIUM = System.getenv().getOrDefault("SCHEMABRAIN_CHROMIUM", "/usr/bin/chromium");

    static final String REVIEWER = "dana";
    /** Approved in the browser: it counts paid invoices only, an assumption the page must show. */
    static final String APPROVE = "invoices_total_cents_sum";
    /** Rejected in the browser: no metric is built on it. */
    static final String REJECT = "support_tickets_count";
    /** Another page tries to approve it: it must stay a draft. */
    static final String UNTOUCHED = "invoices_count";
    /** Its statuses changed in the browser: the draft counts paid invoices; uncollectible ones are ticked too before
     * approving (tax billed, bad debts included), which changes most months of 2024. */
    static final String EDITED = "invoices_tax_cents_sum";
    /** In the order of the status column's domain, as the page lists them and the store keeps them. */
    static final List<String> CHOSEN = List.of("paid", "uncollectible");
    /** Retagged in the browser: a contact detail made a credential, which the default block list blocks. */
    static final String RETAGGED = "main.users.phone_number";
    static final PiiCategory RETAG_AS = PiiCategory.CREDENTIAL;

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern LOGIN_URL = Pattern.compile("the console is at (http://127\\.0\\.0\\.1:\\d+/login\\?token=(\\S+))");
    private static final Pattern TEAM_URL = Pattern.compile("the reviewer's console is at (http://127\\.0\\.0\\.1:\\d+/console/) ");
    /**
     * One access policy for both consoles: the roles page explains its two roles, and serve --console lets only the
     * lead in. The console refuses a policy file others can read, so it is chmod 600.
     */
    private static final String ACCESS_POLICY = """
            version: 1
            roles:
              analyst:
                allow: [main.invoices, main.payments]
                pii_clearance: [contact]
                min_group_size: 10
              lead:
                allow: [main.*]
                reviewer: true
            default_role: none
            """;

    @TempDir
    static Path dir;
    static JsonNode result;
    static String token;
    static final List<String> consoleLog = new CopyOnWriteArrayList<>();
    /** serve --console's tokens: the lead reviews, the analyst does not. */
    static String leadToken;
    static String analystToken;
    static final List<String> serveLog = new CopyOnWriteArrayList<>();
    static final List<Process> started = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void driveTheConsoleInChromium() throws Exception {
        if (!Files.isExecutable(Path.of(CHROMIUM))) {
            fail("Chromium is not installed at " + CHROMIUM + ": run 'apt-get install -y chromium' (as .ci/run does), then rerun.");
        }
        installPlaywright();
        // The walk-through of docs/console.md, with the demo's own file names.
        Cli.Result demo = Cli.run(dir, "demo", "--events", "none");
        assertEquals(0, demo.exitCode(), demo.stderr());
        Path access = dir.resolve("access.yaml");
        Files.writeString(access, ACCESS_POLICY);
        Files.setPosixFilePermissions(access, PosixFilePermissions.fromString("rw-------"));
        Matcher login = startJar(dir, LOGIN_URL, consoleLog, "console", "--store", "schemabrain.demo.db", "--source",
                "sqlite:schemabrain-demo.sqlite", "--as-of", "2025-01-01", "--reviewer", REVIEWER, "--port", "0", "--pii-policy",
                piiPolicy().toString(), "--access-policy", access.toString());
        String loginUrl = login.group(1);
        token = login.group(2);
        String teamUrl = startTeam(access);
        Files.createDirectories(SCREENSHOTS);
        ObjectNode config = JSON.createObjectNode().put("loginUrl", loginUrl).put("chromium", CHROMIUM)
                .put("screenshots", SCREENSHOTS.toString()).put("reviewer", REVIEWER).put("approve", APPROVE).put("reject", REJECT)
                .put("untouched", UNTOUCHED);
        config.putObject("statuses").put("metric", EDITED).set("chosen", JSON.valueToTree(CHOSEN));
        config.putObject("retag").put("column", RETAGGED).put("category", RETAG_AS.wireName());
        config.putObject("team").put("url", teamUrl).put("reviewerToken", leadToken).put("analystToken", analystToken);
        Path configFile = dir.resolve("console-e2e.json");
        JSON.writeValue(configFile.toFile(), config);
        // Beside node_modules, so its bare import resolves to the pinned playwright-core.
        Path script = NODE_DIR.resolve("console-e2e.mjs");
        Files.copy(Path.of("src/test/js/console-e2e.mjs"), script, StandardCopyOption.REPLACE_EXISTING);
        result = runNode(List.of(script.toString(), configFile.toString()));
    }

    /**
     * A team's console: another copy of the demo, a token for a lead (a reviewer role) and one for an analyst, and
     * {@code serve --transport http --console} with the same access policy; returns the console's address.
     */
    static String startTeam(Path access) throws Exception {
        Path team = Files.createDirectories(dir.resolve("team"));
        Cli.Result demo = Cli.run(team, "demo", "--events", "none");
        assertEquals(0, demo.exitCode(), demo.stderr());
        leadToken = createToken(team, "ann", "lead");
        analystToken = createToken(team, "bob", "analyst");
        return startJar(team, TEAM_URL, serveLog, "serve", "--transport", "http", "--port", "0", "--store", "schemabrain.demo.db",
                "--source", "sqlite:schemabrain-demo.sqlite", "--access-policy", access.toString(), "--console").group(1);
    }

    private static String createToken(Path team, String name, String role) throws Exception {
        Cli.Result created = Cli.run(team, "token", "create", name, "--role", role, "--store", "schemabrain.demo.db");
        assertEquals(0, created.exitCode(), created.stderr());
        return created.stdout().strip();
    }

    @AfterAll
    static void stopConsoles() throws InterruptedException {
        for (Process p : started) {
            p.destroy();   // SIGTERM: its shutdown hook closes the store, as Ctrl-C does
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
    }

    @Test
    void theTokenUrlSignsInAndLeavesTheAddressBar() {
        JsonNode signIn = step("signIn");
        assertEquals(200, signIn.path("status").asInt(), signIn::toString);
        assertEquals("/", signIn.path("path").asText());
        assertEquals("", signIn.path("query").asText(), "the token left the address bar");
        assertEquals("Drafts to review", signIn.path("h1").asText());
        JsonNode cookie = signIn.path("cookies").path(0);
        assertEquals(1, signIn.path("cookies").size(), signIn.path("cookies")::toString);
        assertTrue(cookie.path("httpOnly").asBoolean() && "Strict".equals(cookie.path("sameSite").asText()), cookie::toString);
        assertTrue(consoleLog.stream().noneMatch(line -> line.contains(token)), "the token reached the console's log");
    }

    @Test
    void theDraftsPageShowsTheAssumptionsAndTheNumberTheDatabaseGives() throws Exception {
        JsonNode drafts = step("drafts");
        assertEquals(200, drafts.path("status").asInt());
        assertTrue(texts(drafts.path("drafts")).containsAll(List.of(APPROVE, REJECT, UNTOUCHED)), drafts.path("drafts")::toString);
        assertEquals(24, drafts.path("drafts").size(), "the demo's drafts, as docs/console.md says");
        JsonNode draft = drafts.path("approve");
        assertTrue(draft.path("plainWords").asText().contains("counts only rows where invoices.status in (paid)"), draft::toString);
        assertEquals(List.of("counts only rows where invoices.status in (paid)"), texts(draft.path("assumptions").path("Statuses counted")));
        assertEquals(List.of(APPROVE + " is dated by invoices.issued_at"), texts(draft.path("assumptions").path("Time axis")));
        assertEquals("Its answer by month from 2024-01-01 to 2024-12-31", draft.path("answerHeading").asText());
        // The analyst's check: each month's number on the page is what hand-written SQL gives on the demo database.
        Map<String, String> shown = new LinkedHashMap<>();
        draft.path("rows").forEach(r -> shown.put(r.path(0).asText(), r.path(1).asText()));
        Map<String, String> byHand = query("SELECT strftime('%Y-%m-01', issued_at), SUM(total_cents) FROM invoices"
                + " WHERE status = 'paid' AND issued_at >= '2024-01-01' AND issued_at < '2025-01-01' GROUP BY 1 ORDER BY 1");
        assertEquals(12, byHand.size(), byHand::toString);
        assertEquals(byHand, shown);
        assertEquals(1, draft.path("chart").asInt(), "a chart beside the table");
        assertTrue(draft.path("sql").asText().startsWith("SELECT"), draft::toString);
        assertEquals(List.of("Preview", "Approve " + APPROVE + " with this edit", "Approve " + APPROVE, "Reject " + APPROVE),
                texts(draft.path("buttons")), "its statuses form, then its verdicts");
    }

    @Test
    void approvingInTheBrowserConfirmsTheMetricUnderTheReviewersName() throws Exception {
        JsonNode approve = step("approve");
        assertEquals(200, approve.path("status").asInt(), approve.path("alerts")::toString);
        assertEquals("Approved", approve.path("h1").asText());
        assertTrue(approve.path("alerts").toString().contains("Approved " + APPROVE + ": it is now confirmed, reviewed by " + REVIEWER),
                approve.path("alerts")::toString);
        assertFalse(approve.path("stillADraft").asBoolean(), "no longer listed as a draft");
        SemanticModel model = stored();
        assertEquals(ValidationState.CONFIRMED, model.metric(APPROVE).orElseThrow().origin().state());
        assertEquals(REVIEWER, model.review(APPROVE).orElseThrow().by());
    }

    @Test
    void rejectingInTheBrowserTakesTheDraftOut() throws Exception {
        JsonNode reject = step("reject");
        assertEquals(200, reject.path("status").asInt(), reject.path("alerts")::toString);
        assertEquals("Rejected", reject.path("h1").asText());
        assertFalse(reject.path("stillADraft").asBoolean());
        assertTrue(reject.path("alerts").toString().contains("it is on the Rejected list"), reject.path("alerts")::toString);
        // Kept, so no index drafts it again, under the reviewer's name; listed with its Restore button.
        SemanticModel model = stored();
        assertEquals(ValidationState.REJECTED, model.metric(REJECT).orElseThrow().origin().state());
        assertEquals(REVIEWER, model.review(REJECT).orElseThrow().by());
        JsonNode listed = null;
        for (JsonNode row : reject.path("rejectedList")) {
            listed = row.path(0).asText().equals(REJECT) ? row : listed;
        }
        assertTrue(listed != null && REVIEWER.equals(listed.path(1).asText()), reject.path("rejectedList")::toString);
        assertTrue(texts(reject.path("restoreButtons")).contains("Restore " + REJECT), reject::toString);
        // Never served: an agent's get_metric and list_metrics over the same store do not have it.
        ToolRegistry tools = StandardTools.registry(new StoreCatalogProvider(
                new StoreLocation.SqliteFile(dir.resolve("schemabrain.demo.db")), Optional.empty()), Optional.empty());
        JsonNode answer = tools.call("get_metric", Map.of("name", REJECT), "test").toTree();
        assertFalse(answer.path("error").isMissingNode() || answer.path("error").isNull(), answer::toString);
        JsonNode listing = tools.call("list_metrics", Map.of(), "test").toTree();
        assertTrue(listing.path("error").isMissingNode() || listing.path("error").isNull(), listing::toString);
        assertFalse(listing.toString().contains("\"" + REJECT + "\""), "list_metrics serves the rejected metric");
        assertTrue(listing.toString().contains("\"" + UNTOUCHED + "\""), "list_metrics lists the other metrics");
    }

    @Test
    void previewingOtherStatusesShowsTheNumberHandWrittenSqlGives() throws Exception {
        JsonNode preview = step("previewStatuses");
        assertEquals(200, preview.path("status").asInt(), preview.path("alerts")::toString);
        assertEquals("Preview of " + EDITED, preview.path("h1").asText());
        List<String> before = texts(preview.path("before"));
        assertEquals(List.of("paid"), before, "the draft counts paid invoices only");
        assertTrue(texts(preview.path("values")).containsAll(List.of("open", "paid", "void", "uncollectible")),
                "every status of the column's domain is a checkbox: " + preview.path("values"));
        assertEquals(CHOSEN, texts(preview.path("chosen")), "the preview's form keeps the statuses ticked");
        assertTrue(preview.path("alerts").toString().contains("Nothing is saved yet"), preview.path("alerts")::toString);
        assertEquals(List.of("Now", "With your edit"), texts(preview.path("columns")).subList(1, 3));
        // The analyst's check, month by month: "now" and "with" are what hand-written SQL gives on the demo database.
        Map<String, String> now = taxByMonth(before);
        Map<String, String> with = taxByMonth(CHOSEN);
        assertEquals(12, now.size(), now::toString);
        Map<String, String> shownNow = new LinkedHashMap<>();
        Map<String, String> shownWith = new LinkedHashMap<>();
        preview.path("rows").forEach(r -> {
            shownNow.put(r.path(0).asText(), r.path(1).asText());
            shownWith.put(r.path(0).asText(), r.path(2).asText());
        });
        assertEquals(now, shownNow);
        assertEquals(with, shownWith);
        assertFalse(shownNow.equals(shownWith), "counting uncollectible invoices too changes the number");
    }

    @Test
    void approvingWithTheseStatusesConfirmsTheEditedDefinition() throws Exception {
        JsonNode approved = step("approveStatuses");
        assertEquals(200, approved.path("status").asInt(), approved.path("alerts")::toString);
        assertEquals("Approved", approved.path("h1").asText());
        assertTrue(approved.path("alerts").toString().contains("Approved " + EDITED + " with your edit (counting " + String.join(", ", CHOSEN)
                + "): it is now the reviewer's, confirmed, reviewed by " + REVIEWER), approved.path("alerts")::toString);
        assertFalse(approved.path("stillADraft").asBoolean(), "no longer listed as a draft");
        SemanticModel model = stored();
        Metric m = model.metric(EDITED).orElseThrow();
        assertEquals(ValidationState.CONFIRMED, m.origin().state());
        assertEquals(List.of(new Filter("invoices.status", FilterOp.IN, CHOSEN)), m.filters());
        assertEquals(REVIEWER, model.review(EDITED).orElseThrow().by());
        assertTrue(audited(DraftReview.APPROVE), "the approval is in the audit chain under the reviewer");
    }

    @Test
    void retaggingAPiiColumnInTheBrowserWritesThePolicyFileAndTheAudit() throws Exception {
        JsonNode retag = step("piiRetag");
        assertEquals(200, retag.path("status").asInt(), retag.path("alerts")::toString);
        assertTrue(retag.path("alerts").toString().contains("Retagged " + RETAGGED + " as " + RETAG_AS.wireName() + "."),
                retag.path("alerts")::toString);
        // Column, Sensitivity, Categories, Blocked, Tagged by, ...: the classifier's contact tag before, served in clear;
        // the operator's credential tag after, and blocked.
        JsonNode was = null;
        for (JsonNode r : step("pii").path("rows")) {
            was = r.path(0).asText().equals(RETAGGED) ? r : was;
        }
        assertTrue(was != null && List.of(RETAGGED, "pii", "contact", "no", "heuristic").equals(texts(was).subList(0, 5)),
                String.valueOf(was));
        JsonNode row = retag.path("row");
        assertEquals(List.of(RETAGGED, "pii", RETAG_AS.wireName(), "yes", "operator"), texts(row).subList(0, 5), row::toString);
        PiiPolicy.ColumnOverride written = PiiPolicy.read(piiPolicy()).columns().stream()
                .filter(c -> c.column().equals(RETAGGED)).findFirst().orElseThrow(() -> new AssertionError(read(piiPolicy())));
        assertEquals(Set.of(RETAG_AS), written.tag().categories());
        assertTrue(audited(PiiReview.RETAG), "the retag is in the audit chain under the reviewer");
    }

    @Test
    void theRolesPageExplainsBothRolesWithoutAValue() {
        JsonNode roles = step("roles");
        assertEquals(200, roles.path("status").asInt(), roles.path("alerts")::toString);
        assertEquals(List.of("analyst", "lead"), texts(roles.path("roles")));
        // No PII value on it: checked with every other page in thePiiPageListsTheTagsAndNoPageShowsAPersonalValue.
    }

    @Test
    void theAuditPageHasTheReviewersApprovalAndRejection() {
        JsonNode audit = step("audit");
        assertEquals(200, audit.path("status").asInt());
        assertTrue(audit.path("alerts").toString().contains("Chain intact"), audit.path("alerts")::toString);
        JsonNode mine = audit.path("reviewerPage");
        assertEquals("?caller=" + REVIEWER, mine.path("query").asText(), "picked with the page's own form");
        List<String> tools = new ArrayList<>();
        for (JsonNode row : mine.path("rows")) {
            // Row, When, Caller, Tool, Outcome, Refusal reasons, Role
            assertEquals(REVIEWER, row.path(2).asText(), row::toString);
            tools.add(row.path(3).asText() + " " + row.path(4).asText());
        }
        assertTrue(tools.contains(DraftReview.APPROVE + " success") && tools.contains(DraftReview.REJECT + " success"), tools::toString);
    }

    @Test
    void thePiiPageListsTheTagsAndNoPageShowsAPersonalValue() throws Exception {
        JsonNode pii = step("pii");
        assertEquals(200, pii.path("status").asInt());
        Map<String, JsonNode> tagged = new LinkedHashMap<>();
        pii.path("rows").forEach(r -> tagged.put(r.path(0).asText(), r));
        // Column, Sensitivity, Categories, Blocked, Tagged by, Evidence
        JsonNode card = tagged.get("main.payments.card_number");
        assertTrue(card != null && card.path(2).asText().contains("payment_card") && "yes".equals(card.path(3).asText()), tagged::toString);
        assertTrue(tagged.containsKey("main.users.email") && tagged.containsKey("main.users.password_hash"), tagged::toString);
        // Every value of every tagged column that is long enough to be telling, looked for in every page the browser read.
        List<String> values = new ArrayList<>();
        for (String column : tagged.keySet()) {
            String[] parts = column.split("\\.");
            values.addAll(query("SELECT DISTINCT \"" + parts[2] + "\" FROM \"" + parts[1] + "\" WHERE length(\"" + parts[2]
                    + "\") >= 6").keySet());
        }
        assertTrue(values.size() > 100, "the demo has personal values to look for: " + values.size());
        Map<String, String> pages = new LinkedHashMap<>();
        for (String page : List.of("signIn", "drafts", "approve", "reject", "audit", "pii", "crossSiteForm", "previewStatuses",
                "approveStatuses", "piiRetag", "roles")) {
            pages.put(page, step(page).path("html").asText());
        }
        // The team's pages, on another copy of the same demo database.
        step("team").fields().forEachRemaining(p -> pages.put("team " + p.getKey(), p.getValue().path("html").asText()));
        for (Map.Entry<String, String> p : pages.entrySet()) {
            String page = p.getKey();
            String html = p.getValue();
            assertFalse(html.isEmpty(), page);
            for (String v : values) {
                assertFalse(html.contains(v) || html.contains(Html.esc(v)), page + " shows a value of a PII column");
            }
        }
    }

    @Test
    void anotherPageOnThisMachineCannotApproveThroughTheSignedInBrowser() throws Exception {
        JsonNode attack = step("crossSiteForm");
        assertEquals(403, attack.path("status").asInt(), attack.path("alerts")::toString);
        assertTrue(attack.path("alerts").toString().contains("another origin"), attack.path("alerts")::toString);
        assertTrue(attack.path("stillADraft").asBoolean(), "still listed as a draft");
        assertEquals(ValidationState.DRAFT, stored().metric(UNTOUCHED).orElseThrow().origin().state());
    }

    @Test
    void aBrowserWithoutTheTokenGetsTheSignInPage() {
        JsonNode without = step("withoutToken");
        without.path("pages").fields().forEachRemaining(p -> {
            assertEquals(401, p.getValue().path("status").asInt(), p.getKey());
            assertEquals("Sign in", p.getValue().path("h1").asText(), p.getKey());
            assertEquals(1, p.getValue().path("tokenField").asInt(), p.getKey());
        });
        assertEquals(3, without.path("pages").size());
        JsonNode spent = without.path("spentToken");
        assertEquals(401, spent.path("status").asInt(), "the printed URL signs in once");
        assertEquals(0, spent.path("cookies").asInt());
        assertTrue(spent.path("alerts").toString().contains("wrong or was already used"), spent::toString);
    }

    @Test
    void aTeamsAnalystGets403AndItsReviewerTheDrafts() {
        JsonNode team = step("team");
        JsonNode analyst = team.path("analyst");
        assertEquals(403, analyst.path("status").asInt(), analyst::toString);
        assertTrue(analyst.path("alerts").toString().contains("The role analyst does not review; only the role lead may review"
                + " in the console."), analyst.path("alerts")::toString);
        assertEquals(0, analyst.path("cookies").asInt(), "no session for the analyst");
        JsonNode lead = team.path("reviewer");
        assertEquals(200, lead.path("status").asInt(), lead::toString);
        assertEquals("Drafts to review", lead.path("h1").asText());
        assertTrue(lead.path("path").asText().startsWith("/console/"), lead::toString);
        assertEquals(24, lead.path("drafts").asInt(), "the other copy of the demo: every draft still to review");
        assertTrue(lead.path("html").asText().contains("token:ann"), "signed in under the token's own identity");
        for (String secret : List.of(leadToken, analystToken)) {
            assertFalse(analyst.path("html").asText().contains(secret) || lead.path("html").asText().contains(secret));
            assertTrue(serveLog.stream().noneMatch(line -> line.contains(secret)), "a token reached serve's log");
        }
    }

    @Test
    void eachPageHasAFullPageScreenshot() throws IOException {
        step("team");   // the last step: every screenshot is taken by then
        for (String name : List.of("drafts", "approved", "rejected", "rejected-list", "audit", "audit-reviewer", "pii",
                "cross-site-refused", "preview", "approved-statuses", "pii-retagged", "roles", "signin", "team-403", "team-drafts")) {
            Path png = SCREENSHOTS.resolve(name + ".png");
            assertTrue(Files.exists(png), png::toString);
            byte[] bytes = Files.readAllBytes(png);
            assertTrue(bytes.length > 5_000 && bytes[1] == 'P' && bytes[2] == 'N' && bytes[3] == 'G', name);
        }
        // Full page: the drafts page is far taller than the 900-pixel window (the PNG's height is at bytes 20..23).
        byte[] drafts = Files.readAllBytes(SCREENSHOTS.resolve("drafts.png"));
        int height = ByteBuffer.wrap(drafts, 20, 4).getInt();
        assertTrue(height > 5_000, "drafts.png is " + height + " pixels high");
    }

    // ---- helpers ----

    /** A step's record, or a failure naming the step the script stopped at. */
    static JsonNode step(String name) {
        JsonNode failed = result.path("failed");
        assertTrue(result.has(name), () -> "the browser script did not reach " + name
                + (failed.isMissingNode() ? "" : ": step " + failed.path("step").asText() + " failed: " + failed.path("message").asText())
                + "\nconsole log:\n" + String.join("\n", consoleLog));
        return result.get(name);
    }

    /** playwright-core at its pinned version in target/console-e2e, unless it is already there. */
    static void installPlaywright() throws Exception {
        Path manifest = NODE_DIR.resolve("node_modules/playwright-core/package.json");
        if (Files.exists(manifest) && PLAYWRIGHT_CORE.equals(JSON.readTree(manifest.toFile()).path("version").asText())) {
            return;
        }
        Files.createDirectories(NODE_DIR);
        Path log = NODE_DIR.resolve("npm-install.log");
        Process npm;
        try {
            npm = new ProcessBuilder("npm", "install", "--no-audit", "--no-fund", "--save-exact", "--prefix", NODE_DIR.toString(),
                    "playwright-core@" + PLAYWRIGHT_CORE).directory(NODE_DIR.toFile()).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).start();
        } catch (IOException e) {
            throw new AssertionError("npm is not installed: run 'apt-get install -y nodejs npm' (as .ci/run does), then rerun.", e);
        }
        if (!npm.waitFor(5, TimeUnit.MINUTES) || npm.exitValue() != 0) {
            npm.destroyForcibly();
            fail("npm could not install playwright-core@" + PLAYWRIGHT_CORE + " (it needs the npm registry): "
                    + Files.readString(log, StandardCharsets.UTF_8));
        }
    }

    /**
     * Starts the packaged jar with {@code args} in {@code workDir}, its stderr kept in {@code log}; returns the first
     * line (of stdout or stderr) matching {@code printed}, once it is printed.
     */
    static Matcher startJar(Path workDir, Pattern printed, List<String> log, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
                Path.of(System.getProperty("schemabrain.jar", "target/schemabrain.jar")).toAbsolutePath().toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).directory(workDir.toFile()).redirectError(ProcessBuilder.Redirect.PIPE).start();
        started.add(p);
        CompletableFuture<Matcher> url = new CompletableFuture<>();
        Consumer<String> match = line -> {
            Matcher m = printed.matcher(line);
            if (m.find()) {
                url.complete(m);
            }
        };
        read(p.getInputStream(), match, url);
        read(p.getErrorStream(), line -> {
            log.add(line);
            match.accept(line);
        }, url);
        try {
            return url.get(120, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError("schemabrain " + args[0] + " printed no URL: " + log, e);
        }
    }

    private static void read(InputStream in, Consumer<String> onLine, CompletableFuture<?> url) {
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    onLine.accept(line);
                }
            } catch (IOException e) {
                url.completeExceptionally(e);
            }
            url.completeExceptionally(new IllegalStateException("the process ended"));
        }, "console-output");
        t.setDaemon(true);
        t.start();
    }

    /** Runs the script with the machine's Node.js; its one JSON line. */
    static JsonNode runNode(List<String> args) throws Exception {
        List<String> command = new ArrayList<>(List.of("node"));
        command.addAll(args);
        Path out = dir.resolve("node.out");
        Path err = dir.resolve("node.err");
        Process node;
        try {
            node = new ProcessBuilder(command).directory(NODE_DIR.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        } catch (IOException e) {
            throw new AssertionError("Node.js is not installed: run 'apt-get install -y nodejs npm' (as .ci/run does), then rerun.", e);
        }
        if (!node.waitFor(5, TimeUnit.MINUTES)) {
            node.destroyForcibly();
            fail("the browser script did not finish within 5 minutes: " + Files.readString(err, StandardCharsets.UTF_8));
        }
        String stdout = Files.readString(out, StandardCharsets.UTF_8).strip();
        assertEquals(0, node.exitValue(), () -> "the browser script failed: " + read(err) + "\n" + stdout);
        return JSON.readTree(stdout.substring(stdout.lastIndexOf('\n') + 1));
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return e.toString();
        }
    }

    /** The store as the console left it. */
    static SemanticModel stored() throws Exception {
        try (Store s = Stores.open(new StoreLocation.SqliteFile(dir.resolve("schemabrain.demo.db")))) {
            return s.read(SemanticLayer::stored);
        }
    }

    /** The console's --pii-policy file. */
    static Path piiPolicy() {
        return dir.resolve("pii_policy.yaml");
    }

    /** Whether the store's audit chain has a successful {@code tool} row whose caller is the reviewer. */
    static boolean audited(String tool) throws Exception {
        try (AuditLog log = AuditLog.openExisting(new StoreLocation.SqliteFile(dir.resolve("schemabrain.demo.db")))) {
            List<AuditRecord> rows = log.list(10_000, OptionalLong.empty());
            return rows.stream().anyMatch(r -> r.entry().tool().equals(tool) && REVIEWER.equals(r.entry().caller())
                    && "success".equals(r.entry().status()));
        }
    }

    /** The sum of invoices' tax by month of 2024, counting the statuses given, written by hand. */
    static Map<String, String> taxByMonth(List<String> statuses) throws Exception {
        return query("SELECT strftime('%Y-%m-01', issued_at), SUM(tax_cents) FROM invoices WHERE status IN ('"
                + String.join("', '", statuses) + "') AND issued_at >= '2024-01-01' AND issued_at < '2025-01-01'"
                + " GROUP BY 1 ORDER BY 1");
    }

    /** Two columns of the demo database: the first as key, the second (if any) as value. */
    static Map<String, String> query(String sql) throws Exception {
        Map<String, String> out = new LinkedHashMap<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("schemabrain-demo.sqlite"));
             Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                out.put(rs.getString(1), rs.getMetaData().getColumnCount() > 1 ? rs.getString(2) : "");
            }
        }
        return out;
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
