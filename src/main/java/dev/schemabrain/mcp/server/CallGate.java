package dev.schemabrain.mcp.server;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemabrain.access.Access;
import dev.schemabrain.error.ErrorKind;
import dev.schemabrain.mcp.tool.ToolRegistry;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What every transport asks before a message reaches the SDK, so each rule exists once: a method name the
 * SDK would echo raw is not found; a tools/call with
 * no name, arguments that are not an object, or an unknown tool is refused with one sentence and recorded
 * in the audit log under the caller the transport names (never a name the client chose); tools/list is
 * answered from the cached bytes. The transport only frames the answer on its wire.
 */
public final class CallGate {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {
    };

    private final ToolRegistry registry;
    private final Supplier<byte[]> toolsList;
    private final Supplier<Access> access;

    /** @param toolsList the serialized tools/list result for the catalog served now */
    public CallGate(ToolRegistry registry, Supplier<byte[]> toolsList) {
        this(registry, toolsList, () -> Access.UNRESTRICTED);
    }

    /** @param access the reach of the transport's one caller (stdio), for the rows of calls refused here */
    public CallGate(ToolRegistry registry, Supplier<byte[]> toolsList, Supplier<Access> access) {
        this.registry = registry;
        this.toolsList = toolsList;
        this.access = access;
    }

    /** Why a tools/call never reaches a tool: the JSON-RPC error to answer with. */
    public record Refusal(int code, String message) {
        public byte[] frame(JsonNode id) {
            return JsonRpcFrames.error(id, code, message);
        }
    }

    /** What a message that is not JSON-RPC 2.0's shape is answered with, over every transport. */
    public static final String NOT_JSON_RPC = "Invalid Request: a JSON-RPC 2.0 message needs \"jsonrpc\": \"2.0\" and a method.";

    /**
     * The Invalid Request of a message that is not JSON-RPC 2.0's shape: no {@code "jsonrpc": "2.0"} (another version,
     * none), no method and no response, or an id MCP does not allow (an object, an array, a boolean, a fraction, null). A tools/call among them is recorded under {@code caller}, as every transport
     * must: the check lives here so no transport runs what another refuses. Null for a message of the right shape.
     */
    public Refusal shape(JsonNode message, String caller, Access callerAccess) {
        JsonNode id = message.get("id");
        boolean response = id != null && (id.isTextual() || id.isIntegralNumber()) && (message.has("result") || message.has("error"));
        boolean rightShape = "2.0".equals(message.path("jsonrpc").asText(null)) && (message.path("method").isTextual() || response);
        if (rightShape && !JsonRpcFrames.badId(message)) {
            return null;
        }
        if (isToolCall(message)) {
            registry.recorder().rejected(name(message), caller, callerAccess, plain(message.path("params").get("arguments")),
                    ErrorKind.INVALID_ARGUMENT);
        }
        return new Refusal(JsonRpcFrames.INVALID_REQUEST, rightShape ? JsonRpcFrames.BAD_ID : NOT_JSON_RPC);
    }

    public Refusal shape(JsonNode message, String caller) {
        return shape(message, caller, access.get());
    }

    /**
     * The refusal of a message the SDK must not see: a method name holding control or formatting
     * characters (no row: it is no tools/call), or a tools/call that cannot reach a tool, already recorded
     * under {@code caller}. Null for a message that may go on.
     */
    public Refusal screen(JsonNode message, String caller) {
        return screen(message, caller, access.get());
    }

    /** As {@link #screen(JsonNode, String)}, for a caller whose reach is {@code callerAccess} (HTTP: per request). */
    public Refusal screen(JsonNode message, String caller, Access callerAccess) {
        String unreadable = UnknownMethod.unreadable(message.path("method").asText(null));
        if (unreadable != null) {
            return new Refusal(JsonRpcFrames.METHOD_NOT_FOUND, unreadable);
        }
        if (!message.has("id") && message.path("method").isTextual()) {
            return Notifications.forwarded(message.path("method").asText()) ? null : Notifications.DROPPED;
        }
        if (!isToolCall(message)) {
            return null;
        }
        JsonNode params = message.get("params");
        String name = name(message);
        JsonNode arguments = params != null && params.isObject() ? params.get("arguments") : null;
        Refusal refusal;
        ErrorKind kind = ErrorKind.INVALID_ARGUMENT;
        if (name == null) {
            refusal = new Refusal(JsonRpcFrames.INVALID_PARAMS,
                    "Invalid params: tools/call needs params.name (a tool name from tools/list).");
        } else if (arguments != null && !arguments.isNull() && !arguments.isObject()) {
            refusal = new Refusal(JsonRpcFrames.INVALID_PARAMS,
                    "Invalid params: tools/call params.arguments must be a JSON object of argument names to values.");
        } else if (registry.tool(name).isEmpty()) {
            refusal = new Refusal(JsonRpcFrames.INVALID_PARAMS, UnknownTool.message(name, registry.names()));
            kind = ErrorKind.UNKNOWN_NAME;
        } else {
            return null;
        }
        registry.recorder().rejected(name, caller, callerAccess, plain(arguments), kind);
        return refusal;
    }

    /** A tools/call answered as a malformed message (not JSON-RPC's shape): recorded under the name it gave, if any. */
    public void recordMalformed(JsonNode message, String caller) {
        if (isToolCall(message)) {
            registry.recorder().rejected(name(message), caller, access.get(), plain(message.path("params").get("arguments")),
                    ErrorKind.INVALID_ARGUMENT);
        }
    }

    /**
     * A tools/call turned away because its caller is over the request rate: a call like any other to the
     * audit. A known tool's row says refused + policy_blocked, as the metric rate's does; anything else is
     * an error row of that kind. The caller's reach is {@code callerAccess}.
     */
    public void recordOverRate(JsonNode message, String caller, Access callerAccess, RateLimit rate, long retryAfterMillis) {
        if (!isToolCall(message)) {
            return;
        }
        String name = name(message);
        JsonNode arguments = message.path("params").get("arguments");
        boolean none = arguments == null || arguments.isNull();
        if (name != null && registry.tool(name).isPresent() && (none || arguments.isObject())) {
            Map<String, Object> given = none ? Map.of() : JSON.convertValue(arguments, MAP);
            registry.recorder().turnedAway(name, given, caller, callerAccess,
                    TurnedAway.overRate(name, given, rate, retryAfterMillis, List.of(name)));
        } else {
            registry.recorder().rejected(name, caller, callerAccess, plain(arguments), ErrorKind.POLICY_BLOCKED);
        }
    }

    /** The tools/list answer to request {@code id}, from the cached bytes. */
    public byte[] toolsList(JsonNode id) {
        return JsonRpcFrames.result(id, toolsList.get());
    }

    public static boolean isToolCall(JsonNode message) {
        return "tools/call".equals(message.path("method").asText(null));
    }

    private static String name(JsonNode message) {
        JsonNode name = message.path("params").path("name");
        return name.isTextual() ? name.asText() : null;
    }

    private static Object plain(JsonNode arguments) {
        return arguments == null ? null : JSON.convertValue(arguments, Object.class);
    }
}
