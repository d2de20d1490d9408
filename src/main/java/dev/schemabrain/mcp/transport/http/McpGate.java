package dev.schemabrain.mcp.transport.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.schemabrain.audit.ClientText;
import dev.schemabrain.mcp.server.JsonRpcFrames;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The first filter in front of /mcp after the {@link HostCheck}, before authentication: CORS, the server info on a plain GET, the content type, and the body limit. It reads the body once (a
 * chunked body has no Content-Length to check) and notes the JSON-RPC method, the tool and the client's
 * initialize info for the filters and the request log after it.
 */
final class McpGate implements Filter {

    /** Where the parsed message waits for {@link CallerGate} and the request log. */
    static final String RPC_ATTRIBUTE = "dev.schemabrain.mcp.transport.http.rpc";
    static final String SESSION_HEADER = "Mcp-Session-Id";
    /** A session id that carries only the client's initialize name (no state): any instance can read it. */
    private static final String SESSION_PREFIX = "sb1.";
    private static final String ALLOWED_METHODS = "GET, POST, DELETE, OPTIONS";
    private static final String ALLOWED_HEADERS = "Authorization, Content-Type, Accept, " + SESSION_HEADER
            + ", MCP-Protocol-Version, Mcp-Method, Mcp-Name, Last-Event-ID";

    /**
     * The JSON-RPC message, read once, and what the filters need of it; the id (a string or integer, else
     * null) for an answer given before the SDK.
     */
    record Rpc(JsonNode message, String method, String tool, boolean toolCall, String client, JsonNode id) {
    }

    private final int maxRequestBytes;
    private final Map<String, Object> info;

    McpGate(int maxRequestBytes, Map<String, Object> info) {
        this.maxRequestBytes = maxRequestBytes;
        this.info = info;
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain) throws IOException, ServletException {
        HttpServletRequest request = (HttpServletRequest) req;
        HttpServletResponse response = (HttpServletResponse) res;
        String method = request.getMethod();
        String origin = request.getHeader("Origin");
        if (origin != null) {
            // CORS for the origins let through above: a browser page reads the answer, its session id and a 401's challenge.
            response.setHeader("Access-Control-Allow-Origin", origin);
            response.addHeader("Vary", "Origin");
            response.setHeader("Access-Control-Expose-Headers", SESSION_HEADER + ", WWW-Authenticate");
        }
        if (method.equals("OPTIONS")) {
            // A preflight never carries credentials, so it is answered here, before authentication.
            response.setHeader("Allow", ALLOWED_METHODS);
            if (origin != null) {
                response.setHeader("Access-Control-Allow-Methods", ALLOWED_METHODS);
                response.setHeader("Access-Control-Allow-Headers", ALLOWED_HEADERS);
                response.setHeader("Access-Control-Max-Age", "600");
            }
            response.setStatus(HttpServletResponse.SC_NO_CONTENT);
            return;
        }
        if (method.equals("GET") && !accepts(request, "text/event-stream")) {
            Replies.json(response, HttpServletResponse.SC_OK, info);
            return;
        }
        if (!method.equals("POST")) {
            chain.doFilter(request, response);
            return;
        }
        String type = request.getContentType();
        if (type == null || !type.toLowerCase(Locale.ROOT).startsWith("application/json")) {
            closeAfter(response);
            Replies.refuse(response, HttpServletResponse.SC_UNSUPPORTED_MEDIA_TYPE,
                    "An MCP message is sent as Content-Type: application/json.");
            return;
        }
        byte[] body = readBounded(request);
        if (body == null) {
            closeAfter(response);
            Replies.refuse(response, HttpServletResponse.SC_REQUEST_ENTITY_TOO_LARGE, "The request body is larger than"
                    + " this server's limit of " + maxRequestBytes + " bytes; send a smaller message.");
            return;
        }
        JsonNode message = readJson(body);
        if (message == null || !message.isObject() || !(message.path("method").isTextual() || message.has("result")
                || message.has("error"))) {
            // Answered here: the SDK would serialize its exception, stack trace and all, into the body.
            Replies.rpcError(response, HttpServletResponse.SC_BAD_REQUEST, message == null ? JsonRpcFrames.PARSE_ERROR
                    : JsonRpcFrames.INVALID_REQUEST, message == null
                    ? "The request body is not valid JSON; send one JSON-RPC message as a JSON object."
                    : "The request body is not a JSON-RPC message; send one object with \"jsonrpc\": \"2.0\" and a \"method\".");
            return;
        }
        Rpc rpc = parse(message, request.getHeader(SESSION_HEADER));
        request.setAttribute(RPC_ATTRIBUTE, rpc);
        if ("initialize".equals(rpc.method()) && rpc.client() != null) {
            response.setHeader(SESSION_HEADER, SESSION_PREFIX + Base64.getUrlEncoder().withoutPadding()
                    .encodeToString(rpc.client().getBytes(StandardCharsets.UTF_8)));
        }
        chain.doFilter(new BufferedRequest(request, body), response);
    }

    private static boolean accepts(HttpServletRequest request, String type) {
        String accept = request.getHeader("Accept");
        return accept != null && accept.contains(type);
    }

    /** The body, or null when it is longer than the limit (read no further than one byte past it). */
    /**
     * A refusal sent before the body was read leaves the rest of it on the connection: the server closes it,
     * and says so, or a client's next request on the kept-alive connection gets no answer at all.
     */
    private static void closeAfter(HttpServletResponse response) {
        response.setHeader("Connection", "close");
    }

    private byte[] readBounded(HttpServletRequest request) throws IOException {
        if (request.getContentLengthLong() > maxRequestBytes) {
            return null;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(64, Math.min(maxRequestBytes, request.getContentLength())));
        byte[] buffer = new byte[8192];
        try (InputStream in = request.getInputStream()) {
            int n;
            while ((n = in.read(buffer)) > 0) {
                if (out.size() + n > maxRequestBytes) {
                    return null;
                }
                out.write(buffer, 0, n);
            }
        }
        return out.toByteArray();
    }

    /** The body as JSON, or null when it is not JSON at all. */
    private static JsonNode readJson(byte[] body) {
        try {
            JsonNode node = Replies.JSON.readTree(body);
            return node == null || node.isMissingNode() ? null : node;
        } catch (IOException e) {
            return null;
        }
    }

    /** What the filters need from a JSON-RPC message object. */
    private static Rpc parse(JsonNode message, String sessionId) {
        String client = clientFromSession(sessionId);
        String method = message.path("method").isTextual() ? message.path("method").asText() : null;
        JsonNode params = message.path("params");
        if ("initialize".equals(method)) {
            JsonNode info = params.path("clientInfo");
            if (info.path("name").isTextual()) {
                client = ClientText.clean(info.path("name").asText() + (info.path("version").isTextual()
                        ? "/" + info.path("version").asText() : ""));
            }
        }
        JsonNode claimed = params.path("_meta").path("io.modelcontextprotocol/clientInfo");
        if (client == null && claimed.path("name").isTextual()) {
            // A 2026-07-28 client names itself on every request: the request log's detail, never an identity.
            client = ClientText.clean(claimed.path("name").asText() + (claimed.path("version").isTextual()
                    ? "/" + claimed.path("version").asText() : ""));
        }
        boolean toolCall = "tools/call".equals(method);
        String tool = toolCall && params.path("name").isTextual() ? params.path("name").asText() : null;
        JsonNode id = message.get("id");
        return new Rpc(message, method, tool, toolCall, client,
                id != null && (id.isTextual() || id.isIntegralNumber()) ? id : null);
    }

    private static String clientFromSession(String sessionId) {
        if (sessionId == null || !sessionId.startsWith(SESSION_PREFIX)) {
            return null;
        }
        try {
            return ClientText.clean(new String(Base64.getUrlDecoder().decode(sessionId.substring(SESSION_PREFIX.length())),
                    StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
