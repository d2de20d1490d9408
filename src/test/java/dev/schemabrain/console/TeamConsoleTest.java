package dev.schemabrain.console;

import dev.schemabrain.access.AccessPolicySource;
import dev.schemabrain.access.Caller;
import dev.schemabrain.audit.ArgsHash;
import dev.schemabrain.audit.AuditDurability;
import dev.schemabrain.audit.AuditKey;
import dev.schemabrain.auth.AuthFilter;
import dev.schemabrain.auth.BearerTokens;
import dev.schemabrain.auth.FileTokens;
import dev.schemabrain.auth.JwtSettings;
import dev.schemabrain.auth.JwtVerifier;
import dev.schemabrain.catalog.ValidationState;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.execute.ExecutorSettings;
import dev.schemabrain.execute.QueryExecutor;
import dev.schemabrain.execute.SourceExecutors;
import dev.schemabrain.mcp.server.CallerRates;
import dev.schemabrain.mcp.server.ToolListing;
import dev.schemabrain.mcp.transport.http.HttpOptions;
import dev.schemabrain.semantic.model.SemanticModel;
import dev.schemabrain.serve.ServeLifecycle;
import dev.schemabrain.serve.ServeSettings;
import dev.schemabrain.store.StoreLocation;
import dev.schemabrain.testing.InProcessCli;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The console served for a team beside /mcp by a whole serve on the indexed demo database, over real HTTP: a
 * reviewer role's token signs in and approves a draft under its own identity; other roles get 403, a bad
 * credential 401; no console route answers without a session; forms need their CSRF token and this origin; /mcp
 * still answers beside it with its own authentication; a policy reload that takes the reviewer key away ends the
 * session. The CLI refuses --console without a reviewer role, authentication or HTTP.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TeamConsoleTest {

    private static final Pattern CSRF = Pattern.compile("name=\"csrf\" value=\"([^\"]+)\"");
    private static final String POLICY = """
            version: 1
            roles:
              lead:
                allow: [main.*]
                reviewer: true
              analyst:
                allow: [main.*]
            default_role: lead
            """;
    /** A draft the refused forms must leave a draft. */
    private static final String UNTOUCHED = "invoices_total_cents_sum";

    @TempDir
    static Path dir;

    static Path storeFile;
    static StoreLocation store;
    static AuditKey key;
    static Path policy;
    static String lead;
    static String analyst;
    static String roleless;
    static QueryExecutor executor;
    static ServeLifecycle serve;
    static CompletableFuture<Void> running;
    static HttpClient http;
    static com.nimbusds.jose.jwk.RSAKey rsa;
    private static final String ISSUER = "https://id.example.com";
    static ConsoleClient client;

    @BeforeAll
    static void serveWithTheConsole() throws Exception {
        Path database = dir.resolve("demo.sqlite");
        storeFile = dir.resolve("store.db");
        SourceUrl url = DemoConsole.indexedDemo(database, storeFile);
        store = new StoreLocation.SqliteFile(storeFile);
        key = DemoConsole.randomKey();
        policy = dir.resolve("policy.yaml");
        writePolicy(POLICY);
        FileTokens tokens = new FileTokens(dir.resolve("tokens.json"));
        lead = tokens.create("lead-ann", Optional.of("lead"), Map.of());
        analyst = tokens.create("bob", Optional.of("analyst"), Map.of());
        roleless = tokens.create("ci");
        rsa = new com.nimbusds.jose.jwk.gen.RSAKeyGenerator(2048).keyID("k1").generate();
        Path jwks = dir.resolve("jwks.json");
        Files.writeString(jwks, new com.nimbusds.jose.jwk.JWKSet(List.of(rsa)).toPublicJWKSet().toString(false));
        AuthFilter verifier = new AuthFilter(Optional.of(new BearerTokens(tokens)), Optional.of(JwtVerifier.of(
                new JwtSettings(jwks.toString(), ISSUER, "schemabrain", Optional.empty()))));
        AccessPolicySource policySource = AccessPolicySource.open(policy);
        executor = new QueryExecutor(url, ExecutorSettings.defaults());
        ServeSettings settings = new ServeSettings(store, Optional.empty(), Optional.of(key), Optional.empty(),
                AuditDurability.EVERY_ROW, CallerRates.OFF, 2, 5, ToolListing.FULL, Duration.ZERO, "test",
                Optional.of(HttpOptions.loopback().withAuthFilter(verifier)))
                .withAccessPolicy(policySource, Caller.named("stdio"))
                // As serve --console builds it; the demo's data ends on 2025-01-01.
                .withBeside(TeamConsole.beside(store, key, verifier, policySource, LocalDate.of(2025, 1, 1)));
        serve = new ServeLifecycle(settings, SourceExecutors.of(Optional.of(executor)), InputStream.nullInputStream(),
                new PrintStream(OutputStream.nullOutputStream()), new PrintWriter(new StringWriter(), true),
                () -> "SIGTERM", () -> false);
        serve.start();
        running = CompletableFuture.runAsync(() -> {
            try {
                serve.run();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
        client = new ConsoleClient(http, "http://127.0.0.1:" + serve.port().getAsInt());
    }

    @AfterAll
    static void stop() throws Exception {
        if (serve != null) {
            serve.stopNow();
            running.get(30, TimeUnit.SECONDS);
        }
        if (executor != null) {
            executor.close();
        }
    }

    static void writePolicy(String text) throws Exception {
        Path next = dir.resolve("policy.next");
        Files.writeString(next, text);
        Files.setPosixFilePermissions(next, PosixFilePermissions.fromString("rw-------"));
        Files.move(next, policy, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    static URI at(String path) {
        return URI.create("http://127.0.0.1:" + serve.port().getAsInt() + path);
    }

    /** Signs in with {@code credential}; the session cookie as the browser sends it back. */
    static String signIn(String credential) throws Exception {
        HttpResponse<String> r = client.post("/console/login", null, Map.of("credential", credential), null);
        assertEquals(303, r.statusCode(), r.body());
        assertEquals("/console/", r.headers().firstValue("Location").orElseThrow());
        String set = r.headers().firstValue("Set-Cookie").orElseThrow();
        assertTrue(set.contains("HttpOnly") && set.contains("SameSite=Strict") && set.contains("Path=/console/"), set);
        assertFalse(set.contains("Secure"), "plain HTTP here: a Secure cookie would never come back");
        assertFalse(set.contains(credential), "the credential is not the session");
        return set.substring(0, set.indexOf(';'));
    }

    static String csrf(String cookie) throws Exception {
        Matcher m = CSRF.matcher(client.get("/console/", cookie).body());
        assertTrue(m.find(), "the drafts page has a form token");
        return m.group(1);
    }

    @Test
    @Order(1)
    void aReviewersTokenSignsInAndApprovesUnderItsOwnIdentity() throws Exception {
        HttpResponse<String> form = client.get("/console/login", null);
        assertEquals(200, form.statusCode());
        assertTrue(form.body().contains("name=\"credential\"") && form.body().contains("action=\"login\""), form.body());
        assertEquals(303, client.get("/console", null).statusCode(), "the prefix without its slash leads to it");
        HttpResponse<String> proxied = http.send(HttpRequest.newBuilder(at("/console/login"))
                .header("Content-Type", "application/x-www-form-urlencoded").header("X-Forwarded-Proto", "https")
                .POST(HttpRequest.BodyPublishers.ofString("credential=" + lead)).build(), HttpResponse.BodyHandlers.ofString());
        assertTrue(proxied.headers().firstValue("Set-Cookie").orElseThrow().contains("; Secure"), "HTTPS at the proxy");

        String cookie = signIn(lead);
        HttpResponse<String> drafts = client.get("/console/", cookie);
        assertEquals(200, drafts.statusCode(), drafts.body());
        assertTrue(drafts.body().contains("Signed in as token:lead-ann."), "the identity from the credential");
        assertFalse(drafts.body().contains(lead), "the credential never reaches a page");
        assertTrue(drafts.body().contains("id=\"m-users_count\""), "drafts answered by get_metric on the demo");
        for (String page : List.of("/console/", "/console/audit", "/console/pii")) {
            String body = client.get(page, cookie).body();
            assertFalse(Pattern.compile("(href|action)=\"/").matcher(body).find(), page + " links outside the prefix");
        }

        String metric = "users_count";
        HttpResponse<String> r = client.post("/console/approve", cookie, Map.of("metric", metric, "csrf", csrf(cookie)), null);
        assertEquals(200, r.statusCode(), r.body());
        SemanticModel model = DemoConsole.stored(store);
        assertEquals(ValidationState.CONFIRMED, model.metric(metric).orElseThrow().origin().state());
        assertEquals("token:lead-ann", model.review(metric).orElseThrow().by());
        assertTrue(DemoConsole.auditRows(store).stream().anyMatch(row -> row.entry().tool().equals(DraftReview.APPROVE)
                && "token:lead-ann".equals(row.entry().caller())
                && ArgsHash.of(key, Map.of("name", metric)).equals(row.entry().argsHash())), "the audit row names the caller");
        String audit = client.get("/console/audit?caller=token:lead-ann", cookie).body();
        assertTrue(audit.contains(DraftReview.APPROVE) && audit.contains("Chain intact"), audit);
    }

    @Test
    @Order(2)
    void aRoleThatDoesNotReviewIsForbiddenAndABadCredentialUnauthorized() throws Exception {
        for (String credential : List.of(analyst, roleless)) {
            HttpResponse<String> r = client.post("/console/login", null, Map.of("credential", credential), null);
            assertEquals(403, r.statusCode(), r.body());
            assertTrue(r.body().contains("only the role lead may review in the console."), r.body());
            assertTrue(r.headers().firstValue("Set-Cookie").isEmpty());
        }
        assertTrue(client.post("/console/login", null, Map.of("credential", analyst), null).body()
                .contains("The role analyst does not review"));
        assertTrue(client.post("/console/login", null, Map.of("credential", roleless), null).body()
                .contains("A credential without a role does not review"), "default_role lead makes no reviewer");
        String forged = lead.substring(0, lead.length() - 2) + (lead.endsWith("AA") ? "BB" : "AA");
        for (Map<String, String> form : List.of(Map.of("credential", forged), Map.of("credential", ""), Map.<String, String>of(),
                Map.of("credential", "eyJhbGciOiJub25lIn0.eyJzdWIiOiJsZWFkIn0."))) {
            HttpResponse<String> r = client.post("/console/login", null, form, null);
            assertEquals(401, r.statusCode(), form + ": " + r.body());
            assertTrue(r.headers().firstValue("Set-Cookie").isEmpty());
        }
    }

    /** An access token from the authorization server, signed by {@code key}, for {@code sub} with {@code roles}. */
    static String jwt(com.nimbusds.jose.jwk.RSAKey key, String sub, List<String> roles) throws Exception {
        com.nimbusds.jwt.SignedJWT jwt = new com.nimbusds.jwt.SignedJWT(new com.nimbusds.jose.JWSHeader.Builder(
                com.nimbusds.jose.JWSAlgorithm.RS256).keyID(key.getKeyID()).build(), new com.nimbusds.jwt.JWTClaimsSet.Builder()
                .issuer(ISSUER).audience("schemabrain").subject(sub).claim("roles", roles)
                .expirationTime(new Date(System.currentTimeMillis() + 600_000)).build());
        jwt.sign(new com.nimbusds.jose.crypto.RSASSASigner(key));
        return jwt.serialize();
    }

    @Test
    @Order(2)
    void aJwtSignsInAsServeWouldAcceptItOverMcp() throws Exception {
        String cookie = signIn(jwt(rsa, "carol", List.of("lead")));
        assertTrue(client.get("/console/", cookie).body().contains("Signed in as jwt:" + ISSUER + "#carol."));
        HttpResponse<String> analystJwt = client.post("/console/login", null, Map.of("credential",
                jwt(rsa, "dave", List.of("analyst"))), null);
        assertEquals(403, analystJwt.statusCode(), analystJwt.body());
        com.nimbusds.jose.jwk.RSAKey impostor = new com.nimbusds.jose.jwk.gen.RSAKeyGenerator(2048).keyID("k1").generate();
        assertEquals(401, client.post("/console/login", null, Map.of("credential", jwt(impostor, "carol", List.of("lead"))),
                null).statusCode(), "signed by another key");
    }

    @Test
    @Order(3)
    void noConsoleRouteAnswersWithoutASession() throws Exception {
        for (String path : List.of("/console/", "/console/audit", "/console/pii", "/console/audit?caller=token:lead-ann",
                "/console/no-such-page")) {
            for (String c : Arrays.asList(null, "schemabrain_console=forged", "schemabrain_console=")) {
                HttpResponse<String> r = client.get(path, c);
                assertEquals(401, r.statusCode(), path + " " + c);
                assertTrue(r.body().contains("name=\"credential\""), path + ": the answer is the sign-in page");
            }
        }
        for (String path : List.of("/console/approve", "/console/reject")) {
            for (String c : Arrays.asList(null, "schemabrain_console=forged")) {
                assertEquals(401, client.post(path, c, Map.of("metric", UNTOUCHED, "csrf", "x"), null).statusCode(), path);
            }
        }
        // The bearer header is /mcp's way in, never the console's: without the session cookie it is still 401.
        HttpResponse<String> bearer = http.send(HttpRequest.newBuilder(at("/console/")).header("Authorization", "Bearer " + lead)
                .GET().build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(401, bearer.statusCode());
        assertEquals(ValidationState.DRAFT, DemoConsole.stored(store).metric(UNTOUCHED).orElseThrow().origin().state());
    }

    @Test
    @Order(4)
    void aFormWithoutItsTokenOrFromAnotherOriginIsRefused() throws Exception {
        String cookie = signIn(lead);
        for (Map<String, String> form : List.of(Map.of("metric", UNTOUCHED), Map.of("metric", UNTOUCHED, "csrf", "not-it"))) {
            for (String path : List.of("/console/approve", "/console/reject")) {
                HttpResponse<String> r = client.post(path, cookie, form, null);
                assertEquals(403, r.statusCode(), path + " " + form);
                assertTrue(r.body().contains("security token is missing or wrong"), r.body());
            }
        }
        String other = signIn(lead);
        HttpResponse<String> crossed = client.post("/console/approve", cookie, Map.of("metric", UNTOUCHED, "csrf", csrf(other)), null);
        assertEquals(403, crossed.statusCode(), "one session's form token is no good in another");
        HttpResponse<String> evil = client.post("/console/approve", cookie, Map.of("metric", UNTOUCHED, "csrf", csrf(cookie)),
                "http://evil.example");
        assertEquals(403, evil.statusCode(), evil.body());
        String port = ":" + serve.port().getAsInt();
        HttpResponse<String> lookalike = client.post("/console/approve", cookie, Map.of("metric", UNTOUCHED, "csrf", csrf(cookie)),
                "http://localhost" + port);
        assertEquals(403, lookalike.statusCode(), "an allowed loopback origin, but not this one: " + lookalike.body());
        assertTrue(lookalike.body().contains("another origin"), lookalike.body());
        HttpResponse<String> login = client.post("/console/login", null, Map.of("credential", lead), "http://evil.example");
        assertEquals(403, login.statusCode(), "no other site signs a browser in");
        assertEquals(ValidationState.DRAFT, DemoConsole.stored(store).metric(UNTOUCHED).orElseThrow().origin().state());
        HttpResponse<String> same = client.post("/console/reject", cookie, Map.of("metric", "no_such_metric", "csrf", csrf(cookie)),
                "http://127.0.0.1" + port);
        assertEquals(409, same.statusCode(), "this origin passes, to the store's own refusal: " + same.body());
    }

    @Test
    @Order(5)
    void mcpStillAnswersBesideItBehindItsOwnAuthentication() throws Exception {
        String initialize = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";
        HttpRequest.Builder b = HttpRequest.newBuilder(at("/mcp")).header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream").POST(HttpRequest.BodyPublishers.ofString(initialize));
        HttpResponse<String> ok = http.send(b.copy().header("Authorization", "Bearer " + analyst).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, ok.statusCode(), ok.body());
        assertTrue(ok.body().contains("\"serverInfo\""), ok.body());
        String cookie = signIn(lead);
        assertEquals(401, http.send(b.copy().header("Cookie", cookie).build(), HttpResponse.BodyHandlers.ofString()).statusCode(),
                "a console session is no credential for /mcp");
    }

    @Test
    @Order(99)
    void aSessionEndsWhenAReloadTakesTheReviewerKeyAway() throws Exception {
        String cookie = signIn(lead);
        assertEquals(200, client.get("/console/audit", cookie).statusCode());
        try {
            writePolicy(POLICY.replace("    reviewer: true\n", ""));
            Thread.sleep(1_200);   // the policy is looked at again at most once a second
            HttpResponse<String> r = client.get("/console/audit", cookie);
            assertEquals(403, r.statusCode(), r.body());
            assertTrue(r.body().contains("The role lead does not review; the access policy now marks no role reviewer: true."),
                    r.body());
            assertEquals(401, client.get("/console/audit", cookie).statusCode(), "the session is gone");
            assertEquals(403, client.post("/console/login", null, Map.of("credential", lead), null).statusCode());
        } finally {
            writePolicy(POLICY);
        }
    }

    @Test
    @Order(98)
    void aSessionEndsWhenItsTokenIsRevoked() throws Exception {
        FileTokens tokens = new FileTokens(dir.resolve("tokens.json"));
        String eve = tokens.create("eve", Optional.of("lead"), Map.of());
        Thread.sleep(1_200);   // the tokens are reread at most once a second
        String cookie = signIn(eve);
        String jwtCookie = signIn(jwt(rsa, "carol", List.of("lead")));
        assertEquals(200, client.get("/console/pii", cookie).statusCode());
        tokens.revoke("eve");
        Thread.sleep(1_200);   // the tokens are reread at most once a second
        HttpResponse<String> r = client.get("/console/pii", cookie);
        assertEquals(403, r.statusCode(), r.body());
        assertTrue(r.body().contains("was revoked or changed; sign in again."), r.body());
        assertEquals(401, client.get("/console/pii", cookie).statusCode(), "the session is gone");
        assertEquals(401, client.post("/console/login", null, Map.of("credential", eve), null).statusCode());
        assertEquals(200, client.get("/console/pii", jwtCookie).statusCode(), "another caller's session goes on");
    }

    @Test
    void consoleRefusesToStartWithoutAReviewerRoleAuthenticationOrHttp() throws Exception {
        Path tokensFile = dir.resolve("cli-tokens.json");
        new FileTokens(tokensFile).create("someone", Optional.of("analyst"), Map.of());
        Path noReviewer = dir.resolve("no-reviewer.yaml");
        Files.writeString(noReviewer, "version: 1\nroles:\n  analyst: {allow: [main.*]}\n");
        Files.setPosixFilePermissions(noReviewer, PosixFilePermissions.fromString("rw-------"));
        Map<String, String> env = Map.of("HOME", dir.toString(), "XDG_CONFIG_HOME", dir.resolve(".config").toString());
        Map<List<String>, String> cases = new LinkedHashMap<>();
        cases.put(List.of("--tokens-file", tokensFile.toString()), "--console needs an --access-policy with at least one role"
                + " marked reviewer: true");
        cases.put(List.of("--tokens-file", tokensFile.toString(), "--access-policy", noReviewer.toString()),
                "--console needs an --access-policy with at least one role marked reviewer: true");
        cases.put(List.of("--access-policy", policy.toString()), "--console needs authentication");
        for (Map.Entry<List<String>, String> c : cases.entrySet()) {
            List<String> args = new ArrayList<>(List.of("--store", storeFile.toString(), "serve", "--transport", "http",
                    "--port", "0", "--console"));
            args.addAll(c.getKey());
            InProcessCli.Result r = InProcessCli.run(env, args.toArray(String[]::new));
            assertEquals(2, r.exitCode(), c.getKey() + ": " + r.stderr());
            assertTrue(r.stderr().contains(c.getValue()), r.stderr());
            assertEquals(1, r.stderr().strip().lines().count(), "one sentence: " + r.stderr());
        }
        InProcessCli.Result stdio = InProcessCli.run(env, "--store", storeFile.toString(), "serve", "--console");
        assertEquals(2, stdio.exitCode(), stdio.stderr());
        assertTrue(stdio.stderr().contains("add --transport http"), stdio.stderr());
    }
}
