package dev.schemabrain.cli;

import dev.schemabrain.audit.ArgsHash;
import dev.schemabrain.audit.AuditEntry;
import dev.schemabrain.audit.AuditKey;
import dev.schemabrain.audit.AuditLog;
import dev.schemabrain.error.AuditException;
import dev.schemabrain.testing.InProcessCli;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code store backup} on a real indexed store whose audit chain a server wrote, and the copy-only-the-.db trap. */
class StoreBackupTest {

    private static final String HEX = "5c".repeat(32);
    private static final AuditKey KEY = AuditKey.of(HexFormat.of().parseHex(HEX));

    @TempDir
    Path dir;

    Path store;
    Map<String, String> env;

    @BeforeEach
    void servedStore() throws Exception {
        Path source = dir.resolve("app.sqlite");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + source); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)");
            st.execute("INSERT INTO customers VALUES (1, 'a'), (2, 'b')");
        }
        store = dir.resolve("schemabrain.db");
        env = Map.of("HOME", dir.resolve("home").toString(), AuditKey.ENV, HEX);
        InProcessCli.Result indexed = InProcessCli.run(env, "index", "--source", "sqlite:" + source, "--store", store.toString());
        assertEquals(0, indexed.exitCode(), indexed.stderr());
        // What serve does per tools/call: append to the chain beside the store, witness in the store. Then idle.
        try (AuditLog log = AuditLog.open(store, KEY, Optional.empty())) {
            for (int i = 1; i <= 5; i++) {
                log.append(new AuditEntry("src", "stdio", "describe_table", AuditEntry.Phase.COMPLETED, "success", null,
                        List.of(), ArgsHash.of(KEY, Map.of("i", i)), null, 1L, 2L));
            }
        }
    }

    @Test
    void aBackupHoldsStoreAndChainTogetherVerifiesAndServes() throws Exception {
        Path dest = Files.createDirectory(dir.resolve("backups")).resolve("sb.db");
        InProcessCli.Result r = InProcessCli.run(env, "store", "backup", dest.toString(), "--store", store.toString());
        assertEquals(0, r.exitCode(), r.stderr());
        assertEquals("Backed up " + store + " to " + dest + ", and its audit log to " + AuditLog.fileFor(dest) + ".\n"
                + "audit chain of the copy intact: 5 rows verified.\n", r.stdout());
        for (Path p : List.of(dest, AuditLog.fileFor(dest))) {
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(p)), p.toString());
        }
        InProcessCli.Result verify = InProcessCli.run(env, "audit", "verify", "--store", dest.toString());
        assertEquals(0, verify.exitCode(), verify.stdout() + verify.stderr());
        assertTrue(verify.stdout().startsWith("audit chain intact: 5 rows verified"), verify.stdout());
        // serve's start: the log opens (witness, mark and rows checked) and takes the next call.
        try (AuditLog log = AuditLog.open(dest, KEY, Optional.empty())) {
            assertDoesNotThrow(() -> log.append(new AuditEntry("src", "stdio", "list_schemas", AuditEntry.Phase.COMPLETED,
                    "success", null, List.of(), ArgsHash.of(KEY, Map.of()), null, 1L, 2L)));
        }
        InProcessCli.Result tables = InProcessCli.run(env, "check", "--store", dest.toString(), "--source",
                "sqlite:" + dir.resolve("app.sqlite"));
        assertFalse(tables.stderr().contains("Exception"), tables.stderr());

        InProcessCli.Result again = InProcessCli.run(env, "store", "backup", dest.toString(), "--store", store.toString());
        assertEquals(2, again.exitCode());
        assertEquals("schemabrain: " + dest + " exists already; a backup never overwrites, so pass a new DEST.\n", again.stderr());
    }

    @Test
    void copyingOnlyTheDbFileIsNotABackupAndSaysToUseStoreBackup() throws Exception {
        Path copy = Files.createDirectory(dir.resolve("copied")).resolve("schemabrain.db");
        Files.copy(store, copy);
        InProcessCli.Result verify = InProcessCli.run(env, "audit", "verify", "--store", copy.toString());
        assertEquals(1, verify.exitCode(), verify.stdout() + verify.stderr());
        assertEquals("audit chain broken: the audit log " + AuditLog.fileFor(copy) + " is missing or empty, but the"
                + " witness in the store says it held 5 rows: it was deleted or replaced, or the store was copied without"
                + " it (copy both with 'schemabrain store backup DEST').\n", verify.stdout());
        // serve refuses the copy with the same sentence.
        AuditException refused = Assertions.assertThrows(
                AuditException.class, () -> AuditLog.open(copy, KEY, Optional.empty()).close());
        assertTrue(refused.getMessage().contains("'schemabrain store backup DEST'"), refused.getMessage());
    }
}
