package dev.schemabrain.mcp.transport.http;

import dev.schemabrain.access.AccessPolicySource;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.mcp.envelope.EnvelopeSchema;
import dev.schemabrain.mcp.server.McpToolAdapter;
import dev.schemabrain.mcp.server.ToolDispatcher;
import dev.schemabrain.mcp.tool.Tool;
import dev.schemabrain.mcp.tool.ToolRegistry;
import io.modelcontextprotocol.server.McpStatelessServerFeatures.AsyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import reactor.core.publisher.Mono;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The registry's tools as the SDK's stateless tool specifications: the same definitions and the same
 * {@link ToolDispatcher} lanes as over stdio; the caller comes from the HTTP request, not a session.
 */
final class StatelessTools {

    private StatelessTools() {
    }

    /** @param policy the access policy in force; each call's reach is its credential's role under it */
    static List<AsyncToolSpecification> specifications(ToolRegistry registry, ToolDispatcher dispatcher,
                                                       Observability observability, Optional<AccessPolicySource> policy) {
        Map<String, Object> outputSchema = EnvelopeSchema.published();
        List<AsyncToolSpecification> specs = new ArrayList<>();
        for (Tool tool : registry.tools()) {
            String name = tool.spec().name();
            boolean touchesSource = tool.spec().touchesSource();
            specs.add(AsyncToolSpecification.builder()
                    .tool(McpToolAdapter.definition(tool.spec(), outputSchema))
                    .callHandler((context, request) -> call(name, touchesSource, request.arguments(),
                            RequestScope.of(context), dispatcher, observability, policy))
                    .build());
        }
        return specs;
    }

    /** The 2026-07-28 era's path to the same tools: one request's caller, the same lanes and counters. */
    static CallerGate.ModernTools modern(ToolRegistry registry, ToolDispatcher dispatcher, Observability observability,
                                        Optional<AccessPolicySource> policy) {
        return scope -> (name, arguments) -> {
            boolean touchesSource = registry.tool(name).map(t -> t.spec().touchesSource()).orElse(false);
            return call(name, touchesSource, arguments, scope, dispatcher, observability, policy).toFuture();
        };
    }

    private static Mono<CallToolResult> call(String name, boolean touchesSource, Map<String, Object> arguments,
                                             RequestScope scope, ToolDispatcher dispatcher, Observability observability,
                                             Optional<AccessPolicySource> policy) {
        return Mono.<Envelope>fromFuture(() -> {
                    if (touchesSource) {
                        observability.sourceCallStarted();
                    }
                    return dispatcher.dispatch(name, arguments, scope.identity(), scope.access(policy));
                })
                .doOnNext(scope::noteAnswer)
                // Also when dispatch throws: the in-flight count never drifts up.
                .doFinally(signal -> {
                    if (touchesSource) {
                        observability.sourceCallEnded(scope.answer());
                    }
                })
                .map(McpToolAdapter::result);
    }
}
