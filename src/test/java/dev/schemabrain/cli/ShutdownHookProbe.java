package dev.schemabrain.cli;

import dev.schemabrain.testing.InProcessCli;

import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Run by {@link ServeShutdownHookTest} in a JVM of its own (with java.lang opened to read the JVM's hook table):
 * serves over stdio in process three times, stdin at its end, and prints how many shutdown hooks were registered
 * before and after.
 */
public final class ShutdownHookProbe {

    private ShutdownHookProbe() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Files.createTempDirectory("schemabrain-hooks");
        int before = hooks();
        for (int i = 0; i < 3; i++) {
            InProcessCli.Result r = InProcessCli.runAtEof(Map.of(), "--store", dir.resolve("absent.db").toString(), "serve");
            if (r.exitCode() != 0) {
                System.err.println("serve exited " + r.exitCode() + ": " + r.stderr());
            }
        }
        System.err.println("hooks " + before + " " + hooks());
    }

    private static int hooks() throws Exception {
        Class<?> table = Class.forName("java.lang.ApplicationShutdownHooks");
        Field hooks = table.getDeclaredField("hooks");
        hooks.setAccessible(true);
        synchronized (table) {
            return ((Map<?, ?>) hooks.get(null)).size();
        }
    }
}
