package dev.schemabrain.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemabrain.error.UserError;
import dev.schemabrain.load.CallTarget;
import dev.schemabrain.load.McpHttpClient;
import dev.schemabrain.load.Slo;
import dev.schemabrain.load.Sweep;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

/** {@code schemabrain sweep}: throughput and tail latency per concurrency, and what to run at. */
@Command(name = "sweep", mixinStandardHelpOptions = true,
        description = {"Find the concurrency an MCP Streamable HTTP server sustains within a latency SLO.",
                "Load an MCP Streamable HTTP server at each concurrency in turn with one read-only call and print,"
                + " as JSON on stdout, each point's throughput and p50/p95/p99, the knee (the lowest concurrency reaching"
                + " 90%% of the best throughput) and recommended_concurrency: the lowest concurrency within 5%% of the best"
                + " throughput that meets the SLO without errors. --markdown also writes the report a person reads.",
                "The client's pool is sized to the largest concurrency (HTTP/1.1 keep-alive), so the client never queues."})
final class SweepCommand implements Callable<Integer> {

    private static final ObjectMapper JSON = new ObjectMapper();

    @ParentCommand
    Main main;

    @Mixin
    ProbeCommand.Target target;

    @Option(names = "--total", paramLabel = "N", defaultValue = "2000", description = "Calls per point (default: ${DEFAULT-VALUE}).")
    int total;

    @Option(names = "--concurrency", paramLabel = "LIST", split = ",", hideParamSyntax = true, defaultValue = "8,16,32,64",
            description = "The concurrencies to measure, comma-separated (default: ${DEFAULT-VALUE}).")
    List<Integer> concurrencies;

    @Option(names = "--p95-slo-ms", required = true, paramLabel = "MS", description = "The p95 latency a recommended point must meet.")
    double p95SloMs;

    @Option(names = "--p99-slo-ms", required = true, paramLabel = "MS", description = "The p99 latency a recommended point must meet.")
    double p99SloMs;

    @Option(names = "--warmup", paramLabel = "N", defaultValue = "200", description = "Untimed calls first, at the first concurrency (default: ${DEFAULT-VALUE}).")
    int warmup;

    @Option(names = "--markdown", paramLabel = "FILE", description = "Also write the report a person reads to this Markdown file.")
    Path markdown;

    @Override
    public Integer call() throws UserError, InterruptedException, IOException {
        if (total < 1 || warmup < 0 || concurrencies.isEmpty() || concurrencies.stream().anyMatch(c -> c == null || c < 1)) {
            throw new UserError("--total and every --concurrency must be at least 1 and --warmup at least 0.");
        }
        if (!(p95SloMs > 0) || !(p99SloMs > 0)) {
            throw new UserError("--p95-slo-ms and --p99-slo-ms must be positive.");
        }
        if (markdown != null && markdown.toAbsolutePath().getParent() != null
                && !Files.isDirectory(markdown.toAbsolutePath().getParent())) {
            throw new UserError("--markdown " + markdown + ": its directory does not exist.");
        }
        Optional<CallTarget> call = target.call();
        int largest = concurrencies.stream().mapToInt(Integer::intValue).max().orElseThrow();
        try (McpHttpClient client = target.client(main.env, largest)) {
            Sweep.Result result = Sweep.run(client, call, new Sweep.Plan(total, concurrencies, warmup, new Slo(p95SloMs, p99SloMs)));
            if (markdown != null) {
                Files.writeString(markdown, result.markdown());
            }
            main.out().println(JSON.writerWithDefaultPrettyPrinter().writeValueAsString(result.json()));
        }
        return 0;
    }
}
