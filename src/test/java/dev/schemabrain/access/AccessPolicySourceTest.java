package dev.schemabrain.access;

import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.error.SchemaBrainException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The policy a server holds: read at start, looked at again at most once a second, a bad reload keeps the old one. */
class AccessPolicySourceTest {

    private static final String V1 = "version: 1\nroles:\n  analyst: {allow: [public.invoice]}\n";
    private static final String V2 = "version: 1\nroles:\n  analyst: {allow: [public.invoice, public.customer]}\n";
    private static final QualifiedName CUSTOMER = new QualifiedName("public", "customer");

    @TempDir
    Path dir;

    private final AtomicLong clock = new AtomicLong(0);
    private final List<String> said = new ArrayList<>();

    @Test
    void aChangedFileCountsWithinASecondAndNotBefore() throws Exception {
        Path file = write("policy.yaml", V1, 1_000);
        AccessPolicySource source = AccessPolicySource.open(file, said::add, clock::get);
        Caller analyst = new Caller("token:a", Optional.of("analyst"), Map.of());
        assertFalse(source.resolve(analyst).sees(CUSTOMER));

        write("policy.yaml", V2, 2_000);
        clock.addAndGet(AccessPolicySource.CHECK_NANOS / 2);
        assertFalse(source.resolve(analyst).sees(CUSTOMER), "not looked at again within the second");
        clock.addAndGet(AccessPolicySource.CHECK_NANOS);
        assertTrue(source.resolve(analyst).sees(CUSTOMER));
        assertEquals(1, said.size());
        assertTrue(said.get(0).contains("reloaded"), said.get(0));
    }

    @Test
    void aBadReloadKeepsTheOldPolicyAndSaysWhyOnce() throws Exception {
        Path file = write("policy.yaml", V2, 1_000);
        AccessPolicySource source = AccessPolicySource.open(file, said::add, clock::get);
        Caller analyst = new Caller("token:a", Optional.of("analyst"), Map.of());

        write("policy.yaml", V2 + "    colour: red\n", 2_000);
        for (int i = 0; i < 5; i++) {
            clock.addAndGet(AccessPolicySource.CHECK_NANOS);
            assertTrue(source.resolve(analyst).sees(CUSTOMER), "the previous policy stays in force");
        }
        assertEquals(1, said.size(), said.toString());
        assertTrue(said.get(0).startsWith("Keeping the previous access policy because the access policy " + file + " line 4"),
                said.get(0));
        assertFalse(said.get(0).contains("\n"));

        // Made unsafe: refused the same way; the old policy still holds.
        write("policy.yaml", V1, 3_000);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-rw-"));
        clock.addAndGet(AccessPolicySource.CHECK_NANOS);
        assertTrue(source.resolve(analyst).sees(CUSTOMER));
        assertEquals(2, said.size());
        assertTrue(said.get(1).contains("chmod 600"), said.get(1));

        // Made private again (chmod alone): it counts.
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        clock.addAndGet(AccessPolicySource.CHECK_NANOS);
        assertFalse(source.resolve(analyst).sees(CUSTOMER));
    }

    @Test
    void anUnsafeOrInvalidFileStopsTheStart() throws Exception {
        Path file = write("policy.yaml", V1, 1_000);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        assertThrows(SchemaBrainException.class, () -> AccessPolicySource.open(file));
        Path bad = write("bad.yaml", "version: 1\nroles:\n  a: {allow: [invoice]}\n", 1_000);
        assertTrue(assertThrows(SchemaBrainException.class, () -> AccessPolicySource.open(bad)).getMessage().contains("line 3"));
    }

    private Path write(String name, String text, long mtime) throws Exception {
        Path file = dir.resolve(name);
        Files.writeString(file, text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        Files.setLastModifiedTime(file, FileTime.fromMillis(mtime));
        return file;
    }
}
