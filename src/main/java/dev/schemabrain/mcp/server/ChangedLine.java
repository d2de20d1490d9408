package dev.schemabrain.mcp.server;

import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The periodic stats line, logged only when it differs from the last one logged: an idle server does not
 * repeat the same figures every interval.
 */
public final class ChangedLine implements Runnable {

    private final Supplier<String> line;
    private final Consumer<String> log;
    private String last;

    public ChangedLine(Supplier<String> line, Consumer<String> log) {
        this.line = line;
        this.log = log;
    }

    @Override
    public synchronized void run() {
        String now = line.get();
        if (!now.equals(last)) {
            last = now;
            log.accept(now);
        }
    }
}
