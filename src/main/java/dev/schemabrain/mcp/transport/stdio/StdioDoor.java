package dev.schemabrain.mcp.transport.stdio;

import dev.schemabrain.mcp.server.Handshake;

import java.io.InputStream;
import java.io.PrintStream;
import java.time.Duration;

/**
 * Stdin read from the process's start: opened before the store, the audit log and the catalog, it answers initialize
 * and ping at once from the {@link Handshake}, and holds every other message until {@link StdioServer#run} has built
 * the server (a request waits at most {@link #STARTING_BOUND}, then is told to retry).
 */
public final class StdioDoor {

    /** How long a request read while the server starts waits for it before being told to retry. */
    static final Duration STARTING_BOUND = Duration.ofSeconds(15);

    private final StdinGuard guard;
    private final PrintStream stdout;

    private StdioDoor(StdinGuard guard, PrintStream stdout) {
        this.guard = guard;
        this.stdout = stdout;
    }

    /** Starts reading {@code stdin}; {@code stdout} carries nothing but frames from now on. */
    public static StdioDoor open(InputStream stdin, PrintStream stdout, Handshake handshake) {
        return open(stdin, stdout, handshake, STARTING_BOUND);
    }

    static StdioDoor open(InputStream stdin, PrintStream stdout, Handshake handshake, Duration bound) {
        StdinGuard guard = new StdinGuard(stdin, stdout, StdioServer.MAX_LINE_BYTES,
                new StdinGuard.Early(handshake.ofSession(), StdioSessionTransport.protocolVersionsSpoken(), bound));
        Thread reader = new Thread(guard, "schemabrain-stdin");
        reader.setDaemon(true);
        reader.start();
        return new StdioDoor(guard, stdout);
    }

    StdinGuard guard() {
        return guard;
    }

    PrintStream stdout() {
        return stdout;
    }
}
