package dev.schemabrain.mcp.transport.http;

import dev.schemabrain.access.AccessPolicySource;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.mcp.envelope.EnvelopeSchema;
import dev.schemabrain.mcp.server.McpToolAdapter;
import dev.schemabrain.mcp.server.ToolDispatcher;
import dev.schemabrain.mcp.tool.Tool;
import dev.schemabrain.mcp.tool.ToolRegistry;
import io.modelcontextprotocol.server.McpStatelessServerFeatures.AsyncToolSpecification;
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

    static List<AsyncToolSpecification> specifications(ToolRegistry registry, ToolDispatcher dispatcher,
                                                       Observability observability) {
        return specifications(registry, dispatcher, observability, Optional.empty());
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
                    .callHandler((context, request) -> {
                        RequestScope scope = RequestScope.of(context);
                        return Mono.<Envelope>fromFuture(() -> {
                                    if (touchesSource) {
                                        observability.sourceCallStarted();
                                    }
                                    return dispatcher.dispatch(name, request.arguments(), scope.identity(),
                                            scope.access(policy));
                                })
                                .doOnNext(scope::noteAnswer)
                                // Also when dispatch throws: the in-flight count never drifts up.
                                .doFinally(signal -> {
                                    if (touchesSource) {
                                        observability.sourceCallEnded(scope.answer());
                                    }
                                })
                                .map(McpToolAdapter::result);
                    })
                    .build());
        }
        return specs;
    }
}
