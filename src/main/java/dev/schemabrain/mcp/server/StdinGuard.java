package dev.schemabrain.mcp.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schemabrain.catalog.Fuzzy;
import dev.schemabrain.catalog.NameSyntax;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

/**
 * Stands between the real stdin and the SDK's stdio transport. The SDK ends the whole session on
 * the first line it cannot parse; the guard answers such lines itself with the JSON-RPC error the
 * specification names (-32700 parse error, -32600 invalid request) and passes only well-formed
 * messages on, so one bad line costs one error frame, not the session. Lines are bounded, so a
 * runaway client cannot exhaust memory. End of input ends the session: {@link #awaitEnd()}.
 */
final class StdinGuard implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(StdinGuard.class);
    static final int PARSE_ERROR = -32700;
    static final int INVALID_REQUEST = -32600;
    static final int INVALID_PARAMS = -32602;

    private final InputStream stdin;
    private final OutputStream frames;
    private final McpJsonMapper mcpJson;
    private final int maxLineBytes;
    private final Set<String> toolNames;
    private final ObjectMapper json = new ObjectMapper();
    private final FrameInputStream forSdk = new FrameInputStream();
    private final CountDownLatch ended = new CountDownLatch(1);

    /**
     * @param frames the stream the SDK writes its frames to: error frames are written under the same
     *               lock the SDK takes, so frames never interleave
     */
    StdinGuard(InputStream stdin, OutputStream frames, McpJsonMapper mcpJson, int maxLineBytes, Set<String> toolNames) {
        this.toolNames = Set.copyOf(toolNames);
        this.stdin = stdin;
        this.frames = frames;
        this.mcpJson = mcpJson;
        this.maxLineBytes = maxLineBytes;
    }

    InputStream sdkInput() {
        return forSdk;
    }

    void awaitEnd() throws InterruptedException {
        ended.await();
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
            forSdk.end();
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
        boolean shaped = "2.0".equals(message.path("jsonrpc").asText(null))
                && (message.path("method").isTextual() || (replyId != null && (message.has("result") || message.has("error"))));
        if (!shaped) {
            reply(replyId, INVALID_REQUEST, "Invalid Request: a JSON-RPC 2.0 message needs \"jsonrpc\": \"2.0\" and a method.");
            return;
        }
        String problem = toolCallProblem(message);
        if (problem != null) {
            reply(replyId, INVALID_PARAMS, problem);
            return;
        }
        try {
            McpSchema.deserializeJsonRpcMessage(mcpJson, line);
        } catch (IOException | RuntimeException e) {
            reply(replyId, INVALID_REQUEST, "Invalid Request: the message does not have the shape of a JSON-RPC 2.0 request.");
            return;
        }
        byte[] frame = new byte[bytes.size() + 1];
        System.arraycopy(bytes.toByteArray(), 0, frame, 0, bytes.size());
        frame[frame.length - 1] = '\n';
        forSdk.offer(frame);
    }

    /**
     * A tools/call the SDK would answer with a Java exception text (arguments not an object) or a bare
     * "Unknown tool": answered here with a sentence that says what to send instead.
     */
    private String toolCallProblem(JsonNode message) {
        if (!"tools/call".equals(message.path("method").asText(null))) {
            return null;
        }
        JsonNode params = message.get("params");
        if (params == null || !params.isObject() || !params.path("name").isTextual()) {
            return "Invalid params: tools/call needs params.name (a tool name from tools/list).";
        }
        JsonNode arguments = params.get("arguments");
        if (arguments != null && !arguments.isNull() && !arguments.isObject()) {
            return "Invalid params: tools/call params.arguments must be a JSON object of argument names to values.";
        }
        String name = params.path("name").asText();
        if (!toolNames.contains(name)) {
            List<String> close = Fuzzy.best(name, toolNames, 1);
            return "Unknown tool '" + NameSyntax.excerpt(name) + "'" + (close.isEmpty() ? "" : "; did you mean " + close.get(0) + "?")
                    + " tools/list shows the " + toolNames.size() + " tools.";
        }
        return null;
    }

    private void reply(JsonNode id, int code, String message) {
        ObjectNode error = json.createObjectNode();
        error.put("jsonrpc", "2.0");
        error.set("id", id == null ? json.nullNode() : id);
        error.putObject("error").put("code", code).put("message", message);
        byte[] bytes = (error + "\n").getBytes(StandardCharsets.UTF_8);
        synchronized (frames) {
            try {
                frames.write(bytes);
                frames.flush();
            } catch (IOException e) {
                LOG.warn("writing an error frame failed: {}", e.getMessage());
            }
        }
    }
}
