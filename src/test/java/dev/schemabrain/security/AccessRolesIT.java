package dev.schemabrain.security;

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
import dev.schemabrain.testing.Cli;
import dev.schemabrain.testing.McpStdio;
import dev.schemabrain.testing.ServedJar;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.Date;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Callers and roles end to end, on the packaged jar: a policy file, SchemaBrain tokens carrying roles and
 * claims, RS256 JWTs verified against a JWKS file, and the same policy over stdio with --role. The numbers
 * equal hand-written SQL on the demo's SQLite file; a caller's own filter cannot widen its row filter; a
 * caller without a role reaches nothing; the audit rows carry the roles.
 */
class AccessRolesIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ISSUER = "https://auth.example.test/";
    private static final String AUDIENCE = "https://schemabrain.example.test/mcp";
    private static final String BILLING = "[main.invoices, main.invoice_line_items, main.subscriptions, main.organizations, main.plans]";

    @TempDir
    static Path dir;
    static Path store;
    static Path database;
    static Path policy;
    static Map<String, String> env;
    static ServedJar served;
    static String finance;
    static String account;
    static String nobody;
    static RSAKey key;
    static String metric;

    @BeforeAll
    static void serve() throws Exception {
        store = dir.resolve("demo.db");
        database = dir.resolve("demo.sqlite");
        Cli.Result demo = Cli.run(dir, "--store", store.toString(), "demo", "--events", "none", "--database", database.toString());
        assertEquals(0, demo.exitCode(), demo.stderr());
        env = Map.of("SB_DEMO_URL", "sqlite:" + database);
        policy = dir.resolve("policy.yaml");
        Files.writeString(policy, "version: 1\nroles:\n  finance:\n    allow: " + BILLING + "\n  account:\n    allow: "
                + BILLING + "\n    row_filters:\n      - {entity: organizations, column: organizations.country, op: in,"
                + " claim: countries}\ndefault_role: none\n");
        Files.setPosixFilePermissions(policy, PosixFilePermissions.fromString("rw-------"));
        Path tokens = dir.resolve("tokens.json");
        finance = token(tokens, "fin", "--role", "finance");
        account = token(tokens, "acct", "--role", "account", "--claim", "countries=US,DE");
        nobody = token(tokens, "nobody");
        key = new RSAKeyGenerator(2048).keyID("k1").generate();
        Path jwks = dir.resolve("jwks.json");
        Files.writeString(jwks, new JWKSet(key).toPublicJWKSet().toString());
        served = ServedJar.start(store, dir, env, List.of(), "--url-env", "SB_DEMO_URL", "--access-policy", policy.toString(),
                "--tokens-file", tokens.toString(), "--jwt-jwks", jwks.toString(), "--jwt-issuer", ISSUER,
                "--jwt-audience", AUDIENCE);
        for (JsonNode m : data(call(finance, "list_metrics", Map.of("limit", 200))).get("metrics")) {
            if (m.path("measure").path("column").asText().equals("total_cents") && m.path("measure").path("agg").asText().equals("sum")) {
                metric = m.get("name").asText();
            }
        }
        assertTrue(metric != null, "the finance role sees the invoice total");
    }

    @AfterAll
    static void stop() throws Exception {
        if (served != null) {
            served.stop();
        }
    }

    @Test
    void aRoleWithoutRowFiltersGetsTheWholeNumberAndNothingOutsideItsAllowList() throws Exception {
        JsonNode total = call(finance, "get_metric", Map.of("name", metric));
        assertEquals("success", total.path("status").asText(), total.toString());
        assertEquals(hand(""), value(total));

        JsonNode users = call(finance, "describe_table", Map.of("qualified_name", "main.users"));
        assertEquals("refused", users.path("status").asText(), users.toString());
        assertEquals("allowlist_violation", users.path("error").path("kind").asText());
        assertFalse(users.path("error").path("recovery").path("widening_hint").asText().isBlank(), users.toString());
        String found = call(finance, "find_relevant_tables", Map.of("query", "user email addresses and phone numbers")).toString();
        assertFalse(found.contains("main.users") || found.contains("main.payments"), found);
    }

    @Test
    void aTokensClaimBecomesARowFilterThatACallersOwnFilterCannotWiden() throws Exception {
        JsonNode mine = call(account, "get_metric", Map.of("name", metric));
        assertEquals("success", mine.path("status").asText(), mine.toString());
        assertEquals(hand(" AND o.country IN ('US', 'DE')"), value(mine));
        assertTrue(value(mine).compareTo(hand("")) < 0, "the row filter narrows");

        // Asking for France, which the claim does not hold, finds no row rather than France's total.
        JsonNode widened = call(account, "get_metric", Map.of("name", metric,
                "filters", List.of(Map.of("column", "organizations.country", "op", "eq", "value", "FR"))));
        assertEquals("success", widened.path("status").asText(), widened.toString());
        BigDecimal french = hand(" AND o.country = 'FR'");
        assertTrue(french.signum() > 0, "France has paid invoices, so an empty answer means something");
        JsonNode rows = data(widened).get("rows");
        assertTrue(rows.isEmpty() || rows.get(0).get(metric).isNull() || value(widened).signum() == 0, widened.toString());
    }

    @Test
    void aJwtsRoleAndClaimsComeFromItsSignedClaims() throws Exception {
        String jwt = jwt(new JWTClaimsSet.Builder().claim("roles", List.of("staff", "account")).claim("countries", "FR"));
        JsonNode french = call(jwt, "get_metric", Map.of("name", metric));
        assertEquals("success", french.path("status").asText(), french.toString());
        assertEquals(hand(" AND o.country = 'FR'"), value(french));

        // The same role without the claim its row filter needs is refused, never answered unfiltered.
        JsonNode unclaimed = call(jwt(new JWTClaimsSet.Builder().claim("roles", "account")), "get_metric", Map.of("name", metric));
        assertEquals("refused", unclaimed.path("status").asText(), unclaimed.toString());
        assertTrue(unclaimed.path("error").path("message").asText().contains("countries"), unclaimed.toString());
    }

    @Test
    void aCallerWithoutARoleReachesNothing() throws Exception {
        for (String tool : List.of("list_indexed_schemas", "describe_table", "get_metric")) {
            Map<String, Object> args = tool.equals("describe_table") ? Map.of("qualified_name", "main.invoices")
                    : tool.equals("get_metric") ? Map.of("name", metric) : Map.of();
            JsonNode answer = call(nobody, tool, args);
            assertEquals("allowlist_violation", answer.path("error").path("kind").asText(), tool + ": " + answer);
            assertFalse(answer.toString().contains("total_cents"), answer.toString());
        }
    }

    @Test
    void theSamePolicyOverStdioTakesItsRoleFromTheCommandLineAndTheAuditCarriesRoles() throws Exception {
        StringBuffer stderr = new StringBuffer();
        McpSyncClient client = McpStdio.client(store, stderr, env, "--url-env", "SB_DEMO_URL", "--access-policy",
                policy.toString(), "--role", "account", "--claim", "countries=US,DE");
        try {
            McpSchema.CallToolResult r = McpStdio.call(client, "get_metric", Map.of("name", metric));
            JsonNode answer = JSON.valueToTree(r.structuredContent());
            assertEquals("success", answer.path("status").asText(), answer.toString());
            assertEquals(hand(" AND o.country IN ('US', 'DE')"), value(answer));
            JsonNode users = JSON.valueToTree(McpStdio.call(client, "describe_table", Map.of("qualified_name", "main.users"))
                    .structuredContent());
            assertEquals("allowlist_violation", users.path("error").path("kind").asText(), users.toString());
        } finally {
            McpStdio.stop(client);
        }
        // The served jar's rows of the same role: its get_metric's started row is durable before the SQL leaves.
        assertEquals("success", call(account, "get_metric", Map.of("name", metric, "limit", 3)).path("status").asText());
        JsonNode rows = null;
        boolean stdio = false;
        boolean token = false;
        for (int tries = 0; tries < 50 && !(stdio && token); tries++) {
            Thread.sleep(tries == 0 ? 0 : 100);
            Cli.Result listed = Cli.run(dir, "--store", store.toString(), "audit", "list", "--json", "--role", "account",
                    "--limit", "1000");
            assertEquals(0, listed.exitCode(), listed.stderr());
            rows = JSON.readTree(listed.stdout());
            for (JsonNode row : rows) {
                assertEquals("account", row.path("role").asText(), row.toString());
                stdio |= row.path("caller").asText().equals("stdio");
                token |= row.path("caller").asText().equals("token:acct");
            }
        }
        assertTrue(stdio && token, "both transports' account callers are listed: " + rows);
        Cli.Result verify = Cli.run(dir, "--store", store.toString(), "audit", "verify");
        assertEquals(0, verify.exitCode(), verify.stdout() + verify.stderr());
    }

    /** The demo's paid invoice total with {@code where} added (alias i invoices, o organizations), by hand. */
    private static BigDecimal hand(String where) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + database);
             ResultSet rs = c.createStatement().executeQuery("SELECT sum(i.total_cents) FROM invoices i"
                     + " JOIN subscriptions s ON s.id = i.subscription_id JOIN organizations o ON o.id = s.organization_id"
                     + " WHERE i.status = 'paid'" + where)) {
            rs.next();
            return rs.getBigDecimal(1) == null ? BigDecimal.ZERO : rs.getBigDecimal(1).stripTrailingZeros();
        }
    }

    private static BigDecimal value(JsonNode answer) {
        JsonNode v = data(answer).get("rows").get(0).get(metric);
        return new BigDecimal(v.asText()).stripTrailingZeros();
    }

    private static JsonNode data(JsonNode answer) {
        return answer.path("data");
    }

    private static String token(Path file, String name, String... roleAndClaims) throws Exception {
        List<String> args = new java.util.ArrayList<>(List.of("token", "create", name, "--tokens-file", file.toString()));
        args.addAll(List.of(roleAndClaims));
        Cli.Result made = Cli.run(dir, args.toArray(String[]::new));
        assertEquals(0, made.exitCode(), made.stderr());
        return made.stdout().strip();
    }

    private static String jwt(JWTClaimsSet.Builder claims) throws Exception {
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("k1").type(JOSEObjectType.JWT).build(),
                claims.issuer(ISSUER).audience(AUDIENCE).subject("carol").issueTime(new Date())
                        .expirationTime(new Date(System.currentTimeMillis() + 600_000)).build());
        jwt.sign(new RSASSASigner(key));
        return jwt.serialize();
    }

    /** One stateless tools/call with the credential; the envelope. */
    private static JsonNode call(String bearer, String tool, Map<String, Object> arguments) throws Exception {
        ObjectNode message = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", 1).put("method", "tools/call");
        message.putObject("params").put("name", tool).set("arguments", JSON.valueToTree(arguments));
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(served.url + "/mcp"))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .header("Authorization", "Bearer " + bearer)
                .POST(HttpRequest.BodyPublishers.ofString(message.toString())).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        String body = r.body();
        if (body.contains("data:")) {
            body = body.lines().filter(l -> l.startsWith("data:")).map(l -> l.substring(5).strip()).reduce("", String::concat);
        }
        return JSON.readTree(body).path("result").path("structuredContent");
    }
}
