package dev.schemabrain.security;

import dev.schemabrain.cli.Main;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** The CLI run in this JVM with stdin at end of file (serve stops at once), stdout and stderr captured. */
record CliRun(int exit, String out, String err) {

    static synchronized CliRun of(String... args) {
        PrintStream err = System.err;
        PrintStream out = System.out;
        InputStream in = System.in;
        ByteArrayOutputStream capturedErr = new ByteArrayOutputStream();
        ByteArrayOutputStream capturedOut = new ByteArrayOutputStream();
        try {
            System.setErr(new PrintStream(capturedErr, true, StandardCharsets.UTF_8));
            System.setOut(new PrintStream(capturedOut, true, StandardCharsets.UTF_8));
            System.setIn(new ByteArrayInputStream(new byte[0]));
            int exit = Main.execute(args);
            return new CliRun(exit, capturedOut.toString(StandardCharsets.UTF_8), capturedErr.toString(StandardCharsets.UTF_8));
        } finally {
            System.setErr(err);
            System.setOut(out);
            System.setIn(in);
        }
    }
}
