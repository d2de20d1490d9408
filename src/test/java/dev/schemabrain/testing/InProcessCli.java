package dev.schemabrain.testing;

import dev.schemabrain.cli.Main;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;

/** The CLI run in this JVM on captured writers and a given environment: fast, and what a user would read. */
public final class InProcessCli {

    public record Result(int exitCode, String stdout, String stderr) {
    }

    private InProcessCli() {
    }

    public static Result run(Map<String, String> env, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Main.execute(new PrintWriter(out, true), new PrintWriter(err, true), env, args);
        return new Result(exit, out.toString(), err.toString());
    }

    /** As {@link #run(Map, String...)} with stdin at end of file: a serve stops as soon as it has started. */
    public static synchronized Result runAtEof(Map<String, String> env, String... args) {
        java.io.InputStream in = System.in;
        try {
            System.setIn(new java.io.ByteArrayInputStream(new byte[0]));
            return run(env, args);
        } finally {
            System.setIn(in);
        }
    }

    public static Result run(String... args) {
        return run(Map.of(), args);
    }
}
