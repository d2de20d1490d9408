package dev.schemabrain.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/** Answers the service writes itself: JSON bodies, and refusals as a JSON-RPC error with one sentence. */
final class Replies {

    static final ObjectMapper JSON = new ObjectMapper();

    private Replies() {
    }

    static void json(HttpServletResponse response, int status, Object body) throws IOException {
        byte[] bytes = JSON.writeValueAsBytes(body);
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
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("code", -32600);
        error.put("message", sentence);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("jsonrpc", "2.0");
        body.put("id", null);
        body.put("error", error);
        json(response, status, body);
    }
}
