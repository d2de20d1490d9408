package dev.schemabrain.cli;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemabrain.error.UserError;
import dev.schemabrain.load.CallTarget;
import dev.schemabrain.load.McpHttpClient;
import dev.schemabrain.load.Probe;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

/** {@code schemabrain probe}: one look at a running MCP HTTP server. */
@Command(name = "probe", mixinStandardHelpOptions = true,
        description = {"Measure a running MCP Streamable HTTP server once: health, tools/list size, call latency.",
                "Prints as JSON on stdout: GET /health, the tools/list payload size, and the latency (p50/p95/p99) of a"
                        + " read-only call made sequentially and then concurrently.",
                "The call is describe_table on the first table the server's own tools name, unless --tool is given."})
final class ProbeCommand implements Callable<Integer> {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The server, the token and the call: what probe and sweep share. */
    static final class Target {
        @Option(names = "--url", required = true, paramLabel = "URL", description = "The server's MCP endpoint, e.g. http://127.0.0.1:8080/mcp.")
        String url;

        @Option(names = "--token-env", paramLabel = "VAR", description = "Read the bearer token from this environment"
                + " variable (never from the command line; it is never printed).")
        String tokenEnv;

        @Option(names = "--tool", paramLabel = "NAME", description = "The read-only tool to call (default: describe_table on a discovered table).")
        String tool;

        @Option(names = "--arguments", paramLabel = "JSON", description = "The tool's arguments as a JSON object (default: {} with --tool).")
        String arguments;

        @Option(names = "--timeout-ms", paramLabel = "MS", defaultValue = "10000", description = "Per-request timeout (default: ${DEFAULT-VALUE}).")
        int timeoutMs;

        McpHttpClient client(Map<String, String> env, int connections) throws UserError {
            URI uri;
            try {
                uri = new URI(url);
            } catch (URISyntaxException e) {
                throw new UserError("--url " + url + " is not a URL; give the server's MCP endpoint, e.g. http://127.0.0.1:8080/mcp.");
            }
            if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null) {
                throw new UserError("--url must be an http:// or https:// URL with a host, e.g. http://127.0.0.1:8080/mcp.");
            }
            if (timeoutMs <= 0) {
                throw new UserError("--timeout-ms must be positive.");
            }
            Optional<String> token = Optional.empty();
            if (tokenEnv != null) {
                String value = env.get(tokenEnv);
                if (value == null || value.isBlank()) {
                    throw new UserError("--token-env " + tokenEnv + ": that environment variable is not set.");
                }
                token = Optional.of(value.strip());
            }
            return new McpHttpClient(uri, token, tokenEnv, connections, Duration.ofMillis(timeoutMs));
        }

        Optional<CallTarget> call() throws UserError {
            if (tool == null) {
                if (arguments != null) {
                    throw new UserError("--arguments needs --tool: name the tool they are for.");
                }
                return Optional.empty();
            }
            if (arguments == null) {
                return Optional.of(new CallTarget(tool, Map.of()));
            }
            try {
                Map<String, Object> parsed = JSON.readValue(arguments, new TypeReference<LinkedHashMap<String, Object>>() { });
                return Optional.of(new CallTarget(tool, parsed == null ? Map.of() : parsed));
            } catch (IOException e) {
                throw new UserError("--arguments must be a JSON object, e.g. '{\"qualified_name\":\"main.users\"}'.");
            }
        }
    }

    @ParentCommand
    Main main;

    @Mixin
    Target target;

    @Option(names = "--calls", paramLabel = "N", defaultValue = "200", description = "Calls in each of the sequential and concurrent runs (default: ${DEFAULT-VALUE}).")
    int calls;

    @Option(names = "--concurrency", paramLabel = "N", defaultValue = "8", description = "Calls in flight in the concurrent run (default: ${DEFAULT-VALUE}).")
    int concurrency;

    @Option(names = "--warmup", paramLabel = "N", defaultValue = "20", description = "Untimed calls first (default: ${DEFAULT-VALUE}).")
    int warmup;

    @Override
    public Integer call() throws UserError, InterruptedException, IOException {
        if (calls < 1 || concurrency < 1 || warmup < 0) {
            throw new UserError("--calls and --concurrency must be at least 1 and --warmup at least 0.");
        }
        Optional<CallTarget> call = target.call();
        try (McpHttpClient client = target.client(main.env, concurrency)) {
            main.out().println(JSON.writerWithDefaultPrettyPrinter().writeValueAsString(
                    Probe.run(client, call, new Probe.Plan(calls, concurrency, warmup))));
        }
        return 0;
    }
}
