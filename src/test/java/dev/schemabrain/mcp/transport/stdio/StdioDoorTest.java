package dev.schemabrain.mcp.transport.stdio;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemabrain.access.Access;
import dev.schemabrain.mcp.server.CallerRates;
import dev.schemabrain.mcp.server.DispatchCapacity;
import dev.schemabrain.mcp.server.Handshake;
import dev.schemabrain.mcp.server.McpCore;
import dev.schemabrain.mcp.server.ToolListing;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.mcp.tools.StandardTools;
import dev.schemabrain.mcp.tools.ToolGroups;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Stdin read before the server is built: initialize is answered at once and exactly as the SDK answers it, and a
 * request that waits past the bound is told to retry, never dropped.
 */
class StdioDoorTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"initialize\",\"params\":"
            + "{\"protocolVersion\":\"%s\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";

    /** A client over a pipe in and a line queue out (a piped stream out checks which threads write, lanes come and go). */
    private static final class Pipes implements AutoCloseable {
        final PipedOutputStream toServer = new PipedOutputStream();
        final PipedInputStream stdin;
        final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        final PrintStream stdout = new PrintStream(new OutputStream() {
            private final ByteArrayOutputStream line = new ByteArrayOutputStream();

            @Override
            public synchronized void write(int b) {
                if (b == '\n') {
                    lines.add(line.toString(StandardCharsets.UTF_8));
                    line.reset();
                } else {
                    line.write(b);
                }
            }
        }, true, StandardCharsets.UTF_8);

        Pipes() throws Exception {
            stdin = new PipedInputStream(toServer, 1 << 16);
        }

        void send(String line) throws Exception {
            toServer.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            toServer.flush();
        }

        JsonNode next() throws Exception {
            String line = lines.poll(20, TimeUnit.SECONDS);
            assertNotNull(line, "an answer within 20 s");
            return JSON.readTree(line);
        }

        @Override
        public void close() throws Exception {
            toServer.close();
        }
    }

    private static McpCore core() {
        ToolRegistry registry = ToolGroups.DEFAULT.select(StandardTools.registry(Optional::empty, Optional.empty()));
        return McpCore.of(registry, DispatchCapacity.forMaxConcurrentQueries(2), CallerRates.OFF, ToolListing.FULL,
                Optional::empty, "test");
    }

    /** Builds the server behind {@code door} on its own thread, as serve does once its store is open. */
    private static void serve(McpCore core, StdioDoor door) {
        Thread serving = new Thread(() -> {
            try {
                StdioServer.run(core, Duration.ZERO, () -> Access.UNRESTRICTED, door);
            } catch (InterruptedException ignored) {
                // the test ended
            }
        });
        serving.setDaemon(true);
        serving.start();
    }

    @Test
    void initializeIsAnsweredBeforeTheServerIsBuiltWithTheSdksOwnAnswer() throws Exception {
        for (String version : new String[]{"2025-06-18", "2024-11-05", "1999-01-01"}) {
            JsonNode early;
            try (Pipes p = new Pipes()) {
                StdioDoor.open(p.stdin, p.stdout, Handshake.forTools(ToolGroups.DEFAULT.names(), "test"));
                p.send(INITIALIZE.formatted(version));
                early = p.next();   // nothing built: no core, no SDK server
            }
            JsonNode sdk;
            try (Pipes p = new Pipes()) {
                McpCore core = core();
                StdioDoor door = StdioDoor.open(p.stdin, p.stdout, core.handshake());
                serve(core, door);
                // A request the door cannot answer waits for the server: the initialize after it is the SDK's to answer.
                p.send("{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"no/such/method\"}");
                assertEquals(6, p.next().path("id").asInt());
                p.send(INITIALIZE.formatted(version));
                sdk = p.next();
            }
            assertEquals(sdk, early, "the early answer is the SDK's, for protocol version " + version);
            assertEquals(7, early.path("id").asInt());
            assertEquals("schemabrain", early.at("/result/serverInfo/name").asText());
        }
    }

    @Test
    void theSdksAnswerToAnInitializeAnsweredEarlyIsNotSentTwice() throws Exception {
        try (Pipes p = new Pipes()) {
            McpCore core = core();
            StdioDoor door = StdioDoor.open(p.stdin, p.stdout, core.handshake());
            p.send(INITIALIZE.formatted("2025-06-18"));
            JsonNode init = p.next();   // before the server exists
            assertEquals("2025-06-18", init.at("/result/protocolVersion").asText());
            p.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
            p.send("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/call\",\"params\":{\"name\":\"describe_table\","
                    + "\"arguments\":{\"qualified_name\":\"main.users\"}}}");
            serve(core, door);
            JsonNode call = p.next();
            assertEquals(8, call.path("id").asInt(), "the next frame answers the call, not initialize a second time");
            // Nothing is indexed here: the call reached its tool through the session the held initialize started.
            assertEquals("index_not_ready", call.at("/result/structuredContent/error/kind").asText(), call.toString());
            p.send("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"ping\"}");
            assertEquals(9, p.next().path("id").asInt());
        }
    }

    @Test
    void aCallWaitingPastTheBoundIsToldToRetryTheSameCallAndPingIsAnsweredMeanwhile() throws Exception {
        try (Pipes p = new Pipes()) {
            StdioDoor.open(p.stdin, p.stdout, Handshake.forTools(ToolGroups.DEFAULT.names(), "test"),
                    Duration.ofMillis(200));
            p.send(INITIALIZE.formatted("2025-06-18"));
            assertEquals(7, p.next().path("id").asInt());
            p.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
            p.send("{\"jsonrpc\":\"2.0\",\"id\":\"p\",\"method\":\"ping\"}");
            JsonNode ping = p.next();
            assertEquals("p", ping.path("id").asText());
            assertTrue(ping.path("result").isObject());
            p.send("{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"tools/call\",\"params\":{\"name\":\"get_metric\","
                    + "\"arguments\":{\"metric\":\"revenue\"}}}");
            JsonNode call = p.next();
            assertEquals(10, call.path("id").asInt());
            assertTrue(call.at("/result/isError").asBoolean());
            JsonNode envelope = call.at("/result/structuredContent");
            assertEquals("index_not_ready", envelope.at("/error/kind").asText(), call.toString());
            assertTrue(envelope.at("/error/message").asText().contains("still starting"), call.toString());
            assertEquals("get_metric", envelope.at("/error/recovery/suggested_tool").asText());
            assertEquals("revenue", envelope.at("/error/recovery/suggested_args/metric").asText());
            p.send("{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"tools/list\"}");
            JsonNode list = p.next();
            assertEquals(11, list.path("id").asInt());
            assertFalse(list.path("error").path("message").asText().isEmpty(), list.toString());
        }
    }

    @Test
    void anInitializeTheServerWouldRefuseIsNotAnsweredEarlySoItGetsOneAnswerTheRefusal() throws Exception {
        try (Pipes p = new Pipes()) {
            McpCore core = core();
            StdioDoor door = StdioDoor.open(p.stdin, p.stdout, core.handshake());
            p.send(INITIALIZE.formatted("2025-06-18").replace("\"jsonrpc\":\"2.0\",", ""));
            serve(core, door);
            JsonNode refused = p.next();
            assertEquals(-32600, refused.at("/error/code").asInt(), "the first frame is the refusal: " + refused);
            assertNull(p.lines.poll(500, TimeUnit.MILLISECONDS), "and no other answer follows it");
        }
    }

    @Test
    void theEarlyHandshakeNamesWhatTheServerServes() {
        ToolRegistry registry = ToolGroups.ALL.select(StandardTools.registry(Optional::empty, Optional.empty()));
        assertEquals(Set.copyOf(registry.names()), ToolGroups.ALL.names(), "the names known before the tools are built");
        assertEquals(McpCore.of(registry, DispatchCapacity.forMaxConcurrentQueries(2), CallerRates.OFF,
                        ToolListing.FULL, Optional::empty, "v").handshake(),
                Handshake.forTools(ToolGroups.ALL.names(), "v"));
    }
}
