package dev.schemabrain.serve;

import dev.schemabrain.audit.AuditDurability;
import dev.schemabrain.audit.AuditKey;
import dev.schemabrain.audit.AuditLog;
import dev.schemabrain.execute.SourceExecutors;
import dev.schemabrain.mcp.server.CallerRates;
import dev.schemabrain.mcp.server.ToolListing;
import dev.schemabrain.store.StoreLocation;
import dev.schemabrain.testing.IndexedSqlite;
import dev.schemabrain.mcp.transport.http.HttpOptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
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
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Whole serves in this JVM (stdio over a stream, HTTP on a free port): start, one call, stop; then the closing order and the last line. */
class ServeLifecycleTest {

    private static final List<String> CLOSING = List.of("stopped accepting", "warm-up ended", "embedder closed",
            "audit log closed", "executor closed");
    private static final String CALL = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":"
            + "\"describe_table\",\"arguments\":{\"qualified_name\":\"main.orders\"}}}";

    @TempDir
    Path dir;
    private StoreLocation store;
    private AuditKey key;

    @BeforeEach
    void indexOneTable() throws Exception {
        Map<String, String> env = Map.of("HOME", dir.toString(), "XDG_CONFIG_HOME", dir.resolve(".config").toString());
        store = new StoreLocation.SqliteFile(IndexedSqlite.index(dir, "shop", env,
                "CREATE TABLE orders (id integer PRIMARY KEY, total numeric, placed_at date)"));
        key = AuditKey.resolve(Optional.of(dir.resolve("audit.key")), env, true);
    }

    @Test
    void aStdioServeClosesInOrderAndCountsTheRowsItWrote() throws Exception {
        long before = rows();

        String stdin = "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}}\n"
                + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n"
                + CALL + "\n";
        ByteArrayOutputStream frames = new ByteArrayOutputStream();
        StringWriter err = new StringWriter();
        ServeLifecycle serve = new ServeLifecycle(settings(Optional.empty()), SourceExecutors.NONE,
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                new PrintStream(frames, true, StandardCharsets.UTF_8), new PrintWriter(err, true), () -> "SIGTERM",
                () -> false);
        serve.start();
        serve.run();

        assertTrue(frames.toString(StandardCharsets.UTF_8).contains("\"id\":1"), frames.toString(StandardCharsets.UTF_8));
        assertEquals(CLOSING, serve.closingSteps());
        long written = rows() - before;
        assertTrue(written > 0, "the call wrote no audit row");
        assertEquals("schemabrain: stopped after stdin closed, " + written + " audit rows written.",
                err.toString().strip());
    }

    /** A client closes stdin and signals at once: whichever lands first, the operator reads one stopped line. */
    @Test
    void aSignalAfterStdinEndedSaysOneStoppedLineWhicheverCloses() throws Exception {
        StringWriter afterFinish = new StringWriter();
        ServeLifecycle finished = stdioServe(afterFinish);
        finished.run();
        finished.stopNow();   // the hook at the JVM's exit, the serving thread done
        assertEquals(1, afterFinish.toString().lines().count(), afterFinish.toString());
        assertTrue(afterFinish.toString().startsWith("schemabrain: stopped after stdin closed, "), afterFinish.toString());

        StringWriter signalFirst = new StringWriter();
        ServeLifecycle racing = stdioServe(signalFirst);
        racing.awaitStop();
        racing.stopNow();     // the signal's hook, stdin already ended, the serving thread not yet closing
        racing.finish();
        List<String> lines = signalFirst.toString().strip().lines().toList();
        assertEquals(2, lines.size(), signalFirst.toString());
        assertEquals("schemabrain: stopping (SIGTERM) while closing: stdin had closed too", lines.get(0));
        assertTrue(lines.get(1).startsWith("schemabrain: stopped after SIGTERM, "), lines.get(1));
        assertEquals(CLOSING, racing.closingSteps());
    }

    private ServeLifecycle stdioServe(StringWriter err) throws Exception {
        String stdin = "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}}\n" + CALL + "\n";
        ServeLifecycle serve = new ServeLifecycle(settings(Optional.empty()), SourceExecutors.NONE,
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                new PrintStream(OutputStream.nullOutputStream()), new PrintWriter(err, true), () -> "SIGTERM", () -> true);
        serve.start();
        return serve;
    }

    @Test
    void anHttpServeStoppedByItsHookClosesInOrderAndCountsRequestsAndRows() throws Exception {
        long before = rows();
        StringWriter err = new StringWriter();
        ServeLifecycle serve = new ServeLifecycle(settings(Optional.of(HttpOptions.loopback())), SourceExecutors.NONE,
                InputStream.nullInputStream(), new PrintStream(OutputStream.nullOutputStream()), new PrintWriter(err, true),
                () -> "SIGINT", () -> false);
        CompletableFuture<Void> running = startInBackground(serve);
        HttpResponse<String> answer = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + serve.port().getAsInt() + "/mcp"))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(CALL)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, answer.statusCode(), answer.body());

        serve.stopNow();
        running.get(30, TimeUnit.SECONDS);
        assertEquals(CLOSING, serve.closingSteps());
        long written = rows() - before;
        assertTrue(written > 0, "the call wrote no audit row");
        assertEquals(List.of("schemabrain: stopping (SIGINT): 0 requests in flight get up to 5 s to finish, then the"
                        + " audit log closes", "schemabrain: stopped after 1 requests (0 errors), " + written
                        + " audit rows written."), err.toString().strip().lines().toList());
    }

    private ServeSettings settings(Optional<HttpOptions> http) {
        return settings(store, key, http);
    }

    /** Starts {@code serve} and runs it on another thread until it is stopped. */
    static CompletableFuture<Void> startInBackground(ServeLifecycle serve) throws Exception {
        serve.start();
        return CompletableFuture.runAsync(() -> {
            try {
                serve.run();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /** A serve of {@code store} without a source, unlimited, its audit rows durable before a metric's SQL leaves. */
    static ServeSettings settings(StoreLocation store, AuditKey key, Optional<HttpOptions> http) {
        return new ServeSettings(store, Optional.empty(), Optional.of(key), Optional.empty(),
                AuditDurability.STARTED_ROWS, CallerRates.OFF, 2, 5, ToolListing.FULL, Duration.ZERO, "test", http);
    }

    private long rows() throws Exception {
        try (AuditLog log = AuditLog.open(store, key, Optional.empty(), AuditDurability.STARTED_ROWS)) {
            return log.head().count();
        }
    }
}
