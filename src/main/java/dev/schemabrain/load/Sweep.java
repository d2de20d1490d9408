package dev.schemabrain.load;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schemabrain.error.UserError;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** {@code schemabrain sweep}: one load run per concurrency, the knee, and the concurrency to run at under an SLO. */
public final class Sweep {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** What to run: calls per point, the concurrencies in order, untimed calls first, the SLO. */
    public record Plan(int total, List<Integer> concurrencies, int warmup, Slo slo) {
        public Plan {
            concurrencies = List.copyOf(concurrencies);
        }
    }

    /** The measured sweep, its meaning, and both renderings. */
    public record Result(String url, McpHttpClient.ServerInfo server, CallTarget call, Plan plan, Instant at,
                         List<LoadPoint> points, SweepAnalysis analysis) {

        public Result {
            points = List.copyOf(points);
        }

        public ObjectNode json() {
            ObjectNode report = JSON.createObjectNode().put("url", url).put("measured_at", at.toString());
            report.set("server", Probe.server(server));
            report.set("call", Probe.call(call));
            report.put("total_per_point", plan.total()).put("warmup", plan.warmup());
            report.putObject("slo").put("p95_ms", plan.slo().p95Ms()).put("p99_ms", plan.slo().p99Ms());
            ArrayNode rows = report.putArray("points");
            for (LoadPoint point : points) {
                rows.add(point.json().put("within_slo", plan.slo().holds(point)));
            }
            report.put("knee_concurrency", analysis.knee());
            report.put("saturated", analysis.saturated());
            ArrayNode feasible = report.putArray("within_slo");
            analysis.withinSlo().forEach(feasible::add);
            if (analysis.recommended().isPresent()) {
                report.put("recommended_concurrency", analysis.recommended().get());
            } else {
                report.putNull("recommended_concurrency");
            }
            report.put("reason", analysis.reason());
            return report;
        }

        /** The report a person reads: the setting, a table of points, the knee and the recommendation. */
        public String markdown() {
            StringBuilder md = new StringBuilder();
            md.append("# Concurrency sweep: ").append(url).append("\n\n");
            md.append("- Server: ").append(server.name()).append(' ').append(server.version())
                    .append(" (MCP ").append(server.protocolVersion()).append(server.session() ? ", with a session" : ", no session")
                    .append(")\n");
            md.append("- Call: `").append(call.tool()).append("` ").append(JSON.<JsonNode>valueToTree(call.arguments()).toString()).append('\n');
            md.append("- ").append(plan.total()).append(" calls per point after ").append(plan.warmup())
                    .append(" untimed calls; client pool sized to ").append(plan.concurrencies().stream().mapToInt(i -> i).max().orElse(1))
                    .append(" connections (HTTP/1.1 keep-alive)\n");
            md.append("- SLO: p95 ≤ ").append(SweepAnalysis.fmt(plan.slo().p95Ms())).append(" ms, p99 ≤ ")
                    .append(SweepAnalysis.fmt(plan.slo().p99Ms())).append(" ms, no errors\n");
            md.append("- Measured ").append(at).append(" from a client with ").append(Runtime.getRuntime().availableProcessors())
                    .append(" cores (on loopback it shares them with the server)\n\n");
            md.append("| concurrency | calls | errors | calls/s | p50 ms | p95 ms | p99 ms | max ms | within SLO |\n");
            md.append("|---:|---:|---:|---:|---:|---:|---:|---:|:---:|\n");
            for (LoadPoint p : points) {
                Latencies l = p.latency();
                md.append("| ").append(p.concurrency()).append(" | ").append(p.calls()).append(" | ").append(p.errors())
                        .append(" | ").append(SweepAnalysis.fmt(p.callsPerSecond()))
                        .append(" | ").append(l.p50Ms()).append(" | ").append(l.p95Ms()).append(" | ").append(l.p99Ms())
                        .append(" | ").append(l.maxMs()).append(" | ").append(plan.slo().holds(p) ? "yes" : "no").append(" |\n");
            }
            md.append("\n**Knee:** ").append(analysis.knee()).append(" — the lowest concurrency reaching ")
                    .append(Math.round(SweepAnalysis.KNEE_SHARE * 100)).append("% of the best throughput measured")
                    .append(analysis.saturated() ? "; beyond it more concurrency adds latency, not throughput.\n"
                            : "; throughput was still growing at the highest concurrency tested.\n");
            md.append("\n**Recommended concurrency:** ")
                    .append(analysis.recommended().map(String::valueOf).orElse("none")).append(". ")
                    .append(analysis.reason()).append('\n');
            return md.toString();
        }
    }

    private Sweep() {
    }

    public static Result run(McpHttpClient client, Optional<CallTarget> target, Plan plan)
            throws UserError, InterruptedException {
        McpHttpClient.ServerInfo server = client.connect();
        CallTarget call = target.isPresent() ? target.get() : CallTarget.discover(client);
        if (plan.warmup() > 0) {
            LoadRun.run(() -> call.callOnce(client), plan.warmup(), plan.concurrencies().get(0));
        }
        List<LoadPoint> points = new ArrayList<>();
        for (int concurrency : plan.concurrencies()) {
            points.add(LoadRun.run(() -> call.callOnce(client), plan.total(), concurrency));
        }
        return new Result(client.display(), server, call, plan, Instant.now().truncatedTo(ChronoUnit.SECONDS), points,
                SweepAnalysis.of(points, plan.slo()));
    }
}
