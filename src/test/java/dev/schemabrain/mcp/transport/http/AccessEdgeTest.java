package dev.schemabrain.mcp.transport.http;

import dev.schemabrain.mcp.server.McpCore;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
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
import dev.schemabrain.access.Access;
import dev.schemabrain.access.AccessPolicySource;
import dev.schemabrain.access.BoundRowFilter;
import dev.schemabrain.auth.AuthFilter;
import dev.schemabrain.auth.BearerTokens;
import dev.schemabrain.auth.FileTokens;
import dev.schemabrain.auth.JwtSettings;
import dev.schemabrain.auth.JwtVerifier;
import dev.schemabrain.mcp.args.Arguments;
import dev.schemabrain.mcp.args.ArgSchema;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.mcp.server.ModernEra;
import dev.schemabrain.mcp.server.CallerRates;
import dev.schemabrain.mcp.server.DispatchCapacity;
import dev.schemabrain.mcp.server.ToolListing;
import dev.schemabrain.mcp.tool.LatencyHint;
import dev.schemabrain.mcp.tool.Tool;
import dev.schemabrain.mcp.tool.ToolCall;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.mcp.tool.ToolSpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Access enforcement at the HTTP edge, in a real Jetty with real tokens and real signed JWTs: the Access a tool
 * receives is the credential's role and claims under the policy in force, and nothing the client writes
 * (clientInfo, headers other than the credential, arguments) changes it. A probe tool answers what it got.
 */
class AccessEdgeTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ISSUER = "https://idp.example.test/";
    private static final String AUDIENCE = "schemabrain";
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @TempDir
    static Path dir;

    static RSAKey key;
    static HttpService service;
    static Map<String, String> tokens = new HashMap<>();

    /** Answers the reach its call carries: role, denial, bound row filters. */
    static final Tool WHOAMI = new Tool() {
        private final ToolSpec spec = ToolSpec.storeReader("whoami", "Who am I", "Use this when testing roles.",
                ArgSchema.parse("{\"properties\": {\"role\": {\"type\": \"string\"}}}"), LatencyHint.FAST);

        @Override
        public ToolSpec spec() {
            return spec;
        }

        @Override
        public Envelope call(Arguments arguments, ToolCall call) {
            Access a = call.access();
            ObjectNode data = JSON.createObjectNode().put("restricted", a.restricted())
                    .put("role", a.role().orElse("")).put("denial", a.denial().orElse(""))
                    .put("caller", call.caller());
            ArrayNode filters = data.putArray("row_filters");
            for (BoundRowFilter f : a.rowFilters()) {
                filters.add(f.filter().column() + "=" + String.join("|", f.values()));
            }
            return Envelope.success(data, null, null, List.of("whoami"));
        }
    };

    @BeforeAll
    static void start() throws Exception {
        Path policy = dir.resolve("policy.yaml");
        Files.writeString(policy, """
                version: 1
                roles:
                  analyst:
                    allow: [public.invoice, sales.*]
                  support:
                    allow: [public.*]
                    row_filters:
                      - {entity: customer, column: customer.support_rep_id, op: in, claim: employee_id}
                default_role: none
                """);
        Files.setPosixFilePermissions(policy, PosixFilePermissions.fromString("rw-------"));

        FileTokens store = new FileTokens(dir.resolve("tokens.json"));
        tokens.put("analyst", store.create("ana", Optional.of("analyst"), Map.of()));
        tokens.put("support", store.create("sam", Optional.of("support"), Map.of("employee_id", "3,4")));
        tokens.put("none", store.create("nobody"));
        tokens.put("ghost", store.create("ghost", Optional.of("admin"), Map.of()));

        key = new RSAKeyGenerator(2048).keyID("k1").generate();
        Path jwks = dir.resolve("jwks.json");
        Files.writeString(jwks, new JWKSet(key).toPublicJWKSet().toString());
        AuthFilter auth = new AuthFilter(Optional.of(new BearerTokens(store)), Optional.of(JwtVerifier.of(
                new JwtSettings(jwks.toString(), ISSUER, AUDIENCE, Optional.empty(), "groups"))));

        service = HttpService.start(McpCore.of(ToolRegistry.of(List.of(WHOAMI)),
                DispatchCapacity.forMaxConcurrentQueries(2), CallerRates.OFF, ToolListing.FULL, Optional::empty, "test"),
                HttpOptions.loopback().withAuthFilter(auth), new Observability(), () -> "static",
                Optional.of(AccessPolicySource.open(policy)), Optional.empty());
    }

    @AfterAll
    static void stop() {
        if (service != null) {
            service.close();
        }
    }

    @Test
    void aTokensRoleIsTheCallsRole() throws Exception {
        JsonNode analyst = whoami(tokens.get("analyst"), "claude", Map.of());
        assertEquals("analyst", analyst.path("role").asText());
        assertEquals("token:ana", analyst.path("caller").asText());
        assertTrue(analyst.path("restricted").asBoolean());

        JsonNode support = whoami(tokens.get("support"), "claude", Map.of());
        assertEquals("support", support.path("role").asText());
        assertEquals("customer.support_rep_id=3|4", support.path("row_filters").get(0).asText());
    }

    @Test
    void whatTheClientWritesChangesNothing() throws Exception {
        // A client calling itself by a role, sending a role header and a role argument is still the analyst.
        JsonNode forged = whoami(tokens.get("analyst"), "role:support", Map.of("X-SchemaBrain-Role", "support",
                "X-Role", "support", "Mcp-Session-Id", "support"), Map.of("role", "support"));
        assertEquals("analyst", forged.path("role").asText());
        assertEquals(0, forged.path("row_filters").size());
    }

    @Test
    void noRoleWithDefaultNoneReachesNothing() throws Exception {
        JsonNode none = whoami(tokens.get("none"), "support", Map.of());
        assertEquals("", none.path("role").asText());
        assertTrue(none.path("restricted").asBoolean());
        assertTrue(none.path("denial").asText().contains("default_role is none"), none.toString());

        JsonNode ghost = whoami(tokens.get("ghost"), "claude", Map.of());
        assertEquals("", ghost.path("role").asText());
        assertTrue(ghost.path("denial").asText().contains("admin"), ghost.toString());
    }

    @Test
    void aJwtsRoleClaimPicksTheFirstRoleThePolicyDefines() throws Exception {
        String jwt = jwt(new JWTClaimsSet.Builder().claim("groups", List.of("staff", "support", "analyst"))
                .claim("employee_id", 7));
        JsonNode j = whoami(jwt, "claude", Map.of());
        assertEquals("support", j.path("role").asText());
        assertEquals("customer.support_rep_id=7", j.path("row_filters").get(0).asText(), "a number claim as text");
        assertEquals("jwt:" + ISSUER + "#alice", j.path("caller").asText());

        JsonNode spaced = whoami(jwt(new JWTClaimsSet.Builder().claim("groups", "staff analyst")), "claude", Map.of());
        assertEquals("analyst", spaced.path("role").asText());

        JsonNode listed = whoami(jwt(new JWTClaimsSet.Builder().claim("groups", "support")
                .claim("employee_id", List.of(8, 9))), "claude", Map.of());
        assertEquals("customer.support_rep_id=8|9", listed.path("row_filters").get(0).asText(), "a list joined by commas");

        JsonNode none = whoami(jwt(new JWTClaimsSet.Builder().claim("roles", "analyst")), "claude", Map.of());
        assertFalse(none.path("denial").asText().isEmpty(), "only the configured role claim counts: " + none);
    }

    @Test
    void aModernRequestReachesWhatItsCredentialAllowsAndNoMore() throws Exception {
        // 2026-07-28: no initialize, the client names itself in every request's _meta, here as the support role.
        ObjectNode params = JSON.createObjectNode().put("name", "whoami");
        params.putObject("arguments").put("role", "support");
        ObjectNode meta = params.putObject("_meta");
        meta.put(ModernEra.META_PROTOCOL_VERSION, ModernEra.VERSION);
        meta.putObject(ModernEra.META_CLIENT_CAPABILITIES);
        meta.putObject(ModernEra.META_CLIENT_INFO).put("name", "role:support").put("version", "1");
        HttpResponse<String> r = post(tokens.get("analyst"), Map.of("MCP-Protocol-Version", ModernEra.VERSION,
                "Mcp-Method", "tools/call", "Mcp-Name", "whoami", "X-SchemaBrain-Role", "support"), null, "tools/call", params);
        assertEquals(200, r.statusCode(), r.body());
        JsonNode result = JSON.readTree(r.body()).path("result");
        assertEquals("complete", result.path("resultType").asText(), r.body());
        JsonNode data = result.path("structuredContent").path("data");
        assertEquals("analyst", data.path("role").asText());
        assertEquals("token:ana", data.path("caller").asText());
        assertEquals(0, data.path("row_filters").size());

        // Without a credential a modern request is refused before anything, as a 2025 one is.
        HttpResponse<String> anonymous = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + service.port()
                        + "/mcp")).header("Content-Type", "application/json").header("MCP-Protocol-Version", ModernEra.VERSION)
                .header("Mcp-Method", "tools/call").header("Mcp-Name", "whoami")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\","
                        + "\"params\":" + params + "}")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(401, anonymous.statusCode(), anonymous.body());
    }

    private static String jwt(JWTClaimsSet.Builder claims) throws Exception {
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("k1").type(JOSEObjectType.JWT).build(),
                claims.issuer(ISSUER).audience(AUDIENCE).subject("alice")
                        .expirationTime(new Date(System.currentTimeMillis() + 600_000)).build());
        jwt.sign(new RSASSASigner(key));
        return jwt.serialize();
    }

    private static JsonNode whoami(String bearer, String clientName, Map<String, String> headers) throws Exception {
        return whoami(bearer, clientName, headers, Map.of());
    }

    private static JsonNode whoami(String bearer, String clientName, Map<String, String> headers,
                                   Map<String, Object> arguments) throws Exception {
        ObjectNode init = JSON.createObjectNode().put("protocolVersion", HttpService.PROTOCOL_VERSION);
        init.putObject("capabilities");
        init.putObject("clientInfo").put("name", clientName).put("version", "1.0");
        HttpResponse<String> started = post(bearer, headers, null, "initialize", init);
        assertEquals(200, started.statusCode(), started.body());
        String session = started.headers().firstValue(McpGate.SESSION_HEADER).orElse(null);
        ObjectNode params = JSON.createObjectNode().put("name", "whoami");
        params.set("arguments", JSON.valueToTree(arguments));
        HttpResponse<String> r = post(bearer, headers, session, "tools/call", params);
        assertEquals(200, r.statusCode(), r.body());
        String body = r.body();
        if (body.startsWith("event:") || body.startsWith("data:") || body.contains("\ndata:")) {
            body = body.lines().filter(l -> l.startsWith("data:")).map(l -> l.substring(5).strip()).reduce("", String::concat);
        }
        JsonNode result = JSON.readTree(body).path("result");
        JsonNode answer = result.path("structuredContent");
        if (result.path("isError").asBoolean()) {
            // A caller the policy gives nothing is refused before any tool runs: its denial is the refusal's.
            assertEquals("allowlist_violation", answer.path("error").path("kind").asText(), body);
            return JSON.createObjectNode().put("role", "").put("restricted", true)
                    .put("denial", answer.path("error").path("message").asText());
        }
        return answer.path("data");
    }

    private static HttpResponse<String> post(String bearer, Map<String, String> headers, String session, String method,
                                             ObjectNode params) throws Exception {
        ObjectNode message = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", 1).put("method", method);
        message.set("params", params);
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + service.port() + "/mcp"))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .header("Authorization", "Bearer " + bearer)
                .POST(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(message)));
        headers.forEach((k, v) -> {
            if (!k.equalsIgnoreCase("Mcp-Session-Id")) {
                b.header(k, v);
            }
        });
        if (session != null) {
            b.header(McpGate.SESSION_HEADER, session).header("MCP-Protocol-Version", HttpService.PROTOCOL_VERSION);
        } else if (headers.containsKey("Mcp-Session-Id")) {
            b.header(McpGate.SESSION_HEADER, headers.get("Mcp-Session-Id"));
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
