package dev.schemabrain.mcp.transport.stdio;

import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.mcp.server.CallGate;
import dev.schemabrain.mcp.server.Handshake;
import dev.schemabrain.mcp.server.JsonRpcFrames;
import dev.schemabrain.mcp.server.McpToolAdapter;
import dev.schemabrain.mcp.server.ModernEra;
import dev.schemabrain.access.Access;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.spec.McpSchema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * Reads stdin for the MCP session ({@link StdioSessionTransport}). The SDK's stdio transport ends the
 * whole session on the first line it cannot parse; the guard answers such lines itself with the JSON-RPC error the
 * specification names (-32700 parse error, -32600 invalid request) and passes only well-formed
 * messages on, parsed once, so one bad line costs one error frame, not the session. Lines are bounded, so a
 * runaway client cannot exhaust memory. End of input ends the session: {@link #awaitEnd()}. What a
 * tools/call must be, and the audit row of one refused, is the {@link CallGate}'s, asked under
 * {@link StdioServer#CALLER} (never a name the client chose), as the HTTP transport asks it.
 * <p>
 * The guard reads from the process's start, before the server is built: initialize is answered at once from the
 * {@link Handshake} (the SDK's own answer to it, once the server is built, is dropped), and a call sent then waits
 * for the server, so what a client sees first is the JVM's start, not the store's.
 */
final class StdinGuard implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(StdinGuard.class);

    private final InputStream stdin;
    private final OutputStream frames;
    private final int maxLineBytes;
    private final ObjectMapper json = new ObjectMapper();
    private static final byte[] NEWLINE = {'\n'};
    /** A name a retry may point to: an unknown one is the server's to judge once it is built. */
    private static final Pattern TOOL_NAME = Pattern.compile("[a-z][a-z0-9_]{0,63}");
    private final CountDownLatch ended = new CountDownLatch(1);
    private final Early early;
    private final CountDownLatch ready = new CountDownLatch(1);
    private volatile Parts parts;
    /**
     * Read before the server was built and not handed to it yet, in order: the initialize answered early (whose
     * answer from the SDK is then dropped) and notifications. Only the reader thread touches it.
     */
    private final List<JsonNode> held = new ArrayList<>();
    private boolean initializeHeld;       // only the reader thread touches it
    private final InFlight modernInFlight = new InFlight();
    private boolean initialized;          // only the reader thread touches it
    private volatile boolean started;     // the client sent notifications/initialized

    /**
     * Where messages go once the server is built.
     *
     * @param session the SDK's session; its frames are written under the lock of the guard's {@code frames}
     * @param modern  the 2026-07-28 revision's answers, written here (the SDK's session never sees those messages)
     * @param tools   how such a tools/call reaches its tool; {@code access}: the one caller's reach, per call
     */
    record Parts(Session session, CallGate gate, ModernEra modern, ModernEra.ToolRunner tools,
                 Supplier<Access> access) {
    }

    /** The SDK's session, as the guard sees it. */
    @FunctionalInterface
    interface Session {
        /** Hands one message to the session. */
        void deliver(McpSchema.JSONRPCMessage message);

        /** The session's answer to the request {@code id} (an initialize answered early) is not written, once. */
        default void dropAnswerTo(Object id) {
        }
    }

    /**
     * What is answered before the server is built: initialize (from {@code handshake}, in the SDK's negotiation of
     * {@code protocolVersions}) and ping. Any other request waits for the server, at most {@code bound}.
     */
    record Early(Handshake handshake, List<String> protocolVersions, Duration bound) {
    }

    /** @param frames the stream the SDK writes its frames to: the guard's own are written under the same lock */
    StdinGuard(InputStream stdin, OutputStream frames, int maxLineBytes, Early early) {
        this.stdin = stdin;
        this.frames = frames;
        this.maxLineBytes = maxLineBytes;
        this.early = early;
    }

    /** The server is built: messages held for it, and every later one, go to {@code parts}. */
    void ready(Parts parts) {
        this.parts = parts;
        ready.countDown();
    }

    void awaitEnd() throws InterruptedException {
        ended.await();
    }

    /** Whether the client sent notifications/initialized: until then the SDK holds every request but initialize and ping. */
    boolean sessionStarted() {
        return started;
    }

    @Override
    public void run() {
        try {
            ByteArrayOutputStream line = new ByteArrayOutputStream(8192);
            boolean tooLong = false;
            byte[] buffer = new byte[65536];
            int n;
            while ((n = stdin.read(buffer)) >= 0) {
                int start = 0;
                for (int i = 0; i < n; i++) {
                    if (buffer[i] != '\n') {
                        continue;
                    }
                    if (!tooLong) {
                        tooLong = append(line, buffer, start, i - start);
                    }
                    finishLine(line, tooLong);
                    line.reset();
                    tooLong = false;
                    start = i + 1;
                }
                if (!tooLong) {
                    tooLong = append(line, buffer, start, n - start);
                }
            }
            if (line.size() > 0 || tooLong) {
                finishLine(line, tooLong);
            }
        } catch (IOException e) {
            LOG.warn("reading stdin failed: {}", e.getMessage());
        } finally {
            ended.countDown();
        }
    }

    /** Appends unless the line would exceed the limit; returns whether it now does. */
    private boolean append(ByteArrayOutputStream line, byte[] buffer, int offset, int length) {
        if (line.size() + length > maxLineBytes) {
            return true;
        }
        line.write(buffer, offset, length);
        return false;
    }

    private void finishLine(ByteArrayOutputStream bytes, boolean tooLong) {
        if (tooLong) {
            LOG.warn("dropped an input line longer than {} bytes", maxLineBytes);
            reply(null, JsonRpcFrames.INVALID_REQUEST, "Invalid Request: a message may be at most " + maxLineBytes / (1024 * 1024)
                    + " MiB; send smaller arguments.");
            return;
        }
        String line = bytes.toString(StandardCharsets.UTF_8).strip();
        if (line.isEmpty()) {
            return;
        }
        JsonNode message;
        try {
            message = json.readTree(line);
        } catch (IOException e) {
            LOG.warn("answered a line that is not JSON with a parse error");
            reply(null, JsonRpcFrames.PARSE_ERROR, "Parse error: each line must be one JSON-RPC message.");
            return;
        }
        if (message == null || !message.isObject()) {
            reply(null, JsonRpcFrames.INVALID_REQUEST, "Invalid Request: expected one JSON-RPC object per line (batches are not supported).");
            return;
        }
        Parts p = parts;
        if (p == null) {
            if (answeredEarly(message)) {
                return;
            }
            p = awaitParts();
            if (p == null) {
                stillStarting(message);
                return;
            }
        }
        if (!held.isEmpty()) {
            List<JsonNode> before = List.copyOf(held);
            held.clear();
            for (JsonNode m : before) {
                handle(m, p);
            }
        }
        handle(message, p);
    }

    private void handle(JsonNode message, Parts p) {
        JsonNode id = message.get("id");
        JsonNode replyId = id != null && (id.isTextual() || id.isIntegralNumber()) ? id : null;
        CallGate.Refusal malformed = p.gate().shape(message, StdioServer.CALLER);
        if (malformed != null) {
            reply(replyId, malformed.code(), malformed.message());
            return;
        }
        if (p.modern() != null && ModernEra.claims(message, ModernEra.Headers.NONE)) {
            answerModern(message, p);
            return;
        }
        CallGate.Refusal refusal = p.gate().screen(message, StdioServer.CALLER);
        if (refusal != null) {
            // A notification is never answered, refused or not.
            if (message.has("id")) {
                write(refusal.frame(replyId), NEWLINE);
            }
            return;
        }
        McpSchema.JSONRPCMessage parsed;
        try {
            parsed = typed(message);
        } catch (IOException | RuntimeException e) {
            p.gate().recordMalformed(message, StdioServer.CALLER);
            reply(replyId, JsonRpcFrames.INVALID_REQUEST, "Invalid Request: the message does not have the shape of a JSON-RPC 2.0 request.");
            return;
        }
        String method = message.path("method").asText("");
        if (initialized && replyId != null && method.equals("tools/list")) {
            write(p.gate().toolsList(replyId), NEWLINE);
            return;
        }
        if (method.equals("initialize") && initializeHeld && !initialized && parsed instanceof McpSchema.JSONRPCRequest r) {
            p.session().dropAnswerTo(r.id());   // answered early, from the same handshake
        }
        initialized |= method.equals("initialize");
        started |= method.equals("notifications/initialized");
        p.session().deliver(parsed);
    }

    /**
     * Before the server is built: initialize and ping are answered at once, a notification is held in order; returns
     * false for anything else, which waits for the server.
     */
    private boolean answeredEarly(JsonNode message) {
        String method = message.path("method").asText("");
        JsonNode id = message.get("id");
        if (id == null) {
            if (message.has("method")) {
                held.add(message);
                return true;
            }
            return false;
        }
        // Only what the server would take as it is: anything else waits, so it gets one answer, the server's.
        if (!(id.isTextual() || id.isIntegralNumber()) || !"2.0".equals(message.path("jsonrpc").asText(null))) {
            return false;
        }
        if (method.equals("ping")) {
            write(JsonRpcFrames.result(id, "{}".getBytes(StandardCharsets.UTF_8)), NEWLINE);
            return true;
        }
        if (!method.equals("initialize") || initializeHeld || !message.path("params").path("protocolVersion").isTextual()
                || ModernEra.claims(message, ModernEra.Headers.NONE)) {
            return false;
        }
        String requested = message.path("params").path("protocolVersion").asText("");
        try {
            byte[] result = json.writeValueAsBytes(early.handshake().answer(requested, early.protocolVersions()));
            write(JsonRpcFrames.result(id, result), NEWLINE);
        } catch (IOException e) {
            return false;   // the SDK answers it once the server is built
        }
        initializeHeld = true;
        held.add(message);
        return true;
    }

    /** The server's parts, waiting at most the early bound; null if it is not built by then. */
    private Parts awaitParts() {
        try {
            return ready.await(early.bound().toMillis(), TimeUnit.MILLISECONDS) ? parts : null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** A request read while the server is still starting, past the bound: a call is told to retry, as is any other. */
    private void stillStarting(JsonNode message) {
        JsonNode id = message.get("id");
        if (id == null) {
            held.add(message);
            return;
        }
        String why = "The server is still starting (opening its store and audit log); retry in a few seconds.";
        JsonNode params = message.path("params");
        String tool = params.path("name").asText("");
        if (!message.path("method").asText("").equals("tools/call") || !(id.isTextual() || id.isIntegralNumber())
                || !TOOL_NAME.matcher(tool).matches()) {
            reply(id.isTextual() || id.isIntegralNumber() ? id : null, JsonRpcFrames.INTERNAL_ERROR, why);
            return;
        }
        Map<String, Object> arguments = params.path("arguments").isObject()
                ? json.convertValue(params.path("arguments"), new TypeReference<Map<String, Object>>() { })
                : Map.of();
        Envelope answer = Envelope.notReadyYet(why, tool, arguments);
        try {
            write(JsonRpcFrames.result(id, json.writeValueAsBytes(McpToolAdapter.result(answer))), NEWLINE);
        } catch (IOException e) {
            reply(id, JsonRpcFrames.INTERNAL_ERROR, why);
        }
    }

    /** A 2026-07-28 message: no session to start, each answered on its own (a tool's answer from its lane). */
    private void answerModern(JsonNode message, Parts p) {
        modernInFlight.started();
        p.modern().answer(message, ModernEra.Headers.NONE, StdioServer.CALLER, p.access().get(), p.tools())
                .whenComplete((answer, failure) -> {
                    try {
                        if (failure != null) {
                            JsonNode id = message.get("id");
                            LOG.warn("a tool failed before it could answer: {}", failure.getMessage());
                            if (id != null && (id.isTextual() || id.isIntegralNumber())) {
                                reply(id, JsonRpcFrames.INTERNAL_ERROR, "The tool failed before it could answer; retry,"
                                        + " and if it persists see the server log.");
                            }
                        } else if (answer.frame() != null) {
                            write(answer.frame(), NEWLINE);
                        }
                    } finally {
                        modernInFlight.ended();
                    }
                });
    }

    /** Waits until every 2026-07-28 request read so far has its answer, or {@code limit} passes; returns whether all do. */
    boolean awaitModernAnswered(Duration limit) throws InterruptedException {
        return modernInFlight.await(limit);
    }

    /** The SDK's reading of a message ({@code McpSchema.deserializeJsonRpcMessage}), from the tree already parsed. */
    private McpSchema.JSONRPCMessage typed(JsonNode message) throws IOException {
        if (message.has("method")) {
            return message.has("id") ? json.treeToValue(message, McpSchema.JSONRPCRequest.class)
                    : json.treeToValue(message, McpSchema.JSONRPCNotification.class);
        }
        if (message.has("result") || message.has("error")) {
            return json.treeToValue(message, McpSchema.JSONRPCResponse.class);
        }
        throw new IllegalArgumentException("neither a request, a notification nor a response");
    }

    private void reply(JsonNode id, int code, String message) {
        write(JsonRpcFrames.error(id, code, message), NEWLINE);
    }

    /** One frame, written under the lock the SDK takes for its own. */
    private void write(byte[]... parts) {
        synchronized (frames) {
            try {
                for (byte[] part : parts) {
                    frames.write(part);
                }
                frames.flush();
            } catch (IOException e) {
                LOG.warn("writing a frame failed: {}", e.getMessage());
            }
        }
    }
}
