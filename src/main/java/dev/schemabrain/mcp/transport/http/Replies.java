package dev.schemabrain.mcp.transport.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemabrain.mcp.server.JsonRpcFrames;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/** Answers the service writes itself: JSON bodies, and refusals as a JSON-RPC error with one sentence. */
final class Replies {

    static final ObjectMapper JSON = new ObjectMapper();

    private Replies() {
    }

    static void json(HttpServletResponse response, int status, Object body) throws IOException {
        frame(response, status, JSON.writeValueAsBytes(body));
    }

    /** A JSON body already serialized: a JSON-RPC frame. */
    static void frame(HttpServletResponse response, int status, byte[] bytes) throws IOException {
        response.setStatus(status);
        response.setContentType("application/json");
        response.setContentLength(bytes.length);
        response.getOutputStream().write(bytes);
    }

    static void text(HttpServletResponse response, String contentType, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        response.setStatus(HttpServletResponse.SC_OK);
        response.setContentType(contentType);
        response.setContentLength(bytes.length);
        response.getOutputStream().write(bytes);
    }

    /** A refusal before the request reaches MCP: the HTTP status says what, the sentence says what to do. */
    static void refuse(HttpServletResponse response, int status, String sentence) throws IOException {
        rpcError(response, status, JsonRpcFrames.INVALID_REQUEST, sentence);
    }

    /** A JSON-RPC error with no id to echo, under HTTP status {@code status}. */
    static void rpcError(HttpServletResponse response, int status, int code, String sentence) throws IOException {
        frame(response, status, JsonRpcFrames.error(null, code, sentence));
    }
}
