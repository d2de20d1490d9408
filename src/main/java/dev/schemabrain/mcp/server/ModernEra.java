package dev.schemabrain.mcp.server;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schemabrain.access.Access;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * The MCP 2026-07-28 revision (stateless: no initialize, no session; each request carries its protocol
 * version, client info and capabilities in {@code params._meta}), answered here before the SDK, which
 * knows only the 2025 era. Both transports ask {@link #claims} of every message and frame the
 * {@link Answer}; a message not claimed goes to the SDK exactly as before, so a 2025-11-25 client is
 * served as it always was. The checks run in the order of the revision's validation ladder, so a request
 * failing several is answered by the earliest: header/body agreement, the {@code _meta} envelope, the
 * version, the standard headers, then whether the method exists. Caller identity is the transport's
 * (credentials or stdio), never the {@code clientInfo} a request claims.
 */
public final class ModernEra {

    public static final String VERSION = "2026-07-28";
    public static final String META_PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
    public static final String META_CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
    public static final String META_CLIENT_INFO = "io.modelcontextprotocol/clientInfo";
    public static final String META_SERVER_INFO = "io.modelcontextprotocol/serverInfo";
    /** Where a list result names the catalog version its cache hint is keyed to. */
    public static final String META_CATALOG_VERSION = "dev.schemabrain/catalogVersion";
    /** A header disagreeing with the body (SEP-2243): HTTP 400. */
    public static final int HEADER_MISMATCH = -32020;
    public static final int UNSUPPORTED_PROTOCOL_VERSION = -32022;
    /**
     * How long a client may keep tools/list: the definitions change only with a re-index or a restart, and a
     * client that sees another catalog version in the result's _meta knows to list again.
     */
    public static final long LIST_TTL_MS = 300_000;
    private static final String BASE64_PREFIX = "=?base64?";
    private static final String BASE64_SUFFIX = "?=";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {
    };

    /** The HTTP routing headers of one request; {@link #NONE} over stdio, which has none to check. */
    public record Headers(String protocolVersion, String method, String name) {
        public static final Headers NONE = null;
    }

    /** The frame to write (null: a notification, answered with nothing) and the HTTP status to write it with. */
    public record Answer(int status, byte[] frame) {
        static Answer ok(byte[] frame) {
            return new Answer(200, frame);
        }
    }

    /** Runs one tools/call for the transport's caller: the same dispatcher lanes as the 2025 era's. */
    @FunctionalInterface
    public interface ToolRunner {
        CompletableFuture<CallToolResult> call(String tool, Map<String, Object> arguments);
    }

    private final CallGate gate;
    private final Supplier<byte[]> toolsList;
    private final Supplier<String> catalogVersion;
    private final String instructions;
    private final Map<String, String> serverInfo;
    private final Prompts prompts;
    private final Completions completions;
    private final List<String> methods;
    private volatile Cached listed;

    private record Cached(String catalogVersion, byte[] result) {
    }

    /**
     * @param toolsList      the serialized 2025 tools/list result (the cached bytes)
     * @param catalogVersion the served catalog's version, which the list's cache hint is keyed to
     * @param prompts        the workflows offered as prompts (none: no prompts capability)
     * @param completions    the prompts' argument completions (completion/complete), from the caller's view of the catalog
     */
    public ModernEra(CallGate gate, Supplier<byte[]> toolsList, Supplier<String> catalogVersion, String instructions,
                     String serverVersion, Prompts prompts, Completions completions) {
        this.prompts = prompts;
        this.completions = completions;
        this.methods = prompts.isEmpty() ? List.of("server/discover", "tools/list", "tools/call")
                : List.of("server/discover", "tools/list", "tools/call", "prompts/list", "prompts/get", "completion/complete");
        this.gate = gate;
        this.toolsList = toolsList;
        this.catalogVersion = catalogVersion;
        this.instructions = instructions;
        this.serverInfo = Map.of("name", "schemabrain", "version", serverVersion);
    }

    /**
     * Whether {@code message} is a 2026-07-28 message: server/discover, a request whose {@code _meta} names a
     * protocol version, or one sent with that revision's MCP-Protocol-Version header. Anything else is the
     * SDK's (initialize and the session it starts).
     */
    public static boolean claims(JsonNode message, Headers headers) {
        if ("server/discover".equals(message.path("method").asText(null))) {
            return true;
        }
        JsonNode meta = message.path("params").path("_meta");
        if (meta.isObject() && meta.has(META_PROTOCOL_VERSION)) {
            return true;
        }
        return headers != null && VERSION.equals(headers.protocolVersion());
    }

    /**
     * The answer to a claimed message, for {@code caller} whose reach is {@code access}; tools/call completes
     * when the tool has answered.
     */
    public CompletableFuture<Answer> answer(JsonNode message, Headers headers, String caller, Access access,
                                            ToolRunner runner) {
        JsonNode rawId = message.get("id");
        boolean request = rawId != null && !rawId.isNull();
        JsonNode id = request && (rawId.isTextual() || rawId.isIntegralNumber()) ? rawId : null;
        if (!request) {
            // Notifications (cancelled, progress) change nothing on a server without sessions or tasks.
            return done(new Answer(202, null));
        }
        String method = message.path("method").asText("");
        JsonNode params = message.path("params");
        JsonNode meta = params.path("_meta");
        String bodyVersion = meta.path(META_PROTOCOL_VERSION).isTextual() ? meta.path(META_PROTOCOL_VERSION).asText() : null;
        if (headers != null) {
            if (headers.protocolVersion() != null && bodyVersion != null && !headers.protocolVersion().equals(bodyVersion)) {
                return done(error(400, id, HEADER_MISMATCH, "The MCP-Protocol-Version header (" + clip(headers.protocolVersion())
                        + ") does not match params._meta's protocol version (" + clip(bodyVersion)
                        + "); send the same version in both.", null));
            }
            if (headers.method() != null && !headers.method().equals(method)) {
                return done(error(400, id, HEADER_MISMATCH, "The Mcp-Method header does not match the request's method;"
                        + " send the body's method in Mcp-Method.", null));
            }
        }
        List<String> missing = new ArrayList<>();
        if (!meta.isObject()) {
            missing.add("_meta");
        } else {
            if (bodyVersion == null) {
                missing.add(META_PROTOCOL_VERSION);
            }
            if (!meta.path(META_CLIENT_CAPABILITIES).isObject()) {
                missing.add(META_CLIENT_CAPABILITIES);
            }
        }
        if (!missing.isEmpty()) {
            return done(error(400, id, JsonRpcFrames.INVALID_PARAMS, "Invalid params: a " + VERSION + " request carries"
                    + " params._meta with " + META_PROTOCOL_VERSION + " and " + META_CLIENT_CAPABILITIES + "; missing: "
                    + String.join(", ", missing) + ".", null));
        }
        if (!VERSION.equals(bodyVersion)) {
            ObjectNode data = JSON.createObjectNode();
            data.putArray("supported").add(VERSION);
            data.put("requested", bodyVersion);
            return done(error(400, id, UNSUPPORTED_PROTOCOL_VERSION, "Unsupported protocol version " + clip(bodyVersion)
                    + ": this server speaks " + VERSION + " without a session, and 2025-11-25, 2025-06-18 and 2025-03-26"
                    + " after initialize.", data));
        }
        if (headers != null) {
            String wrong = standardHeaders(headers, method, params);
            if (wrong != null) {
                return done(error(400, id, HEADER_MISMATCH, wrong, null));
            }
        }
        if (!methods.contains(method)) {
            return done(error(404, id, JsonRpcFrames.METHOD_NOT_FOUND, "Method not found: on protocol " + VERSION
                    + " this server answers " + String.join(", ", methods) + " (initialize and ping belong to 2025-11-25).",
                    null));
        }
        return switch (method) {
            case "server/discover" -> done(Answer.ok(JsonRpcFrames.result(id, discover())));
            case "tools/list" -> done(Answer.ok(JsonRpcFrames.result(id, toolsList())));
            case "prompts/list" -> done(Answer.ok(JsonRpcFrames.result(id, promptsList())));
            case "prompts/get" -> done(prompt(id, params));
            case "completion/complete" -> done(complete(id, params, access));
            default -> call(message, id, caller, access, runner);
        };
    }

    private CompletableFuture<Answer> call(JsonNode message, JsonNode id, String caller, Access access, ToolRunner runner) {
        CallGate.Refusal refusal = gate.screen(message, caller, access);
        if (refusal != null) {
            return done(Answer.ok(refusal.frame(id)));
        }
        JsonNode params = message.path("params");
        JsonNode arguments = params.get("arguments");
        Map<String, Object> given = arguments == null || arguments.isNull() ? Map.of() : JSON.convertValue(arguments, MAP);
        return runner.call(params.path("name").asText(), given)
                .thenApply(result -> {
                    ObjectNode tree = JSON.valueToTree(result);
                    return Answer.ok(JsonRpcFrames.result(id, bytes(stamp(tree))));
                });
    }

    /** The revision's required header checks: MCP-Protocol-Version and Mcp-Method present, Mcp-Name mirroring the body. */
    private static String standardHeaders(Headers headers, String method, JsonNode params) {
        if (headers.protocolVersion() == null) {
            return "A " + VERSION + " request over HTTP carries the MCP-Protocol-Version header; send " + VERSION + ".";
        }
        if (headers.method() == null) {
            return "A " + VERSION + " request over HTTP carries the Mcp-Method header; send the body's method in it.";
        }
        String source = switch (method) {
            case "tools/call", "prompts/get" -> params.path("name").isTextual() ? params.path("name").asText() : null;
            case "resources/read" -> params.path("uri").isTextual() ? params.path("uri").asText() : null;
            default -> null;
        };
        if (source == null) {
            return null;
        }
        if (headers.name() == null) {
            return "A " + method + " request over HTTP carries the Mcp-Name header; send params.name in it.";
        }
        return source.equals(decode(headers.name())) ? null
                : "The Mcp-Name header does not match params.name; send the same name in both.";
    }

    /** A header value as sent: plain, or {@code =?base64?…?=} for a value plain ASCII cannot carry. */
    static String decode(String header) {
        if (header.startsWith(BASE64_PREFIX) && header.endsWith(BASE64_SUFFIX)
                && header.length() >= BASE64_PREFIX.length() + BASE64_SUFFIX.length()) {
            try {
                return new String(Base64.getDecoder().decode(header.substring(BASE64_PREFIX.length(),
                        header.length() - BASE64_SUFFIX.length())), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                return null;
            }
        }
        return header;
    }

    private byte[] discover() {
        ObjectNode result = JSON.createObjectNode();
        result.putArray("supportedVersions").add(VERSION);
        ObjectNode capabilities = result.putObject("capabilities");
        capabilities.putObject("tools");
        if (!prompts.isEmpty()) {
            capabilities.putObject("prompts");
            capabilities.putObject("completions");
        }
        result.set("serverInfo", JSON.valueToTree(serverInfo));
        result.put("instructions", instructions);
        result.put("ttlMs", LIST_TTL_MS);
        result.put("cacheScope", "public");
        return bytes(stamp(result));
    }

    /** The cached tools/list bytes with the revision's fields, built again only when the catalog version changes. */
    private byte[] toolsList() {
        String version = catalogVersion.get();
        Cached c = listed;
        byte[] legacy = toolsList.get();
        if (c != null && Objects.equals(c.catalogVersion, version)) {
            return c.result;
        }
        ObjectNode result;
        try {
            result = (ObjectNode) JSON.readTree(legacy);
        } catch (IOException e) {
            throw new UncheckedIOException("the cached tool list is JSON", e);
        }
        // The same definitions for every caller (the list is one cache for all), so a shared cache may keep it.
        result.put("ttlMs", LIST_TTL_MS);
        result.put("cacheScope", "public");
        stamp(result);
        ((ObjectNode) result.get("_meta")).put(META_CATALOG_VERSION, version);
        byte[] bytes = bytes(result);
        listed = new Cached(version, bytes);
        return bytes;
    }

    /** The workflows, cacheable as tools/list is: they change only with the server. */
    private byte[] promptsList() {
        ObjectNode result = JSON.createObjectNode();
        result.set("prompts", JSON.valueToTree(prompts.definitions()));
        result.put("ttlMs", LIST_TTL_MS);
        result.put("cacheScope", "public");
        return bytes(stamp(result));
    }

    private Answer prompt(JsonNode id, JsonNode params) {
        JsonNode arguments = params.path("arguments");
        try {
            ObjectNode result = JSON.valueToTree(prompts.get(params.path("name").asText(null),
                    arguments.isObject() ? JSON.convertValue(arguments, MAP) : Map.of()));
            return Answer.ok(JsonRpcFrames.result(id, bytes(stamp(result))));
        } catch (Prompts.Refused refused) {
            return error(200, id, JsonRpcFrames.INVALID_PARAMS, refused.getMessage(), null);
        }
    }

    private Answer complete(JsonNode id, JsonNode params, Access access) {
        JsonNode ref = params.path("ref");
        JsonNode argument = params.path("argument");
        if (!argument.path("name").isTextual()) {
            return error(200, id, JsonRpcFrames.INVALID_PARAMS, "Invalid params: completion/complete needs argument.name"
                    + " (the prompt argument being typed) and argument.value (what is typed so far).", null);
        }
        try {
            ObjectNode result = JSON.valueToTree(completions.complete(ref.path("type").asText(null),
                    ref.path("name").asText(null), argument.path("name").asText(), argument.path("value").asText(""), access));
            return Answer.ok(JsonRpcFrames.result(id, bytes(stamp(result))));
        } catch (Completions.Refused refused) {
            return error(200, id, JsonRpcFrames.INVALID_PARAMS, refused.getMessage(), null);
        }
    }

    /** resultType (required on every 2026-07-28 result) and who answered, in the result's _meta. */
    private ObjectNode stamp(ObjectNode result) {
        result.put("resultType", "complete");
        JsonNode meta = result.get("_meta");
        ObjectNode m = meta instanceof ObjectNode o ? o : result.putObject("_meta");
        m.set(META_SERVER_INFO, JSON.valueToTree(serverInfo));
        return result;
    }

    private static Answer error(int status, JsonNode id, int code, String message, JsonNode data) {
        ObjectNode frame = JSON.createObjectNode().put("jsonrpc", "2.0");
        frame.set("id", id == null ? JSON.nullNode() : id);
        ObjectNode error = frame.putObject("error").put("code", code).put("message", message);
        if (data != null) {
            error.set("data", data);
        }
        return new Answer(status, bytes(frame));
    }

    private static String clip(String text) {
        return ReadableText.clean(text.length() > 32 ? text.substring(0, 32) + "…" : text);
    }

    private static byte[] bytes(JsonNode node) {
        return node.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static CompletableFuture<Answer> done(Answer answer) {
        return CompletableFuture.completedFuture(answer);
    }
}
