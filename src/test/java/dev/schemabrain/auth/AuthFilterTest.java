package dev.schemabrain.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;
import dev.schemabrain.error.UserError;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Date;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The auth filter in a real Jetty in front of a stand-in for {@code /mcp}, checking JWTs against a JWKS
 * that a real HTTP server publishes, and bearer tokens from a real tokens file. One request per case.
 */
class AuthFilterTest {

    private static final String ISSUER = "https://auth.example.test/";
    private static final String AUDIENCE = "https://schemabrain.example.test/mcp";
    private static final String SCOPE = "schemabrain:read";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient CLIENT = HttpClient.newHttpClient();

    @TempDir
    static Path dir;

    static RSAKey rsa;
    static ECKey ec;
    /** Not published, but with the published RSA key's id: what a forger would sign with. */
    static RSAKey impostor;
    static String token;
    static HttpServer jwksServer;
    static AtomicInteger jwksFetches = new AtomicInteger();
    static String jwksUrl;
    static Server jetty;
    static String base;

    @BeforeAll
    static void start() throws Exception {
        rsa = new RSAKeyGenerator(2048).keyID("rsa-1").generate();
        ec = new ECKeyGenerator(Curve.P_256).keyID("ec-1").generate();
        impostor = new RSAKeyGenerator(2048).keyID("rsa-1").generate();
        byte[] jwks = new JWKSet(List.of(rsa, ec)).toPublicJWKSet().toString().getBytes(StandardCharsets.UTF_8);
        jwksServer = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        jwksServer.createContext("/jwks.json", exchange -> {
            jwksFetches.incrementAndGet();
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, jwks.length);
            exchange.getResponseBody().write(jwks);
            exchange.close();
        });
        jwksServer.start();
        jwksUrl = "http://127.0.0.1:" + jwksServer.getAddress().getPort() + "/jwks.json";

        FileTokens tokens = new FileTokens(dir.resolve("tokens.json"));
        token = tokens.create("ci-bot");
        AuthFilter filter = new AuthFilter(Optional.of(new BearerTokens(tokens)),
                Optional.of(JwtVerifier.of(new JwtSettings(jwksUrl, ISSUER, AUDIENCE, Optional.of(SCOPE)))));
        jetty = serve(filter);
        base = "http://127.0.0.1:" + ((ServerConnector) jetty.getConnectors()[0]).getLocalPort();
    }

    static Server serve(AuthFilter filter) throws Exception {
        Server server = new Server(new InetSocketAddress("127.0.0.1", 0));
        ServletContextHandler context = new ServletContextHandler();
        context.setContextPath("/");
        context.addServlet(new ServletHolder(new HttpServlet() {
            @Override
            protected void service(HttpServletRequest req, HttpServletResponse res) throws IOException {
                res.setContentType("text/plain");
                res.getWriter().print("caller=" + req.getAttribute(AuthFilter.CALLER_ATTRIBUTE));
            }
        }), AuthFilter.MCP_PATH);
        context.addFilter(new FilterHolder(filter), AuthFilter.MCP_PATH, EnumSet.of(DispatcherType.REQUEST));
        for (String path : AuthFilter.METADATA_PATHS) {
            context.addServlet(new ServletHolder(filter.metadataServlet()), path);
        }
        server.setHandler(context);
        server.start();
        return server;
    }

    @AfterAll
    static void stop() throws Exception {
        if (jetty != null) {
            jetty.stop();
        }
        if (jwksServer != null) {
            jwksServer.stop(0);
        }
    }

    /** One request: what the client sends in Authorization (null: nothing), and what the filter must answer. */
    record Case(String name, Credential credential, int status, String error, String caller) {
        @Override
        public String toString() {
            return name;
        }
    }

    interface Credential {
        String header() throws Exception;
    }

    static JWTClaimsSet.Builder claims() {
        Date now = new Date();
        return new JWTClaimsSet.Builder().issuer(ISSUER).audience(AUDIENCE).subject("alice")
                .issueTime(now).expirationTime(new Date(now.getTime() + 300_000)).claim("scope", "openid " + SCOPE);
    }

    static String signed(JWSAlgorithm alg, JWSSigner signer, String kid, UnaryOperator<JWTClaimsSet.Builder> edit) throws Exception {
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(alg).keyID(kid).type(JOSEObjectType.JWT).build(),
                edit.apply(claims()).build());
        jwt.sign(signer);
        return jwt.serialize();
    }

    static String rs256(UnaryOperator<JWTClaimsSet.Builder> edit) throws Exception {
        return signed(JWSAlgorithm.RS256, new RSASSASigner(rsa), rsa.getKeyID(), edit);
    }

    static Date secondsFromNow(int seconds) {
        return new Date(System.currentTimeMillis() + seconds * 1000L);
    }

    static Stream<Case> cases() {
        return Stream.of(
                new Case("no Authorization header", () -> null, 401, null, null),
                new Case("Basic instead of Bearer", () -> "Basic " + Base64.getEncoder().encodeToString("a:b".getBytes()), 401, null, null),
                new Case("a SchemaBrain token", () -> "Bearer " + token, 200, null, "token:ci-bot"),
                new Case("the scheme in lower case", () -> "bearer " + token, 200, null, "token:ci-bot"),
                new Case("an unknown SchemaBrain token", () -> "Bearer " + Tokens.newToken(), 401, "invalid_token", null),
                new Case("RS256 JWT", () -> "Bearer " + rs256(c -> c), 200, null, "jwt:" + ISSUER + "#alice"),
                new Case("ES256 JWT", () -> "Bearer " + signed(JWSAlgorithm.ES256, new ECDSASigner(ec), ec.getKeyID(), c -> c),
                        200, null, "jwt:" + ISSUER + "#alice"),
                new Case("scope as an scp list", () -> "Bearer " + rs256(c -> c.claim("scope", null).claim("scp", List.of(SCOPE))),
                        200, null, "jwt:" + ISSUER + "#alice"),
                new Case("expired 30 s ago, inside the 60 s skew", () -> "Bearer " + rs256(c -> c.expirationTime(secondsFromNow(-30))),
                        200, null, "jwt:" + ISSUER + "#alice"),
                new Case("control characters in sub are cleaned, and the whole sub digested", () -> "Bearer "
                        + rs256(c -> c.subject("eve\nforged")), 200, null,
                        "jwt:" + ISSUER + "#eve?forged~" + Tokens.hash("eve\nforged").substring(0, 16)),
                new Case("expired", () -> "Bearer " + rs256(c -> c.expirationTime(secondsFromNow(-300))), 401, "invalid_token", null),
                new Case("not yet valid", () -> "Bearer " + rs256(c -> c.notBeforeTime(secondsFromNow(300))), 401, "invalid_token", null),
                new Case("no exp", () -> "Bearer " + rs256(c -> c.expirationTime(null)), 401, "invalid_token", null),
                new Case("no sub", () -> "Bearer " + rs256(c -> c.subject(null)), 401, "invalid_token", null),
                new Case("wrong audience", () -> "Bearer " + rs256(c -> c.audience("https://other.example.test/mcp")), 401, "invalid_token", null),
                new Case("wrong issuer", () -> "Bearer " + rs256(c -> c.issuer("https://evil.example.test/")), 401, "invalid_token", null),
                new Case("issuer differing only by a trailing slash", () -> "Bearer " + rs256(c -> c.issuer("https://auth.example.test")),
                        401, "invalid_token", null),
                new Case("unsigned (alg none)", () -> "Bearer " + new PlainJWT(claims().build()).serialize(), 401, "invalid_token", null),
                new Case("HS256 keyed with the published RSA public key",
                        () -> "Bearer " + signed(JWSAlgorithm.HS256, new MACSigner(rsa.toRSAPublicKey().getEncoded()), rsa.getKeyID(), c -> c),
                        401, "invalid_token", null),
                new Case("signed by an unpublished key with a published key id",
                        () -> "Bearer " + signed(JWSAlgorithm.RS256, new RSASSASigner(impostor), rsa.getKeyID(), c -> c),
                        401, "invalid_token", null),
                new Case("tampered payload", AuthFilterTest::tampered, 401, "invalid_token", null),
                new Case("not a JWT at all", () -> "Bearer not.a.jwt", 401, "invalid_token", null),
                new Case("missing the required scope", () -> "Bearer " + rs256(c -> c.claim("scope", "openid profile")),
                        403, "insufficient_scope", null));
    }

    /** A valid token whose payload now names another subject, signature kept. */
    static String tampered() throws Exception {
        return "Bearer " + tamper(rs256(c -> c));
    }

    static String tamper(String jwt) {
        String[] parts = jwt.split("\\.");
        String payload = new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8).replace("\"alice\"", "\"admin\"");
        return parts[0] + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(payload.getBytes(StandardCharsets.UTF_8))
                + "." + parts[2];
    }

    static HttpResponse<String> get(String path, String authorization) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).GET();
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void theFilterAnswersEachCredential(Case c) throws Exception {
        String authorization = c.credential().header();
        HttpResponse<String> res = get(AuthFilter.MCP_PATH, authorization);
        assertEquals(c.status(), res.statusCode(), res.body());
        if (c.status() == 200) {
            assertEquals("caller=" + c.caller(), res.body());
            assertTrue(res.headers().firstValue("WWW-Authenticate").isEmpty());
            return;
        }
        String challenge = res.headers().firstValue("WWW-Authenticate").orElseThrow();
        assertTrue(challenge.startsWith("Bearer "), challenge);
        assertTrue(challenge.contains("resource_metadata=\"" + base + "/.well-known/oauth-protected-resource\""), challenge);
        if (c.error() == null) {
            assertFalse(challenge.contains("error="), challenge);
        } else {
            assertTrue(challenge.contains("error=\"" + c.error() + "\""), challenge);
        }
        if ("insufficient_scope".equals(c.error())) {
            assertTrue(challenge.contains("scope=\"" + SCOPE + "\""), challenge);
        }
        JsonNode body = JSON.readTree(res.body());
        assertEquals(c.error() == null ? "unauthorized" : c.error(), body.path("error").asText());
        assertEquals("no-store", res.headers().firstValue("Cache-Control").orElse(null));
        if (authorization != null) {
            String credential = authorization.substring(authorization.indexOf(' ') + 1);
            assertFalse(res.body().contains(credential) || challenge.contains(credential), "the credential was echoed");
        }
    }

    @Test
    void theMetadataDocumentFollowsRfc9728() throws Exception {
        HttpResponse<String> res = get("/.well-known/oauth-protected-resource", null);
        assertEquals(200, res.statusCode());
        assertEquals("application/json", res.headers().firstValue("Content-Type").orElse("").replaceAll(";.*", ""));
        JsonNode doc = JSON.readTree(res.body());
        assertEquals(AUDIENCE, doc.path("resource").asText());
        assertEquals(List.of(ISSUER), JSON.convertValue(doc.path("authorization_servers"), List.class));
        assertEquals(List.of(SCOPE), JSON.convertValue(doc.path("scopes_supported"), List.class));
        assertEquals(List.of("header"), JSON.convertValue(doc.path("bearer_methods_supported"), List.class));
    }

    @Test
    void theMetadataIsAlsoAtTheResourcePathSuffixedUrl() throws Exception {
        HttpResponse<String> res = get("/.well-known/oauth-protected-resource/mcp", null);
        assertEquals(200, res.statusCode());
        assertEquals(AUDIENCE, JSON.readTree(res.body()).path("resource").asText());
    }

    @Test
    void theJwksIsFetchedOnceForManyTokens() throws Exception {
        JwtVerifier verifier = JwtVerifier.of(new JwtSettings(jwksUrl, ISSUER, AUDIENCE, Optional.empty()));
        int before = jwksFetches.get();
        for (int i = 0; i < 20; i++) {
            assertEquals("jwt:" + ISSUER + "#alice", name(verifier.check(rs256(c -> c))));
        }
        assertEquals(before + 1, jwksFetches.get());
    }

    @Test
    void anAcceptedTokensReusedVerdictDoesNotCoverATamperedCopy() throws Exception {
        JwtVerifier verifier = JwtVerifier.of(new JwtSettings(jwksUrl, ISSUER, AUDIENCE, Optional.empty()));
        String jwt = rs256(c -> c);
        assertEquals("jwt:" + ISSUER + "#alice", name(verifier.check(jwt)));
        assertEquals(new Verdict.Invalid(), verifier.check(tamper(jwt)));
        assertEquals("jwt:" + ISSUER + "#alice", name(verifier.check(jwt)));
    }

    @Test
    void subjectsThatCleanOrCutAlikeAreStillDifferentCallers() throws Exception {
        JwtVerifier verifier = JwtVerifier.of(new JwtSettings(jwksUrl, ISSUER, AUDIENCE, Optional.empty()));
        String longSub = "x".repeat(300);
        List<String> subs = List.of("eve\nforged", "eve\rforged", "eve?forged", longSub + "a", longSub + "b");
        Set<String> callers = new HashSet<>();
        for (String sub : subs) {
            Verdict.Caller caller = (Verdict.Caller) verifier.check(rs256(c -> c.subject(sub)));
            assertTrue(caller.name().length() <= 200, caller.name());
            assertTrue(caller.name().chars().noneMatch(ch -> ch < 0x20), caller.name());
            callers.add(caller.name());
        }
        assertEquals(subs.size(), callers.size(), "one caller per subject: " + callers);
    }

    /** The identity a verdict names; its roles and claims are checked in AccessCredentialsTest. */
    private static String name(Verdict verdict) {
        return verdict instanceof Verdict.Caller c ? c.name() : verdict.toString();
    }

    @Test
    void aJwksFileWorksLikeAUrl() throws Exception {
        Path file = dir.resolve("jwks.json");
        Files.writeString(file, new JWKSet(List.of(rsa)).toString(false));
        JwtVerifier verifier = JwtVerifier.of(new JwtSettings(file.toString(), ISSUER, AUDIENCE, Optional.empty()));
        assertEquals("jwt:" + ISSUER + "#alice", name(verifier.check(rs256(c -> c))));
    }

    @Test
    void aPlainHttpJwksOnAnotherMachineIsRefused() {
        UserError e = assertThrows(UserError.class,
                () -> JwtVerifier.of(new JwtSettings("http://192.0.2.1/jwks.json", ISSUER, AUDIENCE, Optional.empty())));
        assertTrue(e.getMessage().contains("use its https URL"), e.getMessage());
    }

    @Test
    void onlyTokensConfiguredRefusesJwts() throws Exception {
        AuthFilter tokensOnly = new AuthFilter(Optional.of(new BearerTokens(new FileTokens(dir.resolve("tokens.json")))), Optional.empty());
        assertEquals(new Verdict.Caller("token:ci-bot"), tokensOnly.verdict(token));
        assertEquals(new Verdict.Invalid(), tokensOnly.verdict(rs256(c -> c)));
    }

    @Test
    void theFilterNamesNoSecretWhenPrinted() throws Exception {
        AuthFilter filter = new AuthFilter(Optional.of(new BearerTokens(new FileTokens(dir.resolve("tokens.json")))), Optional.empty());
        filter.verdict(token);
        assertFalse(filter.toString().contains(token.substring(Tokens.PREFIX.length())), filter.toString());
    }
}
