package dev.schemabrain.load;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemabrain.error.SchemaBrainException.Kind;
import dev.schemabrain.error.UserError;

import java.io.IOException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** The read-only call a probe or sweep repeats: a tool and its arguments. */
public record CallTarget(String tool, Map<String, Object> arguments) {

    public static final String DEFAULT_TOOL = "describe_table";
    private static final ObjectMapper JSON = new ObjectMapper();

    public CallTarget {
        // Kept in the order given, so the report shows the arguments as the operator wrote them.
        arguments = Collections.unmodifiableMap(new LinkedHashMap<>(arguments));
    }

    /**
     * describe_table on the first table find_relevant_tables lists for "*". Another server needs --tool and
     * --arguments.
     */
    public static CallTarget discover(McpHttpClient client) throws UserError {
        JsonNode tools = client.listTools().message().path("result").path("tools");
        boolean hasDescribe = false;
        for (JsonNode tool : tools) {
            hasDescribe |= DEFAULT_TOOL.equals(tool.path("name").asText());
        }
        if (!hasDescribe) {
            throw new UserError("The server at " + client.display() + " has no " + DEFAULT_TOOL
                    + " tool; name the call to measure with --tool and --arguments.");
        }
        // find_relevant_tables is in every server's default tools; list_indexed_schemas is not.
        String table = data(client, "find_relevant_tables", Map.of("query", "*", "limit", 1))
                .path("hits").path(0).path("qualified_name").asText("");
        if (table.isEmpty()) {
            throw new UserError(Kind.UNAVAILABLE, "The server at " + client.display()
                    + " has no indexed table to describe; index one, or pass --tool and --arguments.");
        }
        return new CallTarget(DEFAULT_TOOL, Map.of("qualified_name", table));
    }

    /** A SchemaBrain envelope's data: structuredContent, else the JSON in content[0].text. */
    private static JsonNode data(McpHttpClient client, String tool, Map<String, Object> arguments) throws UserError {
        JsonNode result = client.callTool(tool, arguments).message().path("result");
        JsonNode envelope = result.get("structuredContent");
        if (envelope == null) {
            try {
                envelope = JSON.readTree(result.path("content").path(0).path("text").asText("{}"));
            } catch (IOException e) {
                envelope = JSON.createObjectNode();
            }
        }
        return envelope.path("data");
    }

    /** One call: true when the server answered and the tool did not report an error. */
    public boolean callOnce(McpHttpClient client) throws UserError {
        return !client.callTool(tool, arguments).message().path("result").path("isError").asBoolean(false);
    }
}
