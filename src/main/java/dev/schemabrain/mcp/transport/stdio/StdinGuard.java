package dev.schemabrain.mcp.transport.stdio;

import dev.schemabrain.mcp.server.CallGate;
import dev.schemabrain.mcp.server.JsonRpcFrames;
import dev.schemabrain.mcp.server.ModernEra;
import dev.schemabrain.access.Access;

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
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Reads stdin for the MCP session ({@link StdioSessionTransport}). The SDK's stdio transport ends the
 * whole session on the first line it cannot parse; the guard answers such lines itself with the JSON-RPC error the
 * specification names (-32700 parse error, -32600 invalid request) and passes only well-formed
 * messages on, parsed once, so one bad line costs one error frame, not the session. Lines are bounded, so a
 * runaway client cannot exhaust memory. End of input ends the session: {@link #awaitEnd()}. What a
 * tools/call must be, and the audit row of one refused, is the {@link CallGate}'s, asked under
 * {@link StdioServer#CALLER} (never a name the client chose), as the HTTP transport asks it.
 */
final class StdinGuard implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(StdinGuard.class);

    private final InputStream stdin;
    private final OutputStream frames;
    private final int maxLineBytes;
    private final ObjectMapper json = new ObjectMapper();
    private final Consumer<McpSchema.JSONRPCMessage> session;
    private static final byte[] NEWLINE = {'\n'};
    private final CountDownLatch ended = new CountDownLatch(1);
    private final CallGate gate;
    private final ModernEra modern;
    private final ModernEra.ToolRunner tools;
    private final Supplier<Access> access;
    private final InFlight modernInFlight = new InFlight();
    private boolean initialized;          // only the reader thread touches it
    private volatile boolean started;     // the client sent notifications/initialized

    /**
     * @param frames the stream the SDK writes its frames to: error frames are written under the same
     *               lock the SDK takes, so frames never interleave
     * @param modern the 2026-07-28 revision's answers, written here (the SDK's session never sees those messages)
     * @param tools  how such a tools/call reaches its tool; {@code access}: the one caller's reach, per call
     */
    StdinGuard(InputStream stdin, OutputStream frames, Consumer<McpSchema.JSONRPCMessage> session, int maxLineBytes,
               CallGate gate, ModernEra modern, ModernEra.ToolRunner tools, Supplier<Access> access) {
        this.modern = modern;
        this.tools = tools;
        this.access = access;
        this.session = session;
        this.gate = gate;
        this.stdin = stdin;
        this.frames = frames;
        this.maxLineBytes = maxLineBytes;
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
        JsonNode id = message.get("id");
        JsonNode replyId = id != null && (id.isTextual() || id.isIntegralNumber()) ? id : null;
        CallGate.Refusal malformed = gate.shape(message, StdioServer.CALLER);
        if (malformed != null) {
            reply(replyId, malformed.code(), malformed.message());
            return;
        }
        if (modern != null && ModernEra.claims(message, ModernEra.Headers.NONE)) {
            answerModern(message);
            return;
        }
        CallGate.Refusal refusal = gate.screen(message, StdioServer.CALLER);
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
            gate.recordMalformed(message, StdioServer.CALLER);
            reply(replyId, JsonRpcFrames.INVALID_REQUEST, "Invalid Request: the message does not have the shape of a JSON-RPC 2.0 request.");
            return;
        }
        String method = message.path("method").asText("");
        if (initialized && replyId != null && method.equals("tools/list")) {
            write(gate.toolsList(replyId), NEWLINE);
            return;
        }
        initialized |= method.equals("initialize");
        started |= method.equals("notifications/initialized");
        session.accept(parsed);
    }

    /** A 2026-07-28 message: no session to start, each answered on its own (a tool's answer from its lane). */
    private void answerModern(JsonNode message) {
        modernInFlight.started();
        modern.answer(message, ModernEra.Headers.NONE, StdioServer.CALLER, access.get(), tools)
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
