package dev.schemabrain.security;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Issue 12 item 9, for the store and the policy file: created private, and refused by index, policy and
 * serve when someone else could have planted or changed them: owned by another user, writable by others,
 * a symbolic link, in a directory others can write, or with a planted WAL beside it.
 */
class StoreHygieneTest {

    private static int refused;
    private static int tried;
    private static final long OTHER_UID = 65534;

    @TempDir
    Path dir;
    Path source;
    Path store;
    Path policy;

    @BeforeEach
    void createSource() throws Exception {
        source = dir.resolve("people.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + source); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE person (id INTEGER PRIMARY KEY, full_name TEXT, ssn TEXT, city TEXT)");
            st.execute("INSERT INTO person VALUES (1, 'Ann Lee', '123-45-6789', 'Oslo'), (2, 'Bob Roe', '987-65-4321', 'Bergen')");
        }
        store = dir.resolve("state/store.db");
        policy = dir.resolve("state/pii_policy.yaml");
    }

    private static CliRun cli(String... args) {
        return CliRun.of(args);
    }

    private CliRun index() {
        return cli("--store", store.toString(), "index", "--source", "sqlite:" + source);
    }

    /** Every command that opens the store; each is a case of its own. */
    enum Command { INDEX, POLICY_TAGS, POLICY_TAG, SERVE, SERVE_SOURCE }

    private CliRun run(Command command) {
        return switch (command) {
            case INDEX -> index();
            case POLICY_TAGS -> cli("--store", store.toString(), "policy", "tags");
            case POLICY_TAG -> cli("--store", store.toString(), "policy", "tag", "main.person.city", "location", "--file", policy.toString());
            case SERVE -> cli("--store", store.toString(), "serve");
            case SERVE_SOURCE -> cli("--store", store.toString(), "serve", "--source", "sqlite:" + source);
        };
    }

    /** The command must refuse the store with one sentence that names the file and the fix. */
    private void assertRefusedBy(Command command, String why, String fix) {
        CliRun r = run(command);
        tried++;
        boolean ok = r.exit() == 2 && r.err().contains(fix) && r.err().strip().lines().count() == 1
                && !r.err().contains("Exception");
        if (ok) {
            refused++;
        }
        assertAll(() -> assertEquals(2, r.exit(), why + ": " + r.err()),
                () -> assertTrue(r.err().contains(fix), why + ": the message names the fix: " + r.err()),
                () -> assertEquals(1, r.err().strip().lines().count(), why + ": one sentence, no stack trace: " + r.err()));
    }

    @Test
    void aNewStoreIsPrivate() throws Exception {
        assertEquals(0, index().exit());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(store)));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(store.getParent())));
        for (String suffix : List.of("-wal", "-shm")) {
            Path p = Path.of(store + suffix);
            if (Files.exists(p)) {
                assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(p)), suffix);
            }
        }
        assertEquals(0, cli("--store", store.toString(), "policy", "tag", "main.person.city", "location",
                "--file", policy.toString()).exit());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(policy)));
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Command.class)
    void aStorePlantedByAnotherUserIsRefused(Command command) throws Exception {
        assumeTrue(Files.getAttribute(dir, "unix:uid").equals(0), "chown needs root");
        // The attacker's store: indexed, then their own 'policy tag ... --none' on the SSN column.
        assertEquals(0, index().exit());
        Files.setAttribute(store, "unix:uid", (int) OTHER_UID);
        assertRefusedBy(command, "a store owned by another user", "belongs to another user");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Command.class)
    void aWorldWritableStoreIsRefused(Command command) throws Exception {
        assertEquals(0, index().exit());
        Files.setPosixFilePermissions(store, PosixFilePermissions.fromString("rw-rw-rw-"));
        assertRefusedBy(command, "a world-writable store", "chmod 600");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Command.class)
    void aSymlinkedStoreIsRefused(Command command) throws Exception {
        assertEquals(0, index().exit());
        Path real = dir.resolve("state/real.db");
        Files.move(store, real);
        Files.createSymbolicLink(store, real);
        assertRefusedBy(command, "a symbolic link", "symbolic link");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Command.class)
    void aStoreInADirectoryOthersCanWriteIsRefused(Command command) throws Exception {
        assertEquals(0, index().exit());
        Files.setPosixFilePermissions(store.getParent(), PosixFilePermissions.fromString("rwxrwxrwx"));
        assertRefusedBy(command, "a directory anyone can write", "chmod go-w");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Command.class)
    void aPlantedWalIsRefused(Command command) throws Exception {
        assumeTrue(Files.getAttribute(dir, "unix:uid").equals(0), "chown needs root");
        assertEquals(0, index().exit());
        Path wal = Path.of(store + "-wal");
        Files.write(wal, new byte[0]);
        Files.setAttribute(wal, "unix:uid", (int) OTHER_UID);
        assertRefusedBy(command, "a WAL planted by another user", "belongs to another user");
    }

    @ParameterizedTest(name = "policy {0}")
    @ValueSource(strings = {"apply", "tag"})
    void aPlantedPolicyFileIsRefused(String subcommand) throws Exception {
        assertEquals(0, index().exit());
        Files.writeString(policy, "block: [credential]\nforce: true\ncolumns:\n  main.person.ssn: {categories: []}\n");
        Files.setPosixFilePermissions(policy, PosixFilePermissions.fromString("rw-rw-rw-"));
        CliRun r = subcommand.equals("apply") ? cli("--store", store.toString(), "policy", "apply", policy.toString())
                : cli("--store", store.toString(), "policy", "tag", "main.person.city", "location", "--file", policy.toString());
        tried++;
        if (r.exit() == 2 && r.err().contains("chmod 600")) {
            refused++;
        }
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("chmod 600"), r.err());
        CliRun tags = cli("--store", store.toString(), "policy", "tags");
        assertFalse(tags.err().contains("Exception"));
    }

    @Test
    void aPolicyFileOfAnotherUserIsRefused() throws Exception {
        assumeTrue(Files.getAttribute(dir, "unix:uid").equals(0), "chown needs root");
        assertEquals(0, index().exit());
        Files.writeString(policy, "columns:\n  main.person.ssn: {categories: []}\n");
        Files.setPosixFilePermissions(policy, PosixFilePermissions.fromString("rw-------"));
        Files.setAttribute(policy, "unix:uid", (int) OTHER_UID);
        CliRun r = cli("--store", store.toString(), "policy", "apply", policy.toString());
        tried++;
        if (r.exit() == 2 && r.err().contains("belongs to another user")) {
            refused++;
        }
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("belongs to another user"), r.err());
    }

    @AfterAll
    static void figures() throws Exception {
        FileFigures.record("store hygiene cases refused", refused, tried);
    }
}
