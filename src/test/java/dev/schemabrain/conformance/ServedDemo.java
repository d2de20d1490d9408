package dev.schemabrain.conformance;

import dev.schemabrain.testing.Cli;
import dev.schemabrain.testing.McpStdio;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The packaged jar serving the demo store with {@code serve --transport http --port 0}, as an operator runs
 * it (loopback, no auth, get_metric backed by the demo database).
 */
final class ServedDemo implements AutoCloseable {

    private static final Pattern LISTENING = Pattern.compile("serving MCP over HTTP at (http://\\S+/mcp)");

    private final Process server;
    private final List<String> stderr;
    final String mcpUrl;

    private ServedDemo(Process server, List<String> stderr, String mcpUrl) {
        this.server = server;
        this.stderr = stderr;
        this.mcpUrl = mcpUrl;
    }

    static ServedDemo start(Path dir) throws Exception {
        Path store = dir.resolve("demo.db");
        Path database = dir.resolve("demo.sqlite");
        Cli.Result demo = Cli.run(dir, "--store", store.toString(), "demo", "--database", database.toString());
        if (demo.exitCode() != 0) {
            throw new IllegalStateException("demo failed: " + demo.stderr());
        }
        List<String> command = new ArrayList<>(McpStdio.serveCommand(store));
        command.addAll(List.of("--transport", "http", "--port", "0", "--stats-interval", "0", "--url-env", "SB_DEMO_URL"));
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("SB_DEMO_URL", "sqlite:" + database);
        Process server = pb.start();
        List<String> stderr = Collections.synchronizedList(new ArrayList<>());
        CompletableFuture<String> listening = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(server.getErrorStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null; ) {
                    stderr.add(line);
                    Matcher m = LISTENING.matcher(line);
                    if (m.find()) {
                        listening.complete(m.group(1));
                    }
                }
            } catch (IOException e) {
                listening.completeExceptionally(e);
            }
            listening.completeExceptionally(new IllegalStateException("serve ended: " + stderr));
        }, "served-demo-stderr");
        reader.setDaemon(true);
        reader.start();
        try {
            return new ServedDemo(server, stderr, listening.get(120, TimeUnit.SECONDS));
        } catch (Exception e) {
            server.destroyForcibly();
            throw e;
        }
    }

    /** The server's log so far, for failure messages. */
    String log() {
        synchronized (stderr) {
            return String.join("\n", stderr);
        }
    }

    @Override
    public void close() throws InterruptedException {
        server.destroy();
        if (!server.waitFor(30, TimeUnit.SECONDS)) {
            server.destroyForcibly();
        }
    }
}
