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

    public static Result run(String... args) {
        return run(Map.of(), args);
    }
}
