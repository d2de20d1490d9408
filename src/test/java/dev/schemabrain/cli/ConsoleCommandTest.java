package dev.schemabrain.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** schemabrain console's refusals before anything listens: one sentence each, never a stack trace. */
class ConsoleCommandTest {

    @TempDir
    Path dir;

    private String[] run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(new PrintWriter(out, true), new PrintWriter(err, true), Map.of(), args);
        return new String[]{String.valueOf(code), out.toString(), err.toString()};
    }

    @Test
    void anAddressOtherThanLoopbackIsRefused() {
        String[] r = run("console", "--store", dir.resolve("s.db").toString(), "--host", "0.0.0.0", "--reviewer", "alice");
        assertNotEquals("0", r[0]);
        assertTrue(r[2].contains("--host 0.0.0.0 is not a loopback address"), r[2]);
        assertFalse(r[2].contains("\tat "), r[2]);
    }

    @Test
    void aMissingStoreIsOneSentence() {
        String[] r = run("console", "--store", dir.resolve("none.db").toString(), "--reviewer", "alice", "--port", "0");
        assertNotEquals("0", r[0]);
        assertTrue(r[2].contains("There is no store at"), r[2]);
        assertFalse(r[2].contains("\tat "), r[2]);
        assertFalse(r[1].contains("token="), "nothing was served, so no token was printed");
    }

    @Test
    void anUnreadableAccessPolicyIsOneSentence() throws Exception {
        Path policy = dir.resolve("access.yaml");
        Files.writeString(policy, "version: 1\nroles:\n  analyst:\n    allow: [not a pattern]\n");
        Files.setPosixFilePermissions(policy, PosixFilePermissions.fromString("rw-------"));
        String[] r = run("console", "--store", dir.resolve("none.db").toString(), "--reviewer", "alice", "--port", "0",
                "--access-policy", policy.toString());
        assertNotEquals("0", r[0]);
        assertTrue(r[2].contains(policy.toString()) && r[2].contains("schema.table"), r[2]);
        assertFalse(r[2].contains("\tat "), r[2]);
        assertFalse(r[1].contains("token="), "nothing was served, so no token was printed");
    }
}
