package dev.schemabrain.mcp.transport.http;

import dev.schemabrain.auth.AuthFilter;
import dev.schemabrain.auth.BearerTokens;
import dev.schemabrain.auth.FileTokens;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * CORS with authentication on (real tokens file, real HTTP): a browser's preflight carries no credential,
 * so it is answered before the auth filter for an allowed Origin, refused 403 for another; the call itself
 * still needs the token.
 */
class CorsPreflightTest {

    private static final String APP = "https://app.example.com";
    private static final String PING = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";

    @TempDir
    static Path dir;
    static HttpFixture server;
    static String token;
    static final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void serve() throws Exception {
        FileTokens tokens = new FileTokens(dir.resolve("tokens.json"));
        token = tokens.create("browser-app");
        AuthFilter auth = new AuthFilter(Optional.of(new BearerTokens(tokens)), Optional.empty());
        server = HttpFixture.start(HttpOptions.loopback().withAllowedOrigins(List.of(APP)).withAuthFilter(auth));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static HttpResponse<String> preflight(String origin) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(server.url() + "/mcp"))
                .header("Origin", origin)
                .header("Access-Control-Request-Method", "POST")
                .header("Access-Control-Request-Headers", "authorization, content-type, mcp-session-id")
                .method("OPTIONS", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> post(Optional<String> bearer) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(server.url() + "/mcp"))
                .header("Origin", APP)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(PING));
        bearer.ifPresent(t -> b.header("Authorization", "Bearer " + t));
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aPreflightFromAnAllowedOriginIsAnsweredWithoutAToken() throws Exception {
        HttpResponse<String> r = preflight(APP);
        assertEquals(204, r.statusCode(), r.body());
        assertEquals(APP, r.headers().firstValue("Access-Control-Allow-Origin").orElse(null));
        String methods = r.headers().firstValue("Access-Control-Allow-Methods").orElse("");
        assertTrue(methods.contains("POST"), methods);
        String headers = r.headers().firstValue("Access-Control-Allow-Headers").orElse("").toLowerCase();
        assertTrue(headers.contains("authorization") && headers.contains("content-type") && headers.contains("mcp-session-id"),
                headers);
        assertTrue(r.headers().allValues("Vary").stream().anyMatch(v -> v.contains("Origin")), r.headers().map()::toString);
        assertTrue(r.headers().firstValue("WWW-Authenticate").isEmpty(), "a preflight is not challenged");
    }

    @Test
    void aPreflightFromAnotherOriginIs403() throws Exception {
        HttpResponse<String> r = preflight("https://evil.example.net");
        assertEquals(403, r.statusCode());
        assertTrue(r.headers().firstValue("Access-Control-Allow-Origin").isEmpty());
    }

    @Test
    void theCallWithoutATokenIsStill401AndTheBrowserCanReadWhy() throws Exception {
        HttpResponse<String> r = post(Optional.empty());
        assertEquals(401, r.statusCode());
        assertEquals(APP, r.headers().firstValue("Access-Control-Allow-Origin").orElse(null));
        assertTrue(r.headers().firstValue("Access-Control-Expose-Headers").orElse("").contains("WWW-Authenticate"));
        assertFalse(r.body().contains("Exception"), r.body());
    }

    @Test
    void theCallWithTheTokenIsAnsweredAndReadableFromTheAllowedOrigin() throws Exception {
        HttpResponse<String> r = post(Optional.of(token));
        assertEquals(200, r.statusCode(), r.body());
        assertEquals(APP, r.headers().firstValue("Access-Control-Allow-Origin").orElse(null));
        assertTrue(r.body().contains("\"result\""), r.body());
    }
}
