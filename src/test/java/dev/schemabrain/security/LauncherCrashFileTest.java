package dev.schemabrain.security;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 12 item 10b, the launcher's end: the java command line it runs sends a crash report
 * (hs_err_pid*.log, which holds the command line with any --source password) into a private 0700
 * directory, never the client's working directory, and asks for no core dump. A recording {@code java}
 * first on the PATH captures the command line.
 */
class LauncherCrashFileTest {

    private static int held;
    private static int tried;

    @TempDir
    Path dir;
    Path launcher;
    Path record;
    Path home;

    @BeforeEach
    void copyLauncher() throws Exception {
        Path root = dir.resolve("install");
        Files.createDirectories(root.resolve("target"));
        launcher = root.resolve("schemabrain");
        Files.copy(Path.of("schemabrain"), launcher, StandardCopyOption.COPY_ATTRIBUTES);
        // A jar newer than any sources (there are none here), so the launcher does not build.
        Files.writeString(root.resolve("target/schemabrain.jar"), "");
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path java = bin.resolve("java");
        Files.writeString(java, "#!/bin/sh\nprintf '%s\\n' \"$@\" > \"$RECORD\"\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwx------"));
        record = dir.resolve("args.txt");
        home = Files.createDirectories(dir.resolve("home"));
    }

    private int launch(Map<String, String> env) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("bash", launcher.toString(), "--store", "/data/x.db", "serve",
                "--source", "postgresql://u:hunter2@db/app").directory(dir.toFile())
                .redirectErrorStream(true).redirectOutput(dir.resolve("launcher.out").toFile());
        pb.environment().remove("XDG_STATE_HOME");
        pb.environment().put("PATH", dir.resolve("bin") + ":" + System.getenv("PATH"));
        pb.environment().put("HOME", home.toString());
        pb.environment().put("RECORD", record.toString());
        pb.environment().putAll(env);
        Process p = pb.start();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        return p.exitValue();
    }

    private void assertCrashReportsGoTo(Path expected) throws Exception {
        List<String> args = Files.readAllLines(record, StandardCharsets.UTF_8);
        boolean ok = args.contains("-XX:ErrorFile=" + expected.resolve("hs_err_pid%p.log"))
                && args.contains("-XX:-CreateCoredumpOnCrash")
                && args.indexOf("-XX:ErrorFile=" + expected.resolve("hs_err_pid%p.log")) < args.indexOf("-jar")
                && PosixFilePermissions.toString(Files.getPosixFilePermissions(expected)).equals("rwx------");
        tried++;
        if (ok) {
            held++;
        }
        assertAll(() -> assertTrue(args.contains("-XX:ErrorFile=" + expected.resolve("hs_err_pid%p.log")), "java was run with " + args),
                () -> assertTrue(args.contains("-XX:-CreateCoredumpOnCrash"), "no core dump: " + args),
                () -> assertTrue(args.indexOf("-XX:ErrorFile=" + expected.resolve("hs_err_pid%p.log")) < args.indexOf("-jar"), "a JVM option: " + args),
                () -> assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(expected))));
    }

    @Test
    void crashReportsGoToAPrivateStateDirectoryUnderHome() throws Exception {
        assertEquals(0, launch(Map.of()));
        Path state = home.resolve(".local/state/schemabrain");
        assertCrashReportsGoTo(state);
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(home.resolve(".local"))),
                "missing parents are created private too");
    }

    @Test
    void xdgStateHomeIsHonouredAndAnOpenDirectoryIsClosed() throws Exception {
        Path xdg = dir.resolve("xdg");
        Files.createDirectories(xdg.resolve("schemabrain"));
        Files.setPosixFilePermissions(xdg.resolve("schemabrain"), PosixFilePermissions.fromString("rwxr-xr-x"));
        assertEquals(0, launch(Map.of("XDG_STATE_HOME", xdg.toString())));
        assertCrashReportsGoTo(xdg.resolve("schemabrain"));
    }

    @Test
    void aSymlinkPlantedAsTheDirectoryIsRefused() throws Exception {
        Path xdg = Files.createDirectories(dir.resolve("xdg2"));
        Path elsewhere = Files.createDirectories(dir.resolve("someone-elses"));
        Files.createSymbolicLink(xdg.resolve("schemabrain"), elsewhere);
        int exit = launch(Map.of("XDG_STATE_HOME", xdg.toString()));
        tried++;
        if (exit == 2 && !Files.exists(record)) {
            held++;
        }
        assertEquals(2, exit, Files.readString(dir.resolve("launcher.out")));
        assertTrue(!Files.exists(record), "java was not started");
    }

    @AfterAll
    static void figures() throws Exception {
        FileFigures.record("launcher crash-report cases kept private", held, tried);
    }
}
