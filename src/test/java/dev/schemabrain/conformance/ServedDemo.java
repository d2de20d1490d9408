package dev.schemabrain.conformance;

import dev.schemabrain.testing.Cli;
import dev.schemabrain.testing.ServedJar;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The packaged jar serving the demo store with {@code serve --transport http --port 0}, as an operator runs
 * it (loopback, no auth, get_metric backed by the demo database).
 */
final class ServedDemo implements AutoCloseable {

    private final ServedJar served;
    final String mcpUrl;

    private ServedDemo(ServedJar served) {
        this.served = served;
        this.mcpUrl = served.url + "/mcp";
    }

    static ServedDemo start(Path dir) throws Exception {
        Path store = dir.resolve("demo.db");
        Path database = dir.resolve("demo.sqlite");
        Cli.Result demo = Cli.run(dir, "--store", store.toString(), "demo", "--events", "none", "--database", database.toString());
        if (demo.exitCode() != 0) {
            throw new IllegalStateException("demo failed: " + demo.stderr());
        }
        return new ServedDemo(ServedJar.start(store, dir, Map.of("SB_DEMO_URL", "sqlite:" + database), List.of(), true,
                "--stats-interval", "0", "--url-env", "SB_DEMO_URL"));
    }

    /** The server's log so far, for failure messages. */
    String log() {
        synchronized (served.stderr) {
            return String.join("\n", served.stderr);
        }
    }

    @Override
    public void close() {
        try {
            served.stop();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
