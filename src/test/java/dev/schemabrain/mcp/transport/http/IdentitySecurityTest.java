package dev.schemabrain.mcp.transport.http;

import dev.schemabrain.access.Access;
import java.time.Duration;
import dev.schemabrain.mcp.server.McpCore;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.schemabrain.audit.AuditEntry;
import dev.schemabrain.audit.AuditRecord;
import dev.schemabrain.auth.AuthFilter;
import dev.schemabrain.auth.BearerTokens;
import dev.schemabrain.auth.FileTokens;
import dev.schemabrain.auth.JwtSettings;
import dev.schemabrain.auth.JwtVerifier;
import dev.schemabrain.mcp.server.DispatchCapacity;
import dev.schemabrain.mcp.server.CallerRates;
import dev.schemabrain.mcp.server.RateLimit;
import dev.schemabrain.mcp.server.ToolListing;
import dev.schemabrain.mcp.transport.stdio.StdioServer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 29, identity and HTTP: who a caller is comes from its credential only (never its clientInfo or
 * session id), token and JWT callers of the same name stay apart, /health and /metrics get the same
 * Host/Origin checks as /mcp and /metrics a credential or its own listener, a 429 is audited, and no
 * tool's error message echoes control or formatting characters. Each test writes its cases held / total
 * to target/security/identity.txt.
 */
class IdentitySecurityTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String ISSUER = "https://auth.example.test/";
    private static final String AUDIENCE = "https://schemabrain.example.test/mcp";
    /** NUL, CR LF, an ANSI colour escape, RTL override, zero-width space and joiner, a BOM. */
    static final String HOSTILE = "main.x\u0000y\r\nz\u001b[31mred\u202Eevil\u200Bzw\u200D\uFEFF";

    @TempDir
    static Path dir;
    static String aliceToken;
    static String aliceJwt;
    static AuthFilter auth;

    @BeforeAll
    static void credentials() throws Exception {
        FileTokens tokens = new FileTokens(dir.resolve("tokens.json"));
        aliceToken = tokens.create("alice");
        RSAKey key = new RSAKeyGenerator(2048).keyID("k1").generate();
        Path jwks = dir.resolve("jwks.json");
        Files.writeString(jwks, new JWKSet(key).toPublicJWKSet().toString());
        Date now = new Date();
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("k1").type(JOSEObjectType.JWT).build(),
                new JWTClaimsSet.Builder().issuer(ISSUER).audience(AUDIENCE).subject("alice").issueTime(now)
                        .expirationTime(new Date(now.getTime() + 600_000)).build());
        jwt.sign(new RSASSASigner(key));
        aliceJwt = jwt.serialize();
        auth = new AuthFilter(Optional.of(new BearerTokens(tokens)),
                Optional.of(JwtVerifier.of(new JwtSettings(jwks.toString(), ISSUER, AUDIENCE, Optional.empty()))));
    }

    // ---- 1. the client does not name itself ----

    @Test
    void aNewSessionOrClientNameNeitherResetsTheMetricRateNorChangesTheAuditCaller() throws Exception {
        // --metric-rate-limit 1/min, burst 2: eight get_metric calls, each under a new session and client name.
        try (HttpFixture server = HttpFixture.start(HttpOptions.loopback().withAuthFilter(auth), new RateLimit(1.0 / 60, 2))) {
            long baseline = server.lastRows(1).stream().mapToLong(AuditRecord::id).max().orElse(0);
            int ran = 0;
            for (int i = 0; i < 8; i++) {
                JsonNode envelope = envelope(call(server, aliceToken, session("agent" + i + "/1"), 100 + i, "get_metric",
                        Map.of("name", "payments_count")));
                if (envelope.path("status").asText().equals("success")) {
                    ran++;
                }
            }
            // A turned-away call's row is written just after its answer, on the dispatcher's own lane.
            List<AuditRecord> rows = List.of();
            for (int tries = 0; tries < 100 && rows.stream().filter(r -> r.entry().phase() != AuditEntry.Phase.STARTED).count() < 8; tries++) {
                Thread.sleep(tries == 0 ? 0 : 100);
                rows = server.lastRows(40).stream().filter(r -> r.id() > baseline).toList();
            }
            Set<String> callers = new HashSet<>();
            rows.forEach(r -> callers.add(r.entry().caller()));
            assertTrue(rows.size() >= 8, "every call has its row: " + rows.size());
            int held = (ran <= 2 ? 1 : 0) + (callers.size() == 1 ? 1 : 0);
            IdentityFigures.record("metric rate and audit caller across new sessions", held, 2);
            assertTrue(ran <= 2, ran + " of 8 get_metric calls ran under a 1/min, burst 2 limit");
            assertEquals(Set.of("token:alice"), callers, "one credential, one caller");
        }
    }

    @Test
    void catalogProbesPastTheCallersBudgetAreRefusedAndRecordedAcrossSessions() throws Exception {
        // Item 12: a value-index probe (does this name exist?) has a per-caller ceiling, whatever the session.
        try (HttpFixture server = HttpFixture.start(HttpOptions.loopback().withAuthFilter(auth),
                new CallerRates(RateLimit.OFF, new RateLimit(1.0 / 60, 5)))) {
            long baseline = server.lastRows(1).stream().mapToLong(AuditRecord::id).max().orElse(0);
            int answered = 0;
            int refused = 0;
            for (int i = 0; i < 30; i++) {
                JsonNode envelope = envelope(call(server, aliceToken, session("probe" + i + "/1"), 300 + i,
                        "find_relevant_tables", Map.of("query", "customer named Person" + i)));
                switch (envelope.path("status").asText()) {
                    case "success", "partial" -> answered++;
                    case "refused" -> {
                        assertEquals("policy_blocked", envelope.path("error").path("kind").asText(), envelope.toString());
                        refused++;
                    }
                    default -> throw new AssertionError(envelope.toString());
                }
            }
            List<AuditRecord> rows = List.of();
            for (int tries = 0; tries < 100 && rows.size() < 30; tries++) {
                Thread.sleep(tries == 0 ? 0 : 100);
                rows = server.lastRows(60).stream().filter(r -> r.id() > baseline)
                        .filter(r -> r.entry().tool().equals("find_relevant_tables")).toList();
            }
            boolean bobServed = envelope(call(server, aliceJwt, null, 400, "find_relevant_tables", Map.of("query", "payments")))
                    .path("status").asText().equals("success");
            int held = (answered == 5 ? 1 : 0) + (refused == 25 ? 1 : 0) + (rows.size() == 30 ? 1 : 0) + (bobServed ? 1 : 0);
            IdentityFigures.record("catalog budget across new sessions (answered, refused, audited, other caller)", held, 4);
            assertEquals(5, answered, "the burst, then nothing under 1/min");
            assertEquals(25, refused);
            assertEquals(30, rows.size(), "every probe has its audit row, refused or not");
            assertTrue(bobServed, "another caller (the JWT's, a different credential) has its own budget");
        }
    }

    @Test
    void aNewSessionOrClientNameDoesNotResetTheRequestRate() throws Exception {
        // --rate-limit 1/min, burst 2.
        try (HttpFixture server = HttpFixture.start(HttpOptions.loopback().withAuthFilter(auth)
                .withCallerRate(new RateLimit(1.0 / 60, 2)))) {
            int served = 0;
            for (int i = 0; i < 8; i++) {
                if (post(server, aliceToken, session("agent" + i + "/1"), toolsCall(200 + i, "list_metrics", Map.of()))
                        .statusCode() == 200) {
                    served++;
                }
            }
            IdentityFigures.record("request rate across new sessions", served <= 2 ? 1 : 0, 1);
            assertTrue(served <= 2, served + " of 8 requests served under a 1/min, burst 2 limit");
        }
    }

    @Test
    void overStdioTheClientsInitializeNameIsNotTheCaller() throws Exception {
        // One process, one caller: whoever launched it. A name the client makes up names no one.
        try (HttpFixture fixture = HttpFixture.start(HttpOptions.loopback())) {
            long baseline = fixture.lastRows(1).stream().mapToLong(AuditRecord::id).max().orElse(0);
            String in = "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                    + "\"capabilities\":{},\"clientInfo\":{\"name\":\"token:admin\",\"version\":\"1\"}}}\n"
                    + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n"
                    + JSON.writeValueAsString(toolsCall(1, "list_metrics", Map.of())) + "\n"
                    + JSON.writeValueAsString(toolsCall(2, "no_such_tool", Map.of())) + "\n";
            StdioServer.run(McpCore.of(fixture.registry, DispatchCapacity.forMaxConcurrentQueries(2), CallerRates.OFF, ToolListing.FULL, Optional::empty,
                    "test"), Duration.ZERO, () -> Access.UNRESTRICTED,
                    new ByteArrayInputStream(in.getBytes(StandardCharsets.UTF_8)),
                    new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
            List<AuditRecord> rows = fixture.lastRows(20).stream().filter(r -> r.id() > baseline).toList();
            long held = rows.stream().filter(r -> r.entry().caller().equals("stdio")).count();
            IdentityFigures.record("stdio audit caller is not the client's name", (int) held, 2);
            assertEquals(2, rows.size(), rows::toString);
            assertEquals(2, held, rows::toString);
        }
    }

    // ---- 2. a token and a JWT of the same name are two callers ----

    @Test
    void aTokenAndAJwtOfTheSameNameAreDifferentCallers() throws Exception {
        try (HttpFixture server = HttpFixture.start(HttpOptions.loopback().withAuthFilter(auth)
                .withCallerRate(new RateLimit(1.0 / 60, 1)))) {
            HttpResponse<String> byToken = post(server, aliceToken, null, toolsCall(1, "list_metrics", Map.of()));
            String tokenCaller = server.lastRows(1).get(0).entry().caller();
            // The token's bucket is spent; the JWT's is its own.
            HttpResponse<String> byJwt = post(server, aliceJwt, null, toolsCall(2, "list_metrics", Map.of()));
            String jwtCaller = server.lastRows(1).get(0).entry().caller();
            int held = (byToken.statusCode() == 200 && byJwt.statusCode() == 200 ? 1 : 0)
                    + (!tokenCaller.equals(jwtCaller) ? 1 : 0) + (jwtCaller.contains(ISSUER) ? 1 : 0);
            IdentityFigures.record("token and JWT of one name kept apart", held, 3);
            assertEquals(200, byToken.statusCode(), byToken.body());
            assertEquals(200, byJwt.statusCode(), "the JWT caller has its own rate bucket: " + byJwt.body());
            assertEquals("token:alice", tokenCaller);
            assertEquals("jwt:" + ISSUER + "#alice", jwtCaller);
        }
    }

    @Test
    void aLongIssuerAndSubjectReachTheAuditRowWhole() throws Exception {
        String issuer = "https://login.example.test/tenants/" + "0123456789abcdef".repeat(4) + "/v2.0";
        String sub = "s".repeat(60);
        RSAKey key = new RSAKeyGenerator(2048).keyID("k2").generate();
        Path jwks = dir.resolve("jwks-long.json");
        Files.writeString(jwks, new JWKSet(key).toPublicJWKSet().toString());
        Date now = new Date();
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("k2").type(JOSEObjectType.JWT).build(),
                new JWTClaimsSet.Builder().issuer(issuer).audience(AUDIENCE).subject(sub).issueTime(now)
                        .expirationTime(new Date(now.getTime() + 600_000)).build());
        jwt.sign(new RSASSASigner(key));
        AuthFilter longIssuer = new AuthFilter(Optional.empty(),
                Optional.of(JwtVerifier.of(new JwtSettings(jwks.toString(), issuer, AUDIENCE, Optional.empty()))));
        try (HttpFixture server = HttpFixture.start(HttpOptions.loopback().withAuthFilter(longIssuer))) {
            call(server, jwt.serialize(), null, 1, "list_metrics", Map.of());
            String caller = server.lastRows(1).get(0).entry().caller();
            IdentityFigures.record("a long JWT identity is recorded whole", caller.equals("jwt:" + issuer + "#" + sub) ? 1 : 0, 1);
            assertEquals("jwt:" + issuer + "#" + sub, caller, "two such callers differing at the end stay two rows' callers");
        }
    }

    // ---- 3. /health and /metrics ----

    @Test
    void healthAndMetricsRefuseAReboundHostOrAForeignOrigin() throws Exception {
        try (HttpFixture server = HttpFixture.start(HttpOptions.loopback())) {
            int held = 0;
            int tried = 0;
            for (String path : List.of("/health", "/metrics", "/mcp")) {
                tried++;
                String status = rawGet(server.service.port(), path, "evil.example:" + server.service.port(), null);
                held += status.startsWith("HTTP/1.1 421") ? 1 : 0;
                assertTrue(status.startsWith("HTTP/1.1 421"), path + " under a rebound Host answered " + status);
                tried++;
                String origin = rawGet(server.service.port(), path, "127.0.0.1:" + server.service.port(), "https://evil.example");
                held += origin.startsWith("HTTP/1.1 403") ? 1 : 0;
                assertTrue(origin.startsWith("HTTP/1.1 403"), path + " from a foreign Origin answered " + origin);
            }
            IdentityFigures.record("observability endpoints behind the Host/Origin check", held, tried);
        }
    }

    @Test
    void withAuthenticationMetricsNeedACredentialAndHealthShowsOnlyLiveness() throws Exception {
        try (HttpFixture server = HttpFixture.start(HttpOptions.loopback().withAuthFilter(auth))) {
            HttpResponse<String> anonymousMetrics = get(server.url() + "/metrics", null);
            ByteArrayOutputStream log = new ByteArrayOutputStream();
            PrintStream err = System.err;
            System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
            HttpResponse<String> metrics;
            try {
                metrics = get(server.url() + "/metrics", aliceToken);
                Thread.sleep(300);   // a log line written after the answer left
            } finally {
                System.setErr(err);
            }
            // The request log names who read the figures, as it does on /mcp: not "anonymous" behind a credential.
            assertTrue(log.toString(StandardCharsets.UTF_8).contains("request caller=\"token:alice\" endpoint=\"GET /metrics\""),
                    log.toString(StandardCharsets.UTF_8));
            HttpResponse<String> anonymousHealth = get(server.url() + "/health", null);
            HttpResponse<String> health = get(server.url() + "/health", aliceJwt);
            int held = (anonymousMetrics.statusCode() == 401 ? 1 : 0) + (metrics.statusCode() == 200 ? 1 : 0)
                    + (anonymousHealth.statusCode() == 200 && !anonymousHealth.body().contains("observability") ? 1 : 0)
                    + (health.body().contains("observability") ? 1 : 0);
            IdentityFigures.record("metrics need a credential, health without one is liveness only", held, 4);
            assertEquals(401, anonymousMetrics.statusCode(), anonymousMetrics.body());
            assertEquals(200, metrics.statusCode(), metrics.body());
            assertEquals(200, anonymousHealth.statusCode(), anonymousHealth.body());
            assertEquals("ok", JSON.readTree(anonymousHealth.body()).path("status").asText());
            assertFalse(anonymousHealth.body().contains("observability"), anonymousHealth.body());
            assertTrue(health.body().contains("observability"), health.body());
        }
    }

    @Test
    void aSeparateMetricsListenerServesTheFiguresAndTheMainOneDoesNot() throws Exception {
        try (HttpFixture server = HttpFixture.start(HttpOptions.loopback().withAuthFilter(auth).withMetricsListen("127.0.0.1:0"))) {
            int metricsPort = server.service.metricsPort().orElseThrow();
            assertNotEquals(server.service.port(), metricsPort);
            HttpResponse<String> separate = get("http://127.0.0.1:" + metricsPort + "/metrics", null);
            HttpResponse<String> separateHealth = get("http://127.0.0.1:" + metricsPort + "/health", null);
            HttpResponse<String> main = get(server.url() + "/metrics", aliceToken);
            HttpResponse<String> mcpThere = get("http://127.0.0.1:" + metricsPort + "/mcp", null);
            int held = (separate.statusCode() == 200 ? 1 : 0) + (separateHealth.body().contains("observability") ? 1 : 0)
                    + (main.statusCode() == 404 ? 1 : 0) + (mcpThere.statusCode() == 404 ? 1 : 0);
            IdentityFigures.record("metrics on their own listener", held, 4);
            assertEquals(200, separate.statusCode(), separate.body());
            assertTrue(separate.body().contains("schemabrain_"), separate.body());
            assertTrue(separateHealth.body().contains("observability"), separateHealth.body());
            assertEquals(404, main.statusCode(), "the main listener no longer serves /metrics");
            assertEquals(404, mcpThere.statusCode(), "the metrics listener serves no MCP");
        }
    }

    @Test
    void theServerInfoOnGetMcpIsNameVersionAndProtocolOnly() throws Exception {
        try (HttpFixture server = HttpFixture.start(HttpOptions.loopback().withAuthFilter(auth))) {
            HttpResponse<String> r = get(server.url() + "/mcp", null);
            JsonNode info = JSON.readTree(r.body());
            List<String> keys = new ArrayList<>();
            info.fieldNames().forEachRemaining(keys::add);
            String message = info.path("message").asText();
            boolean quiet = !message.contains("/health") && !message.contains("/metrics") && !r.body().contains("sqlite")
                    && !r.body().contains(dir.toString());
            IdentityFigures.record("GET /mcp says name, version and protocol only",
                    (r.statusCode() == 200 ? 1 : 0) + (keys.equals(List.of("name", "version", "protocolVersion", "message")) ? 1 : 0)
                            + (quiet ? 1 : 0), 3);
            assertEquals(200, r.statusCode());
            assertEquals(List.of("name", "version", "protocolVersion", "message"), keys);
            assertTrue(quiet, "the public server info names no other endpoint, source or path: " + r.body());
        }
    }

    // ---- 4. a 429 is audited ----

    @Test
    void aToolsCallRefused429IsAudited() throws Exception {
        try (HttpFixture server = HttpFixture.start(HttpOptions.loopback().withAuthFilter(auth)
                .withCallerRate(new RateLimit(1.0 / 60, 1)))) {
            post(server, aliceToken, null, toolsCall(1, "list_metrics", Map.of()));
            List<String> tools = List.of("describe_table", "no_such_tool");
            int held = 0;
            for (String tool : tools) {
                HttpResponse<String> refused = post(server, aliceToken, null, toolsCall(2, tool, Map.of("qualified_name", "main.plans")));
                assertEquals(429, refused.statusCode(), refused.body());
                AuditRecord row = server.lastRows(1).get(0);
                boolean recorded = row.entry().tool().equals(tool) && "token:alice".equals(row.entry().caller())
                        && "policy_blocked".equals(row.entry().errorKind());
                held += recorded ? 1 : 0;
                assertTrue(recorded, "the refused call to " + tool + " has its row: " + row.entry());
            }
            IdentityFigures.record("tools/call refused 429 leaves an audit row", held, tools.size());
        }
    }

    // ---- 5. no control or formatting characters echoed ----

    @Test
    void noToolEchoesControlOrFormattingCharactersOverHttp() throws Exception {
        try (HttpFixture server = HttpFixture.start(HttpOptions.loopback())) {
            int held = 0;
            int tried = 0;
            List<String> leaks = new ArrayList<>();
            for (Map.Entry<String, Map<String, Object>> c : hostileCalls(server).entrySet()) {
                tried++;
                JsonNode reply = JSON.readTree(post(server, null, null, toolsCall(tried, tool(c.getKey()), c.getValue())).body());
                String leak = leak(reply);
                held += leak == null ? 1 : 0;
                if (leak != null) {
                    leaks.add(c.getKey().replaceAll("\\p{C}", "?") + ": " + leak);
                }
            }
            // A made-up method: the JSON-RPC error must not echo it raw either.
            tried++;
            ObjectNode odd = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", 999).put("method", "tools/\u202Elist\u0000\u001b[2J");
            String leak = leak(JSON.readTree(post(server, null, null, odd).body()));
            held += leak == null ? 1 : 0;
            if (leak != null) {
                leaks.add("made-up method: " + leak);
            }
            IdentityFigures.record("tool answers free of control characters (http)", held, tried);
            assertTrue(leaks.isEmpty(), String.join("\n", leaks));
        }
    }

    @Test
    void noToolEchoesControlOrFormattingCharactersOverStdio() throws Exception {
        try (HttpFixture fixture = HttpFixture.start(HttpOptions.loopback())) {
            Map<String, Map<String, Object>> calls = hostileCalls(fixture);
            StringBuilder in = new StringBuilder();
            in.append("{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                    + "\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}\n");
            in.append("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n");
            int id = 0;
            for (Map.Entry<String, Map<String, Object>> c : calls.entrySet()) {
                in.append(JSON.writeValueAsString(toolsCall(++id, tool(c.getKey()), c.getValue()))).append('\n');
            }
            in.append(JSON.writeValueAsString(JSON.createObjectNode().put("jsonrpc", "2.0").put("id", 999)
                    .put("method", "tools/\u202Elist\u0000\u001b[2J"))).append('\n');
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            StdioServer.run(McpCore.of(fixture.registry, DispatchCapacity.forMaxConcurrentQueries(2), CallerRates.OFF, ToolListing.FULL, Optional::empty,
                    "test"), Duration.ZERO, () -> Access.UNRESTRICTED,
                    new ByteArrayInputStream(in.toString().getBytes(StandardCharsets.UTF_8)), new PrintStream(out, true, StandardCharsets.UTF_8));
            int held = 0;
            List<String> leaks = new ArrayList<>();
            int answered = 0;
            for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
                JsonNode reply = JSON.readTree(line);
                if (reply.path("id").asInt() == 0) {
                    continue;
                }
                answered++;
                String leak = leak(reply);
                held += leak == null ? 1 : 0;
                if (leak != null) {
                    leaks.add(leak);
                }
            }
            IdentityFigures.record("tool answers free of control characters (stdio)", held, answered);
            assertEquals(calls.size() + 1, answered, "every call and the made-up method answered");
            assertTrue(leaks.isEmpty(), String.join("\n", leaks));
        }
    }

    /**
     * Per tool: every free-text argument hostile (so the name checks see it), then a hostile argument name
     * (so validation sees it); and a made-up tool name. Keyed "tool#n" (the tool is before the '#').
     */
    private static Map<String, Map<String, Object>> hostileCalls(HttpFixture server) {
        Map<String, Map<String, Object>> calls = new LinkedHashMap<>();
        for (String name : server.registry.names()) {
            JsonNode schema = JSON.valueToTree(server.registry.tool(name).orElseThrow().spec().arguments().toInputSchema());
            Map<String, Object> values = new LinkedHashMap<>();
            schema.path("properties").properties().forEach(p -> {
                String type = p.getValue().path("type").asText();
                if (p.getValue().has("enum")) {
                    return;
                }
                if (type.equals("string")) {
                    values.put(p.getKey(), HOSTILE);
                } else if (type.equals("array") && p.getValue().path("items").path("type").asText().equals("string")) {
                    values.put(p.getKey(), List.of(HOSTILE, "main.invoices"));
                }
            });
            calls.put(name + "#values", values);
            calls.put(name + "#key", Map.of(HOSTILE, "x"));
        }
        calls.put("describe\u202Etable\u0000\u001b[2J#tool", Map.of());
        calls.put("describe_table#value", Map.of("qualified_name", "main.\u202Einvoices"));
        calls.put("get_metric#group", Map.of("name", "payments_count", "group_by", List.of("x\u001b[2J\u202E")));
        return calls;
    }

    static String tool(String key) {
        return key.substring(0, key.lastIndexOf('#'));
    }

    /** The first text meant for reading (messages, hints, recoveries) holding an unsafe code point, or null. */
    private static String leak(JsonNode reply) throws Exception {
        List<JsonNode> envelopes = new ArrayList<>();
        if (reply.has("error")) {
            return unsafe(reply.path("error").path("message").asText());
        }
        JsonNode result = reply.path("result");
        envelopes.add(result.path("structuredContent"));
        for (JsonNode content : result.path("content")) {
            envelopes.add(JSON.readTree(content.path("text").asText()));
        }
        for (JsonNode envelope : envelopes) {
            List<String> texts = new ArrayList<>();
            JsonNode error = envelope.path("error");
            texts.add(error.path("message").asText(""));
            texts.add(error.path("recovery").path("suggested_rewrite").asText(""));
            texts.add(error.path("recovery").path("widening_hint").asText(""));
            error.path("recovery").path("fuzzy_matches").forEach(f -> texts.add(f.asText()));
            envelope.path("hints").forEach(h -> texts.add(h.asText()));
            for (String text : texts) {
                String bad = unsafe(text);
                if (bad != null) {
                    return bad;
                }
            }
        }
        return null;
    }

    private static String unsafe(String text) {
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            i += Character.charCount(cp);
            int type = Character.getType(cp);
            if (type == Character.CONTROL || type == Character.FORMAT || type == Character.LINE_SEPARATOR
                    || type == Character.PARAGRAPH_SEPARATOR) {
                return String.format("U+%04X in %s", cp, JSON.valueToTree(text));
            }
        }
        return null;
    }

    // ---- HTTP by hand ----

    /** A session id of the kind the server hands out at initialize, naming any client the test likes. */
    static String session(String client) {
        return "sb1." + Base64.getUrlEncoder().withoutPadding().encodeToString(client.getBytes(StandardCharsets.UTF_8));
    }

    static ObjectNode toolsCall(long id, String tool, Map<String, Object> arguments) {
        ObjectNode message = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", id).put("method", "tools/call");
        ObjectNode params = message.putObject("params").put("name", tool);
        params.set("arguments", JSON.valueToTree(arguments));
        return message;
    }

    static HttpResponse<String> post(HttpFixture server, String bearer, String session, ObjectNode message) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(server.url() + "/mcp"))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", HttpService.PROTOCOL_VERSION)
                .POST(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(message)));
        if (bearer != null) {
            b.header("Authorization", "Bearer " + bearer);
        }
        if (session != null) {
            b.header(McpGate.SESSION_HEADER, session);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    static HttpResponse<String> call(HttpFixture server, String bearer, String session, long id, String tool,
                                     Map<String, Object> arguments) throws Exception {
        HttpResponse<String> r = post(server, bearer, session, toolsCall(id, tool, arguments));
        assertEquals(200, r.statusCode(), r.body());
        return r;
    }

    static JsonNode envelope(HttpResponse<String> r) throws Exception {
        return JSON.readTree(r.body()).path("result").path("structuredContent");
    }

    static HttpResponse<String> get(String url, String bearer) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).GET();
        if (bearer != null) {
            b.header("Authorization", "Bearer " + bearer);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A GET with a Host (and Origin) of the test's choosing, as a rebound page sends it; the status line. */
    static String rawGet(int port, String path, String host, String origin) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\n"
                    + (origin == null ? "" : "Origin: " + origin + "\r\n") + "Connection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            return new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII)).readLine();
        }
    }

}
