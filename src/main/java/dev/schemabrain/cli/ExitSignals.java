package dev.schemabrain.cli;

import dev.schemabrain.embed.Embedders;
import sun.misc.Signal;

import java.io.PrintWriter;
import java.util.Map;

/**
 * SIGTERM, SIGINT and SIGHUP let the embedding model finish before the JVM exits. onnxruntime registers a
 * shutdown hook that frees its native environment; hooks run at once and unordered, so a signal that
 * arrived while a session was still loading (serve's warm-up) freed memory under it: a SIGSEGV, and an
 * hs_err file holding the command line. Here the signal first waits for a load or inference under way,
 * then exits with the usual 128 + signal number, and the hooks then find nothing running in native code.
 */
final class ExitSignals {

    private static final Map<String, Integer> SIGNALS = Map.of("TERM", 15, "INT", 2, "HUP", 1);

    /**
     * What a command says when Ctrl-C stops it (index: what became of the store), printed before anything waits on
     * its own error writer (null: System.err), and what to undo before the JVM exits; one value, read at once.
     */
    private record Interrupted(String sentence, Runnable undo, PrintWriter err) {
    }

    private static volatile Interrupted interrupted;
    /** Set once a signal is being handled: a command failing under it then says nothing more. */
    private static volatile boolean stopping;
    /** The signal being handled (TERM, INT, HUP); null before one arrives. */
    private static volatile String received;

    private ExitSignals() {
    }

    /** @param sentence one sentence for stderr if SIGINT, SIGTERM or SIGHUP stops the command now; null for none */
    static void onInterrupt(String sentence) {
        onInterrupt(sentence, () -> { }, null);
    }

    /**
     * As above, with the command's error writer (the sentence comes after the lines it printed) and what to undo
     * before the JVM exits: the command's thread runs on while the exit's hooks do, so it must not print after it.
     */
    static void onInterrupt(String sentence, Runnable undoFirst, PrintWriter err) {
        interrupted = sentence == null ? null : new Interrupted(sentence, undoFirst, err);
    }

    /** Waits for the signal's handler to end the JVM, once its undo is done; a thread that exited itself could cut it short. */
    static int awaitExit() {
        while (true) {
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return exitCode();
            }
        }
    }

    static boolean stopping() {
        return stopping;
    }

    /** The exit code of the signal being handled (130 for a Ctrl-C). */
    static int exitCode() {
        String name = received;
        return 128 + SIGNALS.get(name == null ? "TERM" : name);
    }

    /** Which signal stops the process (SIGINT for a Ctrl-C), or SIGTERM when the JVM is stopped otherwise. */
    static String received() {
        String name = received;
        return "SIG" + (name == null ? "TERM" : name);
    }

    static void install() {
        SIGNALS.forEach((name, number) -> {
            try {
                Signal.handle(new Signal(name), signal -> {
                    received = name;
                    Interrupted what = interrupted;
                    stopping = true;
                    if (what != null) {
                        // Through the command's own writer: a line it is printing is not cut by this one.
                        PrintWriter err = what.err() == null ? new PrintWriter(System.err) : what.err();
                        err.println("schemabrain: " + what.sentence());
                        err.flush();
                    }
                    Embedders.shutDown();
                    if (what != null) {
                        what.undo().run();
                    }
                    Runtime.getRuntime().exit(128 + number);
                });
            } catch (IllegalArgumentException | UnsupportedOperationException reserved) {
                // The JVM keeps this signal (-Xrs, or a platform without it): its default handling applies.
            }
        });
    }
}
