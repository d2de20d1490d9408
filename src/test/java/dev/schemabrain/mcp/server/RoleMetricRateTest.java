package dev.schemabrain.mcp.server;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemabrain.access.Access;
import dev.schemabrain.access.AccessPolicy;
import dev.schemabrain.access.AccessPolicyFile;
import dev.schemabrain.access.Caller;
import dev.schemabrain.mcp.args.ArgSchema;
import dev.schemabrain.mcp.args.Arguments;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.mcp.tool.LatencyHint;
import dev.schemabrain.mcp.tool.SideEffects;
import dev.schemabrain.mcp.tool.Tool;
import dev.schemabrain.mcp.tool.ToolCall;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.mcp.tool.ToolSpec;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A role's metric_rate replaces the server's get_metric rate for its callers; other callers keep the server's. */
class RoleMetricRateTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Tool metric = new Tool() {
        private final ToolSpec spec = new ToolSpec("get_metric", "Metric", "Use this when testing a source.",
                ArgSchema.empty(), SideEffects.READ, true, true, LatencyHint.SLOW);

        @Override
        public ToolSpec spec() {
            return spec;
        }

        @Override
        public Envelope call(Arguments arguments, ToolCall call) {
            return Envelope.success(JSON.createObjectNode().put("role", call.access().role().orElse("")), null, null,
                    List.of("get_metric"));
        }
    };

    @Test
    void aRolesRateCountsForItsCallersOnly() throws Exception {
        AccessPolicy policy = AccessPolicyFile.parse("""
                version: 1
                roles:
                  slow: {allow: [public.a], metric_rate: 1/h}
                  free: {allow: [public.a]}
                """, "p.yaml");
        Access slow = policy.resolve(new Caller("token:s", Optional.of("slow"), Map.of()));
        Access free = policy.resolve(new Caller("token:f", Optional.of("free"), Map.of()));
        // The server refills at 1000 calls a second, bursts of 3; the slow role one call an hour, with the same burst.
        RateLimit server = new RateLimit(1000, 3);
        try (ToolDispatcher d = new ToolDispatcher(ToolRegistry.of(List.of(metric)), new DispatchCapacity(2, 16, 2, 8),
                CallerRates.metricOnly(server))) {
            for (int i = 0; i < 3; i++) {
                assertEquals("slow", d.dispatch("get_metric", Map.of(), "token:s", slow).join().data().path("role").asText());
                assertEquals("free", d.dispatch("get_metric", Map.of(), "token:f", free).join().data().path("role").asText());
            }
            Thread.sleep(50);   // the server's rate has refilled the free caller's bucket; an hour's has not
            assertTrue(!d.dispatch("get_metric", Map.of(), "token:f", free).join().isError(), "the server's rate");
            Envelope refused = d.dispatch("get_metric", Map.of(), "token:s", slow).join();
            assertTrue(refused.isError(), "the role's rate");
            assertTrue(refused.error().message().contains("1 call per hour"), refused.error().message());
        }
    }
}
