package dev.schemabrain.mcp.transport.stdio;

import dev.schemabrain.access.Access;
import dev.schemabrain.mcp.server.McpToolAdapter;
import dev.schemabrain.mcp.server.ModernEra;
import dev.schemabrain.mcp.server.ToolDispatcher;
import dev.schemabrain.mcp.server.ToolListing;
import dev.schemabrain.mcp.tool.ToolRegistry;
import io.modelcontextprotocol.server.McpServerFeatures.AsyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema;
import reactor.core.publisher.Mono;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/** The registry's tools as the stdio session's SDK specifications: definition once, dispatch per call. */
final class StdioTools {

    private StdioTools() {
    }

    /**
     * One specification per tool, the definitions presented as {@code listing} says; each call goes through
     * {@code dispatcher}, which runs it on its own lane instead of the SDK's shared pool (see
     * {@link ToolDispatcher}), and its answer is sent from that lane. {@code access}: the stdio caller's reach
     * under the policy in force, asked once per call.
     */
    static List<AsyncToolSpecification> specifications(ToolRegistry registry, ToolDispatcher dispatcher,
                                                              ToolListing listing, Supplier<Access> access) {
        List<AsyncToolSpecification> specs = new ArrayList<>();
        for (McpSchema.Tool definition : McpToolAdapter.definitions(registry, listing)) {
            String name = definition.name();
            specs.add(AsyncToolSpecification.builder()
                    .tool(definition)
                    .callHandler((exchange, request) -> Mono.fromFuture(
                            () -> dispatcher.dispatch(name, request.arguments(), StdioServer.CALLER, access.get()))
                            .map(McpToolAdapter::result))
                    .build());
        }
        return specs;
    }

    /** The 2026-07-28 era's path to the same tools and lanes (no SDK session in between). */
    static ModernEra.ToolRunner modern(ToolDispatcher dispatcher, Supplier<Access> access) {
        return (name, arguments) -> dispatcher.dispatch(name, arguments, StdioServer.CALLER, access.get())
                .thenApply(McpToolAdapter::result);
    }
}
