package dev.schemabrain.cli;

import dev.schemabrain.index.IndexListener;

import java.io.PrintWriter;

/**
 * Index progress on stderr: a bar redrawn in place on a terminal, plain stage lines otherwise
 * (CI logs, pipes), so that stdout only ever carries the command's result.
 */
final class ConsoleProgress implements IndexListener {

    private static final int WIDTH = 30;

    private final PrintWriter err;
    private final boolean terminal;
    private boolean barShown;
    private long lastDraw;

    ConsoleProgress(PrintWriter err, boolean terminal) {
        this.err = err;
        this.terminal = terminal;
    }

    /** Progress on the command's error writer; the bar only when this process runs on a terminal. */
    static ConsoleProgress on(PrintWriter err) {
        return new ConsoleProgress(err, System.console() != null);
    }

    @Override
    public void stage(String description) {
        endBar();
        err.println(description + " ...");
    }

    @Override
    public void sampled(int done, int total) {
        if (!terminal || total == 0) {
            return;
        }
        long now = System.nanoTime();
        if (done < total && now - lastDraw < 50_000_000L) {
            return; // redraw at most 20 times a second
        }
        lastDraw = now;
        int filled = (int) ((long) WIDTH * done / total);
        err.print("\r  sampling [" + "#".repeat(filled) + " ".repeat(WIDTH - filled) + "] " + done + "/" + total + " tables");
        err.flush();
        barShown = true;
        if (done == total) {
            endBar();
        }
    }

    private void endBar() {
        if (barShown) {
            err.println();
            barShown = false;
        }
    }
}
