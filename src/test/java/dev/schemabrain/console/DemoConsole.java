package dev.schemabrain.console;

import dev.schemabrain.audit.AuditKey;
import dev.schemabrain.demo.DemoDatabase;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.index.IndexListener;
import dev.schemabrain.index.Indexer;
import dev.schemabrain.source.Sources;
import dev.schemabrain.store.StoreLocation;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the console tests share: the demo database indexed for real, and HTTP to a running console. */
final class DemoConsole {

    private DemoConsole() {
    }

    /** The demo's SQLite file, indexed into a store, and an audit key of the operator's. */
    record Indexed(Path database, SourceUrl url, StoreLocation store, AuditKey key) {
    }

    static Indexed index(Path dir) throws Exception {
        Path database = dir.resolve("demo.sqlite");
        DemoDatabase.create(database);
        SourceUrl url = SourceUrl.parse("sqlite:" + database);
        Path storeFile = dir.resolve("store.db");
        try (SchemaSource source = Sources.open(url)) {
            new Indexer().run(url, source, storeFile, false, IndexListener.SILENT);
        }
        byte[] raw = new byte[AuditKey.MIN_BYTES];
        new SecureRandom().nextBytes(raw);
        return new Indexed(database, url, new StoreLocation.SqliteFile(storeFile), AuditKey.of(raw));
    }

    /** A client that shows redirects instead of following them. */
    static final HttpClient HTTP = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

    /** The one-time token of the console's printed URL. */
    static String token(Console console) {
        String login = console.loginUrl();
        return login.substring(login.indexOf("token=") + "token=".length());
    }

    /** Spends the token; answers the session cookie ({@code name=value}), checked HttpOnly and SameSite=Strict. */
    static String signIn(Console console, String token) throws Exception {
        HttpResponse<String> signedIn = get(console, "/login?token=" + token, null);
        assertEquals(303, signedIn.statusCode(), signedIn.body());
        String set = signedIn.headers().firstValue("Set-Cookie").orElseThrow();
        assertTrue(set.contains("HttpOnly") && set.contains("SameSite=Strict"), set);
        return set.substring(0, set.indexOf(';'));
    }

    static HttpResponse<String> get(Console console, String path, String cookie) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + console.port() + path)).GET();
        if (cookie != null) {
            b.header("Cookie", cookie);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A form POST; {@code cookie} and {@code origin} are left out when null. */
    static HttpResponse<String> post(Console console, String path, String cookie, Map<String, String> form, String origin)
            throws Exception {
        StringBuilder body = new StringBuilder();
        form.forEach((k, v) -> body.append(body.length() == 0 ? "" : "&").append(k).append('=')
                .append(URLEncoder.encode(v, StandardCharsets.UTF_8)));
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + console.port() + path))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString()));
        if (cookie != null) {
            b.header("Cookie", cookie);
        }
        if (origin != null) {
            b.header("Origin", origin);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
