package dev.schemabrain.cli;

import dev.schemabrain.testing.InProcessCli;
import dev.schemabrain.testing.McpStdio;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A store in a directory nothing can write (a ConfigMap, a read-only volume) is read by the listing commands; serve
 * and index say in one sentence what needs a writable place, index before it introspects anything (issue 31).
 */
class ReadOnlyStoreTest {

    @TempDir
    Path dir;

    @Test
    void aStoreOnAReadOnlyDirectoryIsReadAndWritersSaySoUpFront() throws Exception {
        Path source = dir.resolve("shop.sqlite");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + source); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE orders (id integer PRIMARY KEY, total numeric, placed_at date)");
            st.execute("INSERT INTO orders VALUES (1, 9.5, '2024-01-02')");
        }
        Path ro = Files.createDirectory(dir.resolve("ro"), PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwx------")));
        Path store = ro.resolve("schemabrain.db");
        Map<String, String> env = Map.of("HOME", dir.resolve("home").toString(),
                "XDG_CONFIG_HOME", dir.resolve("home").resolve(".config").toString());
        assertEquals(0, InProcessCli.run(env, "index", "--source", "sqlite:" + source, "--store", store.toString()).exitCode());

        Runnable restore = makeReadOnly(ro);
        try {
            InProcessCli.Result metrics = InProcessCli.run(env, "metrics", "list", "--store", store.toString());
            assertEquals(0, metrics.exitCode(), metrics.stderr());
            assertTrue(metrics.stdout().contains("orders_count"), metrics.stdout());
            InProcessCli.Result entities = InProcessCli.run(env, "entities", "list", "--store", store.toString());
            assertEquals(0, entities.exitCode(), entities.stderr());
            assertTrue(entities.stdout().contains("orders"), entities.stdout());

            InProcessCli.Result index = InProcessCli.run(env, "index", "--source", "sqlite:" + source, "--store",
                    store.toString());
            assertEquals(2, index.exitCode(), index.stderr());
            // One line, and nothing before it: the refusal comes before introspection, not after.
            assertEquals("schemabrain: The store " + store + " is read-only (its file or directory cannot be written, as on"
                    + " a read-only mount); write it where it is writable, or pass --store with a writable path.",
                    index.stderr().strip());

            InProcessCli.Result serve = InProcessCli.run(env, "serve", "--store", store.toString());
            assertEquals(2, serve.exitCode(), serve.stderr());
            assertTrue(serve.stderr().contains("schemabrain: serve records every call in the audit log "
                    + ro.resolve("schemabrain.audit.db") + ", and " + ro + " cannot be written (a read-only mount?); pass"
                    + " --audit-log FILE with a path in a writable directory"), serve.stderr());
            assertFalse(serve.stderr().contains("SQLITE_CANTOPEN") || serve.stderr().contains("\tat "), serve.stderr());

            // The audit log placed elsewhere: the read-only store is served, every call recorded and verified there.
            Path auditLog = dir.resolve("logs").resolve("audit.db");
            Files.createDirectories(auditLog.getParent());
            StringBuffer stderr = new StringBuffer();
            var client = McpStdio.client(store, stderr, env, "--audit-log", auditLog.toString(),
                    "--source", "sqlite:" + source);
            String answer;
            try {
                answer = McpStdio.call(client, "get_metric", Map.of("name", "orders_count")).content().toString();
            } finally {
                McpStdio.stop(client);
            }
            assertTrue(answer.contains("\"status\":\"success\"") && answer.contains("\"orders_count\":1"), answer + stderr);
            assertTrue(Files.exists(auditLog), "the audit log is where --audit-log says");
            assertFalse(Files.exists(ro.resolve("schemabrain.audit.db")), "nothing beside the read-only store");
            InProcessCli.Result verify = InProcessCli.run(env, "audit", "verify", "--store", store.toString(),
                    "--audit-log", auditLog.toString());
            assertEquals(0, verify.exitCode(), verify.stdout() + verify.stderr());
            assertTrue(verify.stdout().contains("intact"), verify.stdout());
            InProcessCli.Result beside = InProcessCli.run(env, "audit", "verify", "--store", store.toString());
            assertTrue(beside.stdout().contains("0 rows") || beside.exitCode() != 0, "the default place holds nothing: "
                    + beside.stdout() + beside.stderr());
        } finally {
            restore.run();
        }
    }

    /**
     * Makes {@code d} read-only for this process: chmod 0555 for an ordinary user; as root, whom chmod does not stop,
     * a read-only bind mount over it (a real read-only file system). Without either the test is skipped, saying why.
     */
    private static Runnable makeReadOnly(Path d) throws Exception {
        Files.setPosixFilePermissions(d, PosixFilePermissions.fromString("r-xr-x---"));
        if (!Files.isWritable(d)) {
            return () -> chmod(d, "rwx------");
        }
        chmod(d, "rwx------");
        boolean mounted = run("mount", "--bind", "-o", "ro", d.toString(), d.toString()) && !Files.isWritable(d);
        Assumptions.assumeTrue(mounted, "running as root, where chmod does not stop writes, and a read-only bind mount"
                + " is not permitted here: no read-only directory to test with");
        return () -> run("umount", d.toString());
    }

    private static void chmod(Path d, String mode) {
        try {
            Files.setPosixFilePermissions(d, PosixFilePermissions.fromString(mode));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean run(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
