package dev.schemabrain.security;

import dev.schemabrain.testing.Cli;
import dev.schemabrain.testing.McpStdio;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 12 item 10b, the server's end: a client that closes stdin right after initialize, while the
 * warm-up is still loading the model and searching, must find serve exiting 0, with no JVM crash and
 * no hs_err_pid*.log (which holds the command line, a --source password included) in its working
 * directory. Run with plain {@code java -jar}, as a client configuration does, without the launcher's
 * -XX:ErrorFile.
 */
class ServeExitIT {

    private static final int CYCLES = 20;
    private static final String INITIALIZE = """
            {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},\
            "clientInfo":{"name":"churn","version":"1"}}}""";

    @TempDir
    Path work;

    @Test
    void serveStartedAndStoppedInQuickSuccessionNeverCrashes() throws Exception {
        Cli.Result demo = Cli.run(work, "demo", "--events", "none");
        assertEquals(0, demo.exitCode(), demo.stderr());
        Path store = work.resolve("schemabrain.db");
        int clean = 0;
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < CYCLES; i++) {
            List<String> command = McpStdio.serveCommand(store);
            Process p = new ProcessBuilder(command).directory(work.toFile())
                    .redirectError(work.resolve("serve-" + i + ".err").toFile()).start();
            OutputStream in = p.getOutputStream();
            in.write((INITIALIZE + "\n").getBytes(StandardCharsets.UTF_8));
            in.flush();
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            String answer = out.readLine();
            in.write("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n".getBytes(StandardCharsets.UTF_8));
            in.close();
            boolean ended = p.waitFor(60, TimeUnit.SECONDS);
            if (!ended) {
                p.destroyForcibly();
            }
            String err = Files.readString(work.resolve("serve-" + i + ".err"));
            boolean ok = ended && p.exitValue() == 0 && answer != null && answer.contains("\"id\":1")
                    && !err.contains("SIGSEGV") && !err.contains("fatal error");
            if (ok) {
                clean++;
            } else {
                failures.add("cycle " + i + ": ended=" + ended + (ended ? " exit=" + p.exitValue() : "") + " answer=" + answer
                        + " stderr=" + err.lines().limit(5).toList());
            }
        }
        List<Path> crashFiles;
        try (Stream<Path> files = Files.walk(work)) {
            crashFiles = files.filter(f -> f.getFileName().toString().startsWith("hs_err")
                    || f.getFileName().toString().startsWith("core")).toList();
        }
        FileFigures.record("serve start/stop cycles without a crash or crash file", crashFiles.isEmpty() ? clean : 0, CYCLES);
        assertTrue(failures.isEmpty(), String.join("\n", failures));
        assertFalse(!crashFiles.isEmpty(), "crash files left in the working directory: " + crashFiles);
    }

    /**
     * A client that kills the server (SIGTERM, as the SDK's stdio client does when it closes) while the
     * warm-up is loading the model in native code: the JVM runs its shutdown hooks with that thread still
     * inside onnxruntime, which crashed (SIGSEGV, an hs_err file with the command line). Kills land at
     * staggered moments of the start-up.
     */
    @Test
    void aServerTerminatedDuringItsWarmUpNeverCrashes() throws Exception {
        Cli.Result demo = Cli.run(work, "demo", "--events", "none");
        assertEquals(0, demo.exitCode(), demo.stderr());
        // The demo indexes into a store of its own: serving schemabrain.db would serve no store and warm up nothing.
        Path store = work.resolve("schemabrain.demo.db");
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < CYCLES; i++) {
            Process p = new ProcessBuilder(McpStdio.serveCommand(store)).directory(work.toFile())
                    .redirectError(work.resolve("term-" + i + ".err").toFile()).start();
            OutputStream in = p.getOutputStream();
            in.write((INITIALIZE + "\n").getBytes(StandardCharsets.UTF_8));
            in.flush();
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            String answer = out.readLine();   // serving: the warm-up has started
            Thread.sleep(50L * (i % 10));
            p.destroy();
            boolean ended = p.waitFor(60, TimeUnit.SECONDS);
            if (!ended) {
                p.destroyForcibly();
            }
            String err = Files.readString(work.resolve("term-" + i + ".err"));
            if (!ended || answer == null || err.contains("SIGSEGV") || err.contains("fatal error")
                    || err.contains("Exception in thread") || err.contains("\tat ")) {
                failures.add("cycle " + i + ": ended=" + ended + " answer=" + answer + " stderr=" + err.lines().limit(5).toList());
            }
            // The operator sees the stop begin and end: one line each, the last with the audit rows written.
            // (Process.destroy() also closes the server's stdin, so the end of input may stop it first; a signal
            // arriving once the serving thread has closed has nothing left to say.)
            boolean stdinFirst = err.contains("schemabrain: stopped after stdin closed");
            if (ended && ((!err.contains("schemabrain: stopping (SIGTERM)") && !stdinFirst)
                    || err.split("schemabrain: stopped after ", -1).length != 2)) {
                failures.add("cycle " + i + ": no stopping line, or more than one stopped line: " + err);
            }
        }
        List<Path> crashFiles;
        try (Stream<Path> files = Files.walk(work)) {
            crashFiles = files.filter(f -> f.getFileName().toString().startsWith("hs_err")
                    || f.getFileName().toString().startsWith("core")).toList();
        }
        FileFigures.record("serve terminated during warm-up without a crash or crash file",
                crashFiles.isEmpty() ? CYCLES - failures.size() : 0, CYCLES);
        assertTrue(failures.isEmpty(), String.join("\n", failures));
        assertTrue(crashFiles.isEmpty(), "crash files left in the working directory: " + crashFiles);
    }

    /** Ctrl-C in a terminal is SIGINT: the operator reads that signal's name, not another's, and the audit rows. */
    @Test
    void aCtrlCSaysItWasSigint() throws Exception {
        Cli.Result demo = Cli.run(work, "demo", "--events", "none");
        assertEquals(0, demo.exitCode(), demo.stderr());
        Process p = new ProcessBuilder(McpStdio.serveCommand(work.resolve("schemabrain.demo.db"))).directory(work.toFile())
                .redirectError(work.resolve("int.err").toFile()).start();
        OutputStream in = p.getOutputStream();
        in.write((INITIALIZE + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        assertTrue(out.readLine() != null, "initialized");
        Process kill = new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start();
        assertEquals(0, kill.waitFor());
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "stopped");
        String err = Files.readString(work.resolve("int.err"));
        assertEquals(130, p.exitValue(), err);
        assertTrue(err.contains("schemabrain: stopping (SIGINT)") && err.contains("schemabrain: stopped after SIGINT"), err);
        assertFalse(err.contains("SIGTERM"), err);
    }
}
