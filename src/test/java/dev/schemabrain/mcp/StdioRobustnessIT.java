package dev.schemabrain.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemabrain.audit.AuditLog;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.index.IndexListener;
import dev.schemabrain.index.Indexer;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.source.Sources;
import dev.schemabrain.store.AuditWitnessStore;
import dev.schemabrain.testing.McpStdio;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.HashSet;
import java.util.Set;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The stdio server under a misbehaving client, driven byte by byte: every bad line gets the right
 * JSON-RPC error and the session goes on, stdout carries nothing but frames, and the process exits 0
 * when stdin closes, even mid-session.
 */
class StdioRobustnessIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;
    Process server;
    OutputStream stdin;
    final BlockingQueue<JsonNode> frames = new LinkedBlockingQueue<>();
    final List<String> stdoutLines = new CopyOnWriteArrayList<>();

    void start(String... extraArgs) throws IOException {
        List<String> command = McpStdio.serveCommand(dir.resolve("schemabrain.db"));
        command.addAll(List.of(extraArgs));
        command.addAll(List.of("--catalog-rate-limit", "off"));   // bursts of hundreds of calls: a robustness test, not a rate test
        server = new ProcessBuilder(command).redirectError(dir.resolve("stderr.txt").toFile()).start();
        stdin = server.getOutputStream();
        Thread reader = new Thread(() -> {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = out.readLine()) != null) {
                    stdoutLines.add(line);
                    try {
                        frames.add(JSON.readTree(line));
                    } catch (IOException e) {
                        frames.add(JSON.createObjectNode().put("not_json", line));
                    }
                }
            } catch (IOException ignored) {
                // the process ended
            }
        });
        reader.setDaemon(true);
        reader.start();
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.destroyForcibly();
        }
    }

    void send(String line) throws IOException {
        stdin.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        stdin.flush();
    }

    JsonNode next() throws InterruptedException {
        JsonNode frame = frames.poll(30, TimeUnit.SECONDS);
        assertNotNull(frame, "the server answered");
        return frame;
    }

    void initialize(String version) throws Exception {
        send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"" + version
                + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}");
        JsonNode init = next();
        assertEquals(version, init.at("/result/protocolVersion").asText());
        send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    }

    void assertOnlyFrames() {
        for (String line : stdoutLines) {
            JsonNode frame;
            try {
                frame = JSON.readTree(line);
            } catch (IOException e) {
                throw new AssertionError("stdout carried a line that is not a frame: " + line);
            }
            assertEquals("2.0", frame.path("jsonrpc").asText(), line);
        }
    }

    @Test
    void olderProtocolVersionsAreAccepted() throws Exception {
        for (String version : List.of("2024-11-05", "2025-03-26", "2025-06-18")) {
            frames.clear();
            start();
            initialize(version);
            stdin.close();
            assertTrue(server.waitFor(20, TimeUnit.SECONDS));
            assertEquals(0, server.exitValue());
        }
    }

    @Test
    void badLinesGetJsonRpcErrorsAndTheSessionContinues() throws Exception {
        start("-v");
        initialize("2025-11-25");
        send("{bad");
        assertEquals(-32700, next().at("/error/code").asInt());
        send("[{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}]");
        assertEquals(-32600, next().at("/error/code").asInt(), "batches are not part of MCP 2025-11-25");
        send("{\"foo\":1}");
        assertEquals(-32600, next().at("/error/code").asInt());
        send("");
        send("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"frobnicate\"}");
        JsonNode unknownMethod = next();
        assertEquals(3, unknownMethod.path("id").asInt());
        assertEquals(-32601, unknownMethod.at("/error/code").asInt());
        send("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"describe_tables\",\"arguments\":{}}}");
        JsonNode unknownTool = next();
        assertEquals(4, unknownTool.path("id").asInt());
        assertEquals(-32602, unknownTool.at("/error/code").asInt());
        assertTrue(unknownTool.at("/error/message").asText().contains("did you mean describe_table?"));
        send("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"describe_table\",\"arguments\":\"x\"}}");
        JsonNode notAnObject = next();
        assertEquals(5, notAnObject.path("id").asInt());
        assertEquals(-32602, notAnObject.at("/error/code").asInt());
        assertFalse(notAnObject.toString().contains("Exception") || notAnObject.toString().contains("java."),
                "no Java internals in the answer");
        send("{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/call\",\"params\":{\"name\":\"suggest_joins\",\"arguments\":{\"tables\":[1,2],\"max_hops\":true}}}");
        JsonNode wrongTypes = next();
        assertEquals(true, wrongTypes.at("/result/isError").asBoolean());
        assertEquals("invalid_argument", wrongTypes.at("/result/structuredContent/error/kind").asText());

        send("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/list\"}");
        JsonNode list = next();
        assertEquals(7, list.path("id").asInt());
        assertEquals(16, list.at("/result/tools").size(), "still serving after every bad line");
        stdin.close();
        assertTrue(server.waitFor(20, TimeUnit.SECONDS));
        assertEquals(0, server.exitValue());
        assertOnlyFrames();
    }

    @Test
    void aLineOverTheLimitIsAnsweredAndSkipped() throws Exception {
        start();
        initialize("2025-11-25");
        String huge = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"describe_table\","
                + "\"arguments\":{\"qualified_name\":\"" + "y".repeat(17 * 1024 * 1024) + "\"}}}";
        send(huge);
        JsonNode tooLong = next();
        assertEquals(-32600, tooLong.at("/error/code").asInt());
        assertTrue(tooLong.toString().length() < 300);
        send("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}");
        assertEquals(3, next().path("id").asInt());
        stdin.close();
        assertTrue(server.waitFor(20, TimeUnit.SECONDS));
        assertEquals(0, server.exitValue());
        assertOnlyFrames();
    }

    @Test
    void closingStdinMidSessionEndsTheProcessCleanly() throws Exception {
        start();
        initialize("2025-11-25");
        send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"list_indexed_schemas\",\"arguments\":{}}}");
        send("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/ca");
        stdin.close();
        assertTrue(server.waitFor(20, TimeUnit.SECONDS), "the server stops when stdin closes");
        assertEquals(0, server.exitValue());
        assertOnlyFrames();
    }

    /** The SDK holds requests until notifications/initialized; a client that closes stdin before it must not keep the server waiting. */
    @Test
    void stdinClosedBeforeInitializedEndsTheServerAtOnceAndSaysWhy() throws Exception {
        start();
        send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}");
        next();
        send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"list_indexed_schemas\",\"arguments\":{}}}");
        stdin.close();
        assertTrue(server.waitFor(20, TimeUnit.SECONDS), "the server stops when stdin closes");
        assertEquals(0, server.exitValue());
        assertTrue(Files.readString(dir.resolve("stderr.txt")).contains("before the client sent notifications/initialized"),
                "the log says why request 2 went unanswered");
        assertOnlyFrames();
    }

    /** A two-table store in {@code dir}, indexed from a SQLite file. */
    void indexShop() throws Exception {
        Path db = dir.resolve("shop.sqlite");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT, city TEXT)");
            st.execute("CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers(id), total REAL)");
        }
        SourceUrl url = SourceUrl.parse("sqlite:" + db);
        try (SchemaSource source = Sources.open(url)) {
            new Indexer().run(url, source, dir.resolve("schemabrain.db"), false, IndexListener.SILENT);
        }
    }

    /**
     * What a client waits for first is the JVM's start: initialize is answered while the store cannot even be read
     * (another process holds it exclusively), and a call sent then waits for the store and answers from it.
     */
    @Test
    void initializeIsAnsweredWhileTheStoreIsHeldAndACallSentThenWaitsAndAnswersFromIt() throws Exception {
        indexShop();
        try (Connection holder = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("schemabrain.db"));
             Statement st = holder.createStatement()) {
            st.execute("PRAGMA locking_mode=EXCLUSIVE");
            st.execute("BEGIN EXCLUSIVE");
            st.execute("CREATE TABLE held_by_the_test (x INTEGER)");
            start();
            initialize("2025-11-25");
            send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"describe_table\","
                    + "\"arguments\":{\"qualified_name\":\"main.customers\"}}}");
            assertEquals(null, frames.poll(1500, TimeUnit.MILLISECONDS), "the call waits while the store is held");
            st.execute("ROLLBACK");
        }
        JsonNode call = next();
        assertEquals(2, call.path("id").asInt(), "the next frame answers the call: initialize was answered once");
        JsonNode envelope = JSON.readTree(call.at("/result/content/0/text").asText());
        assertEquals("success", envelope.path("status").asText(), envelope.toString());
        Set<String> columns = new HashSet<>();
        envelope.at("/data/columns").forEach(c -> columns.add(c.path("name").asText()));
        assertEquals(Set.of("id", "name", "city"), columns, envelope.toString());
        assertOnlyFrames();
    }

    /**
     * The SDK's stdio client sends SIGTERM as it closes, right after the last answer: the rows of the calls
     * answered last must be witnessed in the store all the same, or cutting them off the log would go unseen.
     */
    @Test
    void aServerStoppedBySigtermRightAfterItsLastAnswerHasEveryRowWitnessed() throws Exception {
        indexShop();
        for (int round = 0; round < 3; round++) {
            start();
            initialize("2025-11-25");
            for (int i = 0; i < 4; i++) {
                send("{\"jsonrpc\":\"2.0\",\"id\":" + (i + 2) + ",\"method\":\"tools/call\",\"params\":{\"name\":"
                        + "\"list_indexed_schemas\",\"arguments\":{}}}");
                assertTrue(next().has("result"));
            }
            server.destroy();
            assertTrue(server.waitFor(20, TimeUnit.SECONDS), "the server stops on SIGTERM");
            Path store = dir.resolve("schemabrain.db");
            long rows;
            try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + AuditLog.fileFor(store));
                 Statement st = c.createStatement(); var rs = st.executeQuery("SELECT max(id) FROM audit_log")) {
                rows = rs.getLong(1);
            }
            assertEquals(4L * (round + 1), rows, "one row per answered call");
            assertEquals(rows, AuditWitnessStore.read(store).orElseThrow().rowCount(),
                    "the store's witness vouches for the last answered call's row");
        }
    }

    /**
     * Answers are written by whichever lane finishes a call, so a burst sent without waiting must still come
     * back as whole frames, one per request, none lost when stdin closes behind the burst.
     */
    @Test
    void aBurstOfCallsClosedBehindIsAnsweredInWholeFramesOncePerRequest() throws Exception {
        indexShop();
        start();
        initialize("2025-11-25");
        int calls = 300;
        StringBuilder burst = new StringBuilder();
        for (int id = 100; id < 100 + calls; id++) {
            String call = switch (id % 3) {
                case 0 -> "\"name\":\"describe_table\",\"arguments\":{\"qualified_name\":\"main.orders\"}";
                case 1 -> "\"name\":\"find_relevant_tables\",\"arguments\":{\"query\":\"customer cities\"}";
                default -> "\"name\":\"list_indexed_schemas\",\"arguments\":{}";
            };
            burst.append("{\"jsonrpc\":\"2.0\",\"id\":").append(id).append(",\"method\":\"tools/call\",\"params\":{")
                    .append(call).append("}}\n");
        }
        stdin.write(burst.toString().getBytes(StandardCharsets.UTF_8));
        stdin.close();
        assertTrue(server.waitFor(60, TimeUnit.SECONDS), "the server stops once the burst is answered");
        assertEquals(0, server.exitValue());
        assertOnlyFrames();
        Set<Integer> answered = new HashSet<>();
        for (JsonNode frame : frames) {
            int id = frame.path("id").asInt();
            if (id < 100) {
                continue;
            }
            assertTrue(answered.add(id), "request " + id + " was answered once");
            String text = frame.at("/result/content/0/text").asText();
            assertTrue(text.contains("\"status\":\"success\""), "request " + id + ": " + text);
        }
        assertEquals(calls, answered.size(), "every request of the burst was answered");
    }
}
