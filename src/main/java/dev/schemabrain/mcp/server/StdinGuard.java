package dev.schemabrain.mcp.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schemabrain.mcp.envelope.ErrorKind;
import io.modelcontextprotocol.spec.McpSchema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Reads stdin for the MCP session ({@link StdioSessionTransport}). The SDK's stdio transport ends the
 * whole session on the first line it cannot parse; the guard answers such lines itself with the JSON-RPC error the
 * specification names (-32700 parse error, -32600 invalid request) and passes only well-formed
 * messages on, parsed once, so one bad line costs one error frame, not the session. Lines are bounded, so a
 * runaway client cannot exhaust memory. End of input ends the session: {@link #awaitEnd()}. A
 * tools/call it answers itself (unknown tool, no name, arguments not an object, not a request) is
 * still recorded in the audit log through {@link Rejections}, under {@link StdioServer#CALLER} (never a
 * name the client chose): every tools/call leaves a row, valid or not.
 */
final class StdinGuard implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(StdinGuard.class);
    static final int PARSE_ERROR = -32700;
    static final int INVALID_REQUEST = -32600;
    static final int INVALID_PARAMS = -32602;

    private final InputStream stdin;
    private final OutputStream frames;
    private final int maxLineBytes;
    private final Set<String> toolNames;
    private final ObjectMapper json = new ObjectMapper();
    private final Consumer<McpSchema.JSONRPCMessage> session;
    private final CountDownLatch ended = new CountDownLatch(1);
    private final Rejections rejections;
    private Supplier<byte[]> toolsList;   // null: the SDK answers tools/list
    private boolean initialized;          // only the reader thread touches it
    private volatile boolean started;     // the client sent notifications/initialized

    /** Where a tools/call answered by the guard is recorded. */
    @FunctionalInterface
    interface Rejections {
        Rejections NONE = (tool, caller, arguments, kind) -> {
        };

        /** @param tool the name as sent, or null; @param arguments the arguments as sent (any JSON value), or null */
        void record(String tool, String caller, Object arguments, ErrorKind kind);
    }

    /** A tools/call the guard answers itself: the message for the client and what the audit row says. */
    private record Rejected(String message, String tool, JsonNode arguments, ErrorKind kind) {
    }

    /**
     * @param frames the stream the SDK writes its frames to: error frames are written under the same
     *               lock the SDK takes, so frames never interleave
     */
    StdinGuard(InputStream stdin, OutputStream frames, Consumer<McpSchema.JSONRPCMessage> session, int maxLineBytes,
               Set<String> toolNames) {
        this(stdin, frames, session, maxLineBytes, toolNames, Rejections.NONE);
    }

    /** @param session where a well-formed message goes, parsed once, here */
    StdinGuard(InputStream stdin, OutputStream frames, Consumer<McpSchema.JSONRPCMessage> session, int maxLineBytes,
               Set<String> toolNames, Rejections rejections) {
        this.session = session;
        this.rejections = rejections;
        this.toolNames = Set.copyOf(toolNames);
        this.stdin = stdin;
        this.frames = frames;
        this.maxLineBytes = maxLineBytes;
    }

    /**
     * Answers tools/list itself with {@code result}, the cached bytes of the result, once the client has
     * sent initialize (before it, the SDK answers as it would). The SDK builds and serializes the whole
     * list per request. Set before the guard runs.
     */
    StdinGuard answeringToolsList(Supplier<byte[]> result) {
        this.toolsList = result;
        return this;
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
            reply(null, INVALID_REQUEST, "Invalid Request: a message may be at most " + maxLineBytes / (1024 * 1024)
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
            reply(null, PARSE_ERROR, "Parse error: each line must be one JSON-RPC message.");
            return;
        }
        if (message == null || !message.isObject()) {
            reply(null, INVALID_REQUEST, "Invalid Request: expected one JSON-RPC object per line (batches are not supported).");
            return;
        }
        JsonNode id = message.get("id");
        JsonNode replyId = id != null && (id.isTextual() || id.isIntegralNumber()) ? id : null;
        boolean toolCall = "tools/call".equals(message.path("method").asText(null));
        boolean shaped = "2.0".equals(message.path("jsonrpc").asText(null))
                && (message.path("method").isTextual() || (replyId != null && (message.has("result") || message.has("error"))));
        if (!shaped) {
            record(toolCall, message, ErrorKind.INVALID_ARGUMENT);
            reply(replyId, INVALID_REQUEST, "Invalid Request: a JSON-RPC 2.0 message needs \"jsonrpc\": \"2.0\" and a method.");
            return;
        }
        String unreadable = UnknownMethod.unreadable(message.path("method").asText(null));
        if (unreadable != null) {
            if (replyId != null) {
                reply(replyId, UnknownMethod.CODE, unreadable);
            }
            return;
        }
        Rejected problem = toolCallProblem(message);
        if (problem != null) {
            rejections.record(problem.tool(), StdioServer.CALLER, arguments(problem.arguments()), problem.kind());
            reply(replyId, INVALID_PARAMS, problem.message());
            return;
        }
        McpSchema.JSONRPCMessage parsed;
        try {
            parsed = typed(message);
        } catch (IOException | RuntimeException e) {
            record(toolCall, message, ErrorKind.INVALID_ARGUMENT);
            reply(replyId, INVALID_REQUEST, "Invalid Request: the message does not have the shape of a JSON-RPC 2.0 request.");
            return;
        }
        String method = message.path("method").asText("");
        if (toolsList != null && initialized && replyId != null && method.equals("tools/list")) {
            answer(replyId, toolsList.get());
            return;
        }
        initialized |= method.equals("initialize");
        started |= method.equals("notifications/initialized");
        session.accept(parsed);
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

    /** A tools/call the guard answers as a malformed message: recorded under the name it gave, if any. */
    private void record(boolean toolCall, JsonNode message, ErrorKind kind) {
        if (!toolCall) {
            return;
        }
        JsonNode params = message.path("params");
        JsonNode name = params.path("name");
        rejections.record(name.isTextual() ? name.asText() : null, StdioServer.CALLER, arguments(params.get("arguments")), kind);
    }

    private Object arguments(JsonNode arguments) {
        return arguments == null ? null : json.convertValue(arguments, Object.class);
    }

    /**
     * A tools/call the SDK would answer with a Java exception text (arguments not an object) or a bare
     * "Unknown tool": answered here with a sentence that says what to send instead.
     */
    private Rejected toolCallProblem(JsonNode message) {
        if (!"tools/call".equals(message.path("method").asText(null))) {
            return null;
        }
        JsonNode params = message.get("params");
        if (params == null || !params.isObject() || !params.path("name").isTextual()) {
            JsonNode name = params == null ? null : params.path("name");
            return new Rejected("Invalid params: tools/call needs params.name (a tool name from tools/list).",
                    name != null && name.isTextual() ? name.asText() : null,
                    params != null && params.isObject() ? params.get("arguments") : null, ErrorKind.INVALID_ARGUMENT);
        }
        String name = params.path("name").asText();
        JsonNode arguments = params.get("arguments");
        if (arguments != null && !arguments.isNull() && !arguments.isObject()) {
            return new Rejected("Invalid params: tools/call params.arguments must be a JSON object of argument names to values.",
                    name, arguments, ErrorKind.INVALID_ARGUMENT);
        }
        if (!toolNames.contains(name)) {
            return new Rejected(UnknownTool.message(name, toolNames), name, arguments, ErrorKind.UNKNOWN_NAME);
        }
        return null;
    }

    private void answer(JsonNode id, byte[] result) {
        byte[] head = ("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":").getBytes(StandardCharsets.UTF_8);
        write(head, result, "}\n".getBytes(StandardCharsets.UTF_8));
    }

    private void reply(JsonNode id, int code, String message) {
        ObjectNode error = json.createObjectNode();
        error.put("jsonrpc", "2.0");
        error.set("id", id == null ? json.nullNode() : id);
        error.putObject("error").put("code", code).put("message", message);
        write((error + "\n").getBytes(StandardCharsets.UTF_8));
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
