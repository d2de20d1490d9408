package dev.schemabrain.mcp.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/** The JSON-RPC frames the server writes itself, over stdio and HTTP alike: built here and nowhere else. */
public final class JsonRpcFrames {

    public static final int PARSE_ERROR = -32700;
    public static final int INVALID_REQUEST = -32600;
    public static final int METHOD_NOT_FOUND = -32601;
    public static final int INVALID_PARAMS = -32602;
    public static final int INTERNAL_ERROR = -32603;

    private static final ObjectMapper JSON = new ObjectMapper();

    private JsonRpcFrames() {
    }

    /** What a message whose id is neither a string nor an integer is told (it is answered with a null id). */
    public static final String BAD_ID = "Invalid Request: a JSON-RPC id must be a string or an integer.";

    /**
     * Whether {@code message} has an id MCP does not allow (an object, an array, a boolean, a fraction, null): the SDK
     * would fail on it with its exception, stack trace and all, so the transports answer it before.
     */
    public static boolean badId(JsonNode message) {
        JsonNode id = message.get("id");
        return id != null && !(id.isTextual() || id.isIntegralNumber());
    }

    /** An error frame; {@code id} null when the request had none that can be echoed. */
    public static byte[] error(JsonNode id, int code, String message) {
        ObjectNode frame = JSON.createObjectNode().put("jsonrpc", "2.0");
        frame.set("id", id == null ? JSON.nullNode() : id);
        frame.putObject("error").put("code", code).put("message", message);
        return frame.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** A result frame around {@code result}, bytes already serialized (the cached tools/list). */
    public static byte[] result(JsonNode id, byte[] result) {
        ByteArrayOutputStream frame = new ByteArrayOutputStream(result.length + 48);
        frame.writeBytes(("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":").getBytes(StandardCharsets.UTF_8));
        frame.writeBytes(result);
        frame.write('}');
        return frame.toByteArray();
    }
}
