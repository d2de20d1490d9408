package dev.schemabrain.security;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 12 item 10b, deterministically: the JVM crashed at exit (SIGSEGV in onnxruntime) because the
 * warm-up thread was still embedding while serve returned and the JVM shut down. When serve returns,
 * no warm-up thread may be left running. (ServeExitIT repeats the real exit 20 times; the crash itself
 * is a race that did not show in 20 runs on this machine.)
 */
class ServeShutdownTest {

    @TempDir
    Path dir;

    @Test
    void serveReturnsOnlyAfterItsWarmUpEnded() throws Exception {
        Path store = dir.resolve("demo.db");
        CliRun demo = CliRun.of("--store", store.toString(), "demo", "--events", "none", "--database", dir.resolve("demo.sqlite").toString());
        assertEquals(0, demo.exit(), demo.err());
        int held = 0;
        int tried = 5;
        for (int i = 0; i < tried; i++) {
            // stdin is at end of file: serve stops right after starting, while its warm-up has just begun.
            CliRun serve = CliRun.of("--store", store.toString(), "serve");
            assertEquals(0, serve.exit(), serve.err());
            List<String> running = Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> t.isAlive() && t.getName().equals("schemabrain-warm")).map(Thread::getName).toList();
            if (running.isEmpty()) {
                held++;
            }
            assertTrue(running.isEmpty(), "serve returned with its warm-up still running: " + running);
        }
        FileFigures.record("serve exits with no warm-up thread left running", held, tried);
    }
}
