package dev.schemabrain.mcp.server;

import io.modelcontextprotocol.spec.McpSchema;

import java.util.Collection;
import java.util.List;

/**
 * What initialize answers: the server's name and version, its capabilities and its instructions. All of it follows
 * from the names of the tools served and the version alone, so a transport can answer initialize before the store,
 * the catalog and the model are loaded; {@link McpCore} builds the SDK's server from the same record, so the early
 * answer and the SDK's cannot differ.
 */
public record Handshake(McpSchema.Implementation serverInfo, McpSchema.ServerCapabilities capabilities,
                        String instructions) {

    public static final String SERVER_NAME = "schemabrain";

    /** Tools always; prompts, and completions of their arguments, when some prompt's tools are all served. */
    public static Handshake forTools(Collection<String> tools, String version) {
        McpSchema.ServerCapabilities.Builder b = McpSchema.ServerCapabilities.builder().tools(false).prompts(false);
        return new Handshake(new McpSchema.Implementation(SERVER_NAME, version),
                Prompts.forTools(tools).isEmpty() ? b.build() : b.completions().build(), Instructions.forTools(tools));
    }

    /** As the SDK's server of a session (stdio) answers: it adds logging, for the logging/setLevel it handles. */
    public Handshake ofSession() {
        return new Handshake(serverInfo, capabilities.mutate().logging().build(), instructions);
    }

    /** The SDK's negotiation: the client's protocol version when the server speaks it, else the newest it speaks. */
    public McpSchema.InitializeResult answer(String requested, List<String> supported) {
        String version = supported.contains(requested) ? requested : supported.get(supported.size() - 1);
        return new McpSchema.InitializeResult(version, capabilities, serverInfo, instructions);
    }
}
