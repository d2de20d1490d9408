package dev.schemabrain.cli;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A stdio serve that has ended takes its shutdown hook with it: run in process (tests, a host embedding the CLI),
 * each serve otherwise left a hook holding its server, which every one of them ran again at the JVM's exit.
 */
class ServeShutdownHookTest {

    @Test
    void servesThatEndedLeaveNoShutdownHookBehind() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "--add-opens", "java.base/java.lang=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), ShutdownHookProbe.class.getName())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        String stderr = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the probe did not finish");
        assertEquals(0, p.exitValue(), stderr);
        String counts = stderr.lines().filter(l -> l.startsWith("hooks ")).findFirst().orElse("no count in: " + stderr);
        String[] parts = counts.split(" ");
        assertEquals(3, parts.length, counts);
        assertEquals(parts[1], parts[2], "hooks before and after three serves: " + counts + "\n" + stderr);
    }
}
