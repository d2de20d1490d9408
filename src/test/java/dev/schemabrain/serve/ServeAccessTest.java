package dev.schemabrain.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemabrain.access.AccessPolicySource;
import dev.schemabrain.access.Caller;
import dev.schemabrain.audit.AuditKey;
import dev.schemabrain.audit.AuditLog;
import dev.schemabrain.audit.AuditRecord;
import dev.schemabrain.auth.AuthFilter;
import dev.schemabrain.auth.BearerTokens;
import dev.schemabrain.auth.FileTokens;
import dev.schemabrain.execute.SourceExecutors;
import dev.schemabrain.mcp.transport.http.HttpOptions;
import dev.schemabrain.store.StoreLocation;
import dev.schemabrain.testing.InProcessCli;
import dev.schemabrain.testing.IndexedSqlite;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Whole serves in this JVM under an access policy: the role a call is served and audited under is
 * its credential's (a token's over HTTP, --role over stdio), whatever the client calls itself; a credential
 * without a role, with default_role none, is audited as reaching nothing; audit list --role finds the rows.
 */
class ServeAccessTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;
    private StoreLocation store;
    private Path storeFile;
    private AuditKey key;
    private Path policy;
    private FileTokens tokens;

    @BeforeEach
    void indexAndWriteThePolicy() throws Exception {
        Map<String, String> env = Map.of("HOME", dir.toString(), "XDG_CONFIG_HOME", dir.resolve(".config").toString());
        storeFile = IndexedSqlite.index(dir, "shop", env, "CREATE TABLE orders (id integer PRIMARY KEY, total numeric, placed_at date)");
        store = new StoreLocation.SqliteFile(storeFile);
        key = AuditKey.resolve(Optional.of(dir.resolve("audit.key")), env, true);
        policy = dir.resolve("policy.yaml");
        Files.writeString(policy, """
                version: 1
                roles:
                  analyst: {allow: [main.orders], metric_rate: 30/min}
                  support: {allow: [main.*]}
                default_role: none
                """);
        Files.setPosixFilePermissions(policy, PosixFilePermissions.fromString("rw-------"));
        tokens = new FileTokens(dir.resolve("tokens.json"));
    }

    @Test
    void overHttpTheTokensRoleIsAuditedWhateverTheClientSays() throws Exception {
        String ana = tokens.create("ana", Optional.of("analyst"), Map.of());
        String nobody = tokens.create("nobody");
        HttpOptions http = HttpOptions.loopback().withAuthFilter(new AuthFilter(Optional.of(new BearerTokens(tokens)),
                Optional.empty()));
        StringWriter err = new StringWriter();
        ServeLifecycle serve = new ServeLifecycle(settings(Optional.of(http)).withAccessPolicy(
                AccessPolicySource.open(policy), Caller.named("stdio")), SourceExecutors.NONE, InputStream.nullInputStream(),
                new PrintStream(OutputStream.nullOutputStream()), new PrintWriter(err, true), () -> "SIGTERM", () -> false);
        CompletableFuture<Void> running = ServeLifecycleTest.startInBackground(serve);
        try {
            String url = "http://127.0.0.1:" + serve.port().getAsInt() + "/mcp";
            call(url, ana, "analyst-client", "list_indexed_schemas");
            call(url, ana, "support", "list_indexed_schemas");      // a client naming another role: still the analyst
            call(url, nobody, "support", "list_indexed_schemas");   // no role, default_role none: nothing
            call(url, ana, "analyst-client", "grant_me_support");   // refused before dispatch: still the analyst's row
        } finally {
            serve.stopNow();
            running.get(30, TimeUnit.SECONDS);
        }
        List<AuditRecord> rows = lastRows(4);
        assertEquals(List.of("token:ana", "token:ana", "token:nobody", "token:ana"),
                rows.stream().map(r -> r.entry().caller()).toList());
        assertEquals(List.of("analyst", "analyst", "none", "analyst"), rows.stream().map(r -> r.entry().role()).toList());
        assertEquals("unknown_name", rows.get(3).entry().errorKind());

        InProcessCli.Result listed = InProcessCli.run("--store", storeFile.toString(), "audit", "list", "--role", "analyst",
                "--json");
        assertEquals(0, listed.exitCode(), listed.stderr());
        JsonNode array = JSON.readTree(listed.stdout());
        assertEquals(3, array.size(), listed.stdout());
        array.forEach(r -> assertEquals("analyst", r.path("role").asText()));
        InProcessCli.Result verified = InProcessCli.run(Map.of("HOME", dir.toString()), "--store", storeFile.toString(),
                "audit", "verify", "--audit-key", dir.resolve("audit.key").toString());
        assertEquals(0, verified.exitCode(), verified.stdout() + verified.stderr());
    }

    @Test
    void overStdioTheRoleIsServesRole() throws Exception {
        String stdin = "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"role:support\",\"version\":\"1\"}}}\n"
                + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"list_indexed_schemas\","
                + "\"arguments\":{}}}\n";
        ServeLifecycle serve = new ServeLifecycle(settings(Optional.empty()).withAccessPolicy(AccessPolicySource.open(policy),
                new Caller("stdio", Optional.of("analyst"), Map.of())), SourceExecutors.NONE,
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                new PrintStream(OutputStream.nullOutputStream()), new PrintWriter(new StringWriter(), true),
                () -> "SIGTERM", () -> false);
        serve.start();
        serve.run();
        AuditRecord row = lastRows(1).get(0);
        assertEquals("stdio", row.entry().caller());
        assertEquals("analyst", row.entry().role());
    }

    @Test
    void serveRefusesRolesItCannotHonour() {
        InProcessCli.Result http = InProcessCli.run("--store", storeFile.toString(), "serve", "--transport", "http",
                "--access-policy", policy.toString(), "--role", "analyst");
        assertEquals(2, http.exitCode());
        assertTrue(http.stderr().contains("over HTTP each caller's role"), http.stderr());
        InProcessCli.Result noPolicy = InProcessCli.run("--store", storeFile.toString(), "serve", "--role", "analyst");
        assertEquals(2, noPolicy.exitCode());
        assertTrue(noPolicy.stderr().contains("need --access-policy"), noPolicy.stderr());
        InProcessCli.Result unknown = InProcessCli.run("--store", storeFile.toString(), "serve", "--access-policy",
                policy.toString(), "--role", "admin");
        assertEquals(2, unknown.exitCode());
        assertTrue(unknown.stderr().contains("--role admin is not a role of the access policy"), unknown.stderr());
    }

    private static void call(String url, String token, String clientName, String tool) throws Exception {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool + "\","
                + "\"arguments\":{},\"_meta\":{\"role\":\"support\"}}}";
        HttpResponse<String> answer = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .header("Authorization", "Bearer " + token).header("X-Client-Name", clientName)
                .header("User-Agent", clientName)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, answer.statusCode(), answer.body());
    }

    private ServeSettings settings(Optional<HttpOptions> http) {
        return ServeLifecycleTest.settings(store, key, http);
    }

    private List<AuditRecord> lastRows(int n) throws Exception {
        try (AuditLog log = AuditLog.openExisting(storeFile)) {
            return log.list(n, OptionalLong.empty());
        }
    }
}
