package dev.schemabrain.load;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schemabrain.error.SchemaBrainException.Kind;
import dev.schemabrain.error.UserError;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A minimal MCP Streamable HTTP client on java.net.http: initialize, tools/list, tools/call, with JSON or
 * event-stream answers. Written against the wire rather than an SDK client so the measured time is the
 * server's and HTTP's, and so the pool can be sized to the load (the JDK's HTTP/1.1 pool is unbounded;
 * its executor is sized here).
 */
public final class McpHttpClient implements AutoCloseable {

    public static final String PROTOCOL = "2025-11-25";
    static final Set<String> ACCEPTED_PROTOCOLS = Set.of(PROTOCOL, "2025-06-18", "2025-03-26");

    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI url;
    private final Optional<String> token;
    private final String tokenSource;
    private final ExecutorService executor;
    private final HttpClient http;
    private final Duration timeout;
    private final AtomicLong ids = new AtomicLong();
    private volatile String sessionId;
    private volatile String protocol;

    /** One JSON-RPC answer and the bytes of that message as it arrived. */
    public record Reply(JsonNode message, int bytes) {
    }

    /** What the server said about itself at initialize. */
    public record ServerInfo(String name, String version, String protocolVersion, boolean session) {
    }

    /**
     * @param token       the bearer token, if any (never printed; {@code tokenSource} names where it came from)
     * @param connections the largest number of calls that will be in flight at once
     */
    public McpHttpClient(URI url, Optional<String> token, String tokenSource, int connections, Duration timeout) {
        this.url = url;
        this.token = token;
        this.tokenSource = tokenSource;
        this.timeout = timeout;
        this.executor = Executors.newFixedThreadPool(Math.max(1, connections), r -> {
            Thread t = new Thread(r, "mcp-http-client");
            t.setDaemon(true);
            return t;
        });
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(timeout)
                .executor(executor)
                .build();
    }

    /** initialize, then notifications/initialized; refuses a server that is not an MCP server in one sentence. */
    public ServerInfo connect() throws UserError {
        ObjectNode params = JSON.createObjectNode().put("protocolVersion", PROTOCOL);
        params.putObject("capabilities");
        params.putObject("clientInfo").put("name", "schemabrain-probe").put("version", "1");
        HttpResponse<InputStream> response = send(request("initialize", params));
        sessionId = response.headers().firstValue("Mcp-Session-Id").orElse(null);
        JsonNode result = read(response, "initialize").message().path("result");
        String version = result.path("protocolVersion").asText(null);
        if (version == null) {
            throw notMcp("its answer to initialize has no protocolVersion");
        }
        if (!ACCEPTED_PROTOCOLS.contains(version)) {
            throw new UserError(Kind.UNAVAILABLE, "The server at " + display() + " speaks MCP " + version
                    + ", which probe does not (it speaks " + PROTOCOL + ", 2025-06-18 and 2025-03-26).");
        }
        protocol = version;
        ObjectNode note = JSON.createObjectNode().put("jsonrpc", "2.0").put("method", "notifications/initialized");
        HttpResponse<InputStream> ack = send(post(note));
        drain(ack);
        if (ack.statusCode() / 100 != 2) {
            throw notMcp("it answered notifications/initialized with HTTP " + ack.statusCode());
        }
        JsonNode info = result.path("serverInfo");
        return new ServerInfo(info.path("name").asText(""), info.path("version").asText(""), version, sessionId != null);
    }

    /** tools/list; the reply's size is what a client downloads for the tool definitions. */
    public Reply listTools() throws UserError {
        return call("tools/list", JSON.createObjectNode());
    }

    /** tools/call; a JSON-RPC error or an unreachable server is a failure, an isError result is an answer. */
    public Reply callTool(String tool, Map<String, Object> arguments) throws UserError {
        ObjectNode params = JSON.createObjectNode().put("name", tool);
        params.set("arguments", JSON.valueToTree(arguments));
        return call("tools/call", params);
    }

    /** GET {@code path} on the server's origin: the status and body, whatever they are. */
    public HttpResponse<String> get(String path) throws UserError {
        HttpRequest.Builder request = HttpRequest.newBuilder(url.resolve(path)).timeout(timeout).GET();
        token.ifPresent(t -> request.header("Authorization", "Bearer " + t));
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw unreachable(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UserError(Kind.UNAVAILABLE, "Interrupted while waiting for " + display() + ".");
        }
    }

    private Reply call(String method, ObjectNode params) throws UserError {
        Reply reply = read(send(request(method, params)), method);
        JsonNode error = reply.message().get("error");
        if (error != null) {
            throw new UserError(Kind.UNAVAILABLE, "The server at " + display() + " answered " + method + " with error "
                    + error.path("code").asText() + ": " + error.path("message").asText() + ".");
        }
        return reply;
    }

    private HttpRequest request(String method, ObjectNode params) {
        ObjectNode message = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", ids.incrementAndGet()).put("method", method);
        message.set("params", params);
        return post(message);
    }

    private HttpRequest post(JsonNode message) {
        HttpRequest.Builder request = HttpRequest.newBuilder(url).timeout(timeout)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(message.toString()));
        token.ifPresent(t -> request.header("Authorization", "Bearer " + t));
        if (sessionId != null) {
            request.header("Mcp-Session-Id", sessionId);
        }
        if (protocol != null) {
            request.header("MCP-Protocol-Version", protocol);
        }
        return request.build();
    }

    private HttpResponse<InputStream> send(HttpRequest request) throws UserError {
        HttpResponse<InputStream> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException e) {
            throw unreachable(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UserError(Kind.UNAVAILABLE, "Interrupted while waiting for " + display() + ".");
        }
        int status = response.statusCode();
        if (status == 401 || status == 403) {
            drain(response);
            throw new UserError(Kind.UNAVAILABLE, "The server at " + display() + " refused the request with HTTP " + status
                    + (token.isPresent() ? "; check the token in $" + tokenSource : "; it wants a token: pass --token-env VAR") + ".");
        }
        return response;
    }

    /** The JSON-RPC response in a JSON body or in an event stream (the first event that answers a request). */
    private Reply read(HttpResponse<InputStream> response, String method) throws UserError {
        String type = response.headers().firstValue("Content-Type").orElse("").toLowerCase();
        try (InputStream body = response.body()) {
            if (response.statusCode() / 100 != 2) {
                body.readAllBytes();
                throw notMcp("it answered " + method + " with HTTP " + response.statusCode());
            }
            if (type.startsWith("application/json")) {
                byte[] bytes = body.readAllBytes();
                return new Reply(parse(bytes, method), bytes.length);
            }
            if (type.startsWith("text/event-stream")) {
                return firstAnswer(body, method);
            }
            throw notMcp("it answered " + method + " with content type '" + type + "'");
        } catch (IOException e) {
            throw unreachable(e);
        }
    }

    /** Server-sent events: data lines up to a blank line make one message; notifications are skipped. */
    private Reply firstAnswer(InputStream body, String method) throws IOException, UserError {
        BufferedReader lines = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8));
        StringBuilder data = new StringBuilder();
        for (String line = lines.readLine(); ; line = lines.readLine()) {
            if (line == null || line.isEmpty()) {
                if (!data.isEmpty()) {
                    byte[] bytes = data.toString().getBytes(StandardCharsets.UTF_8);
                    JsonNode message = parse(bytes, method);
                    if (message.has("result") || message.has("error")) {
                        return new Reply(message, bytes.length);
                    }
                    data.setLength(0);
                }
                if (line == null) {
                    throw notMcp("its event stream for " + method + " ended without an answer");
                }
            } else if (line.startsWith("data:")) {
                if (!data.isEmpty()) {
                    data.append('\n');
                }
                data.append(line.substring(line.startsWith("data: ") ? 6 : 5));
            }
        }
    }

    private JsonNode parse(byte[] bytes, String method) throws UserError {
        try {
            JsonNode message = JSON.readTree(bytes);
            if (message == null || !message.isObject() || !"2.0".equals(message.path("jsonrpc").asText())) {
                throw notMcp("its answer to " + method + " is not a JSON-RPC message");
            }
            return message;
        } catch (JsonProcessingException e) {
            throw notMcp("its answer to " + method + " is not JSON");
        } catch (IOException e) {
            throw unreachable(e);
        }
    }

    private static void drain(HttpResponse<InputStream> response) {
        try (InputStream body = response.body()) {
            body.readAllBytes();
        } catch (IOException e) {
            // The status is all that matters here; a body cut short changes nothing.
        }
    }

    private UserError notMcp(String why) {
        return new UserError(Kind.UNAVAILABLE, "The server at " + display() + " does not answer as an MCP Streamable HTTP"
                + " server: " + why + ".");
    }

    private UserError unreachable(IOException e) {
        String reason = e.getMessage() == null || e.getMessage().isBlank() ? e.getClass().getSimpleName() : e.getMessage();
        return new UserError(Kind.UNAVAILABLE, "Cannot reach " + display() + " (" + reason.replaceAll("[.\\s]+$", "") + ").");
    }

    /** The URL without user info or query, the only form printed. */
    public String display() {
        return url.getScheme() + "://" + url.getHost() + (url.getPort() < 0 ? "" : ":" + url.getPort()) + url.getPath();
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
