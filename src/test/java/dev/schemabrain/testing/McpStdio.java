package dev.schemabrain.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The SDK's own MCP client, talking to {@code schemabrain serve} from the packaged jar over real stdio. */
public final class McpStdio {

    public static final McpJsonMapper JSON = new JacksonMcpJsonMapper(new ObjectMapper());

    private McpStdio() {
    }

    public static Path jar() {
        return Path.of(System.getProperty("schemabrain.jar", "target/schemabrain.jar"));
    }

    /**
     * {@code java -jar schemabrain.jar --store STORE serve --tools all}: tests drive every tool, not only the default
     * core (whose list is tested on its own); the test classpath instead when no jar is built (benchmarks).
     */
    public static List<String> serveCommand(Path store) {
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> launch = Files.exists(jar())
                ? List.of(javaBin, "-jar", jar().toString())
                : List.of(javaBin, "-cp", System.getProperty("java.class.path"), "dev.schemabrain.cli.Main");
        List<String> command = new ArrayList<>(launch);
        command.addAll(List.of("--store", store.toString(), "serve", "--tools", "all"));
        return command;
    }

    /** A started, initialized client; {@code stderr} collects the server's log lines. */
    public static McpSyncClient client(Path store, StringBuffer stderr) {
        return client(store, stderr, Map.of());
    }

    /** As {@link #client(Path, StringBuffer)}, the server's environment extended by {@code env} and its serve command by {@code serveArgs}. */
    public static McpSyncClient client(Path store, StringBuffer stderr, Map<String, String> env, String... serveArgs) {
        List<String> command = new ArrayList<>(serveCommand(store));
        if (List.of(serveArgs).contains("--tools")) {
            command.subList(command.size() - 2, command.size()).clear();   // the test's own groups instead of all
        }
        command.addAll(List.of(serveArgs));
        ServerParameters params = ServerParameters.builder(command.get(0))
                .args(command.subList(1, command.size()).toArray(String[]::new))
                .env(env)
                .build();
        return client(params, stderr);
    }

    /** A started, initialized client of the server {@code params} launches. */
    public static McpSyncClient client(ServerParameters params, StringBuffer stderr) {
        StdioClientTransport transport = new StdioClientTransport(params, JSON);
        transport.setStdErrorHandler(line -> stderr.append(line).append('\n'));
        McpSyncClient client = McpClient.sync(transport)
                .requestTimeout(Duration.ofSeconds(30))
                .initializationTimeout(Duration.ofSeconds(30))
                .clientInfo(McpSchema.Implementation.builder("schemabrain-it", "1").build())
                .build();
        try {
            client.initialize();
        } catch (RuntimeException e) {
            client.close();
            // The SDK says only that initialize failed; the server's own sentence is on its stderr.
            throw new IllegalStateException("the server did not initialize; its stderr:\n" + stderr, e);
        }
        return client;
    }

    /**
     * Closes {@code client} and waits for its server to exit. The SDK's {@code close()} only starts that (it signals
     * the server a moment later, on another thread): a test that reads the store right after it races the server's
     * last writes, such as the witness of the last answered row.
     */
    public static void stop(McpSyncClient client) {
        if (!client.closeGracefully()) {
            throw new IllegalStateException("the server did not exit within 10 s of its client closing");
        }
    }

    public static McpSchema.CallToolResult call(McpSyncClient client, String tool, Map<String, Object> arguments) {
        return client.callTool(McpSchema.CallToolRequest.builder(tool).arguments(arguments).build());
    }
}
