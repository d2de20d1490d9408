package dev.schemabrain.files;

import dev.schemabrain.error.UnsafeFileException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class PrivateFilesTest {

    @TempDir
    Path dir;

    private static String mode(Path p) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    }

    @Test
    void createsFilesAndDirectoriesPrivate() throws Exception {
        Path file = dir.resolve("a/b/store.db");
        PrivateFiles.create(file);
        assertAll(() -> assertEquals("rw-------", mode(file)),
                () -> assertEquals("rwx------", mode(dir.resolve("a"))),
                () -> assertEquals("rwx------", mode(dir.resolve("a/b"))));
    }

    @Test
    void writeReplacesAtomicallyAndPrivately() throws Exception {
        Path file = dir.resolve("policy.yaml");
        PrivateFiles.write(file, "one".getBytes(StandardCharsets.UTF_8));
        PrivateFiles.write(file, "two".getBytes(StandardCharsets.UTF_8));
        long left;
        try (var files = Files.list(dir)) {
            left = files.count();
        }
        assertAll(() -> assertEquals("two", Files.readString(file)),
                () -> assertEquals("rw-------", mode(file)),
                () -> assertEquals(1, left, "no temporary file is left behind"));
    }

    @Test
    void refusesAWorldWritableFile() throws Exception {
        Path file = dir.resolve("store.db");
        Files.writeString(file, "x");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-rw-"));
        UnsafeFileException e = assertThrows(UnsafeFileException.class, () -> PrivateFiles.check(file));
        assertTrue(e.getMessage().contains("chmod 600"), e.getMessage());
    }

    @Test
    void refusesToCreateOverAWorldWritableFile() throws Exception {
        Path file = dir.resolve("store.db");
        Files.writeString(file, "x");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-rw-"));
        assertThrows(UnsafeFileException.class, () -> PrivateFiles.create(file));
    }

    @Test
    void refusesASymlink() throws Exception {
        Path target = dir.resolve("real.db");
        Files.writeString(target, "x");
        Path link = Files.createSymbolicLink(dir.resolve("store.db"), target);
        UnsafeFileException e = assertThrows(UnsafeFileException.class, () -> PrivateFiles.check(link));
        assertTrue(e.getMessage().contains("symbolic link"), e.getMessage());
    }

    @Test
    void refusesADanglingSymlinkInsteadOfCreatingThroughIt() throws Exception {
        Path link = Files.createSymbolicLink(dir.resolve("store.db"), dir.resolve("elsewhere.db"));
        assertThrows(UnsafeFileException.class, () -> PrivateFiles.create(link));
        assertFalse(Files.exists(dir.resolve("elsewhere.db")), "nothing was created at the link's target");
    }

    @Test
    void aSecretMustNotBeReadableByOthers() throws Exception {
        Path key = dir.resolve("audit.key");
        Files.writeString(key, "k");
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-r--r--"));
        PrivateFiles.check(key);   // readable is fine for a store
        assertThrows(UnsafeFileException.class, () -> PrivateFiles.checkSecret(key));
    }

    @Test
    void refusesAFileOfAnotherUser() throws Exception {
        assumeTrue(PrivateFiles.currentUid() == 0, "only root can give a file away");
        Path file = dir.resolve("store.db");
        Files.writeString(file, "x");
        Files.setAttribute(file, "unix:uid", 65534);
        UnsafeFileException e = assertThrows(UnsafeFileException.class, () -> PrivateFiles.check(file));
        assertTrue(e.getMessage().contains("another user"), e.getMessage());
    }

    @Test
    void acceptsGroupWriteOnlyWhereTheGroupIsTheUsersPrivateGroup() throws Exception {
        Path own = Files.createDirectory(dir.resolve("own"));
        Files.setPosixFilePermissions(own, PosixFilePermissions.fromString("rwxrwxr-x"));   // umask 002
        boolean upg = PrivateFiles.privateGroup(own);
        // root's group here is "root" with no other member: the user-private-group scheme.
        assumeTrue(upg, "the test machine's user has a private group");
        PrivateFiles.create(own.resolve("store.db"));
        Files.setAttribute(own, "posix:group", own.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByGroupName("users"));
        assertFalse(PrivateFiles.privateGroup(own));
        assertThrows(UnsafeFileException.class, () -> PrivateFiles.check(own.resolve("store.db")));
    }

    @Test
    void refusesAGroupWritableDirectoryButNotASticky() throws Exception {
        Path shared = Files.createDirectory(dir.resolve("shared"));
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
        assertThrows(UnsafeFileException.class, () -> PrivateFiles.create(shared.resolve("store.db")));
        Files.setAttribute(shared, "unix:mode", 01777);   // like /tmp
        PrivateFiles.create(shared.resolve("store.db"));
        assertEquals("rw-------", mode(shared.resolve("store.db")));
    }
}
