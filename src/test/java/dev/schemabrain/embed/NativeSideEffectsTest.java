package dev.schemabrain.embed;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The model in a fresh JVM, as {@code schemabrain serve} would use it: stdout carries protocol frames, so the
 * native libraries must print nothing there; and a run must leave no files in the temporary directory nor in
 * a home directory that is not even writable.
 */
class NativeSideEffectsTest {

    @Test
    void silentOnStdoutAndLeavesNoFiles(@TempDir Path scratch) throws Exception {
        Path tmp = Files.createDirectory(scratch.resolve("tmp"));
        Path home = Files.createDirectory(scratch.resolve("home"));
        assertTrue(home.toFile().setWritable(false, false));
        Path out = scratch.resolve("stdout");
        Path err = scratch.resolve("stderr");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(java, "-Djava.io.tmpdir=" + tmp, "-Duser.home=" + home,
                "-cp", System.getProperty("java.class.path"), StdoutProbe.class.getName())
                .redirectOutput(out.toFile()).redirectError(err.toFile());
        for (String name : List.of("DJL_CACHE_DIR", "ENGINE_CACHE_DIR", "RUST_LIBRARY_PATH", "OPT_OUT_TRACKING", "DJL_OFFLINE")) {
            pb.environment().remove(name); // test the defaults, not this machine's settings
        }
        Process p = pb.start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the probe did not finish");
        String stderr = Files.readString(err, StandardCharsets.UTF_8);
        String stdout = Files.readString(out, StandardCharsets.UTF_8);
        List<Path> inTmp = list(tmp);
        List<Path> inHome = list(home);
        assertAll(() -> assertEquals(0, p.exitValue(), stderr),
                () -> assertEquals("", stdout, "stdout must stay empty; stderr was:\n" + stderr),
                () -> assertEquals(List.of(), inTmp, "left in java.io.tmpdir"),
                () -> assertEquals(List.of(), inHome, "left in the home directory"));
        home.toFile().setWritable(true, false);
    }

    private static List<Path> list(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(f -> !f.equals(dir)).toList();
        }
    }
}
