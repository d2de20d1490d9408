package dev.schemabrain.files;

import dev.schemabrain.error.FileProblems;
import dev.schemabrain.error.UnsafeFileException;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Files that hold the store, the audit chain, its key or the PII policy: created private (0600 files,
 * 0700 directories) and opened only when nobody else could have planted or changed them. The rules
 * follow OpenSSH's StrictModes: a file must be a regular file (not a symlink), owned by the user
 * running SchemaBrain, and writable by nobody else; a directory on the way must not be writable by
 * others unless it is sticky (like /tmp), and must belong to this user or root. A secret (the audit
 * key) must also be unreadable by others. Group write is accepted where the group is the user's private
 * group (the user-private-group scheme of Debian and Ubuntu, whose umask 002 makes every directory
 * group-writable): a group named like the user, with no other member, as Debian's OpenSSH accepts it.
 *
 * <p>On a file system without POSIX attributes the checks are skipped: there is nothing to read.
 */
public final class PrivateFiles {

    private static final Set<PosixFilePermission> FILE_MODE = PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> DIR_MODE = PosixFilePermissions.fromString("rwx------");
    private static final int STICKY = 01000;
    private static final int GROUP_OR_OTHER_WRITE = 0022;
    private static final int OTHER_WRITE = 0002;
    private static final int GROUP_OR_OTHER_ANY = 0077;

    private PrivateFiles() {
    }

    /** The uid of this process, or -1 where the platform has none. */
    static long currentUid() {
        try {
            return new com.sun.security.auth.module.UnixSystem().getUid();
        } catch (RuntimeException | LinkageError e) {
            return -1;
        }
    }

    /**
     * Creates {@code dir} and its missing parents (each 0700) and checks every existing directory on the
     * way to it; answers the absolute directory.
     */
    public static Path directory(Path dir) throws UnsafeFileException {
        Path abs = dir.toAbsolutePath().normalize();
        if (!Files.isDirectory(abs)) {
            Path parent = abs.getParent();
            if (parent != null) {
                directory(parent);
            }
            try {
                Files.createDirectory(abs, PosixFilePermissions.asFileAttribute(DIR_MODE));
            } catch (FileAlreadyExistsException raced) {
                // Created meanwhile (or it is a file): checked below.
            } catch (UnsupportedOperationException noPosix) {
                createPlain(abs);
            } catch (IOException e) {
                throw new UnsafeFileException("Cannot create the directory " + abs + " (" + reason(e)
                        + "); check the path and its permissions.", e);
            }
        }
        checkDirectory(abs);
        return abs;
    }

    private static void createPlain(Path dir) throws UnsafeFileException {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UnsafeFileException("Cannot create the directory " + dir + " (" + reason(e)
                    + "); check the path and its permissions.", e);
        }
    }

    /**
     * Makes sure {@code file} exists as a private file: creates it empty with mode 0600 (its directory
     * 0700 when missing), or checks an existing one with {@link #check}.
     */
    public static void create(Path file) throws UnsafeFileException {
        Path abs = file.toAbsolutePath().normalize();
        if (abs.getParent() != null) {
            directory(abs.getParent());
        }
        try {
            Files.createFile(abs, PosixFilePermissions.asFileAttribute(FILE_MODE));
            return;
        } catch (FileAlreadyExistsException exists) {
            // Someone's file is already there: it must pass the checks.
        } catch (UnsupportedOperationException noPosix) {
            try {
                Files.createFile(abs);
                return;
            } catch (FileAlreadyExistsException exists) {
                // Checked below.
            } catch (IOException e) {
                throw new UnsafeFileException("Cannot create " + abs + " (" + reason(e) + "); check the path and its permissions.", e);
            }
        } catch (IOException e) {
            throw new UnsafeFileException("Cannot create " + abs + " (" + reason(e) + "); check the path and its permissions.", e);
        }
        check(abs);
    }

    /**
     * Checks an existing file and its directory: a regular file, not a symbolic link, owned by this user,
     * not writable by group or others. Answers quietly when the file does not exist.
     */
    public static void check(Path file) throws UnsafeFileException {
        check(file, false);
    }

    /** {@link #check}, and the file must not be readable by group or others either (a key). */
    public static void checkSecret(Path file) throws UnsafeFileException {
        check(file, true);
    }

    private static void check(Path file, boolean secret) throws UnsafeFileException {
        Path abs = file.toAbsolutePath().normalize();
        if (abs.getParent() != null && Files.isDirectory(abs.getParent())) {
            checkDirectory(abs.getParent());
        }
        if (Files.isSymbolicLink(abs)) {
            throw new UnsafeFileException(abs + " is a symbolic link, which someone else could point at another file;"
                    + " replace it with the real file.", null);
        }
        if (!Files.exists(abs, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        if (!Files.isRegularFile(abs, LinkOption.NOFOLLOW_LINKS)) {
            throw new UnsafeFileException(abs + " is not a regular file; move it away or choose another path.", null);
        }
        Mode mode = mode(abs);
        if (mode == null) {
            return;
        }
        long uid = currentUid();
        if (uid >= 0 && mode.uid() != uid) {
            throw new UnsafeFileException(abs + " belongs to another user (uid " + mode.uid() + "), who could have planted"
                    + " or changed it; move it away, or chown it to the user running SchemaBrain.", null);
        }
        int forbidden = secret ? GROUP_OR_OTHER_ANY : writableByOthers(abs, mode);
        if ((mode.bits() & forbidden) != 0) {
            throw new UnsafeFileException(abs + " is " + (secret ? "readable or writable" : "writable") + " by other users (mode "
                    + String.format("%04o", mode.bits() & 07777) + "), who could " + (secret ? "read or change" : "change")
                    + " it; run chmod 600 " + abs + " and try again.", null);
        }
    }

    private static void checkDirectory(Path dir) throws UnsafeFileException {
        Mode mode = mode(dir);
        if (mode == null) {
            return;
        }
        long uid = currentUid();
        if (uid >= 0 && mode.uid() != uid && mode.uid() != 0) {
            throw new UnsafeFileException("The directory " + dir + " belongs to another user (uid " + mode.uid()
                    + "), who could replace the files in it; use a directory of your own.", null);
        }
        if ((mode.bits() & writableByOthers(dir, mode)) != 0 && (mode.bits() & STICKY) == 0) {
            throw new UnsafeFileException("The directory " + dir + " is writable by other users (mode "
                    + String.format("%04o", mode.bits() & 07777) + "), who could replace the files in it; run chmod go-w "
                    + dir + " or use a directory of your own.", null);
        }
    }

    /**
     * Writes {@code content} to {@code file} as a private file, replacing it atomically (a temporary
     * file in the same directory, then a rename), so a reader never sees half of it.
     */
    public static void write(Path file, byte[] content) throws UnsafeFileException {
        Path abs = file.toAbsolutePath().normalize();
        Path dir = directory(abs.getParent());
        check(abs);
        Path tmp = null;
        try {
            try {
                tmp = Files.createTempFile(dir, "." + abs.getFileName(), ".tmp", PosixFilePermissions.asFileAttribute(FILE_MODE));
            } catch (UnsupportedOperationException noPosix) {
                tmp = Files.createTempFile(dir, "." + abs.getFileName(), ".tmp");
            }
            Files.write(tmp, content);
            try {
                Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING);
            }
            tmp = null;
        } catch (IOException e) {
            throw new UnsafeFileException("Cannot write " + abs + " (" + reason(e) + "); check the path and its permissions.", e);
        } finally {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // Best effort: a leftover temporary file is private and named as one.
                }
            }
        }
    }

    private record Mode(long uid, int bits) {
    }

    /** The write bits that let someone else in: group and others, or only others where the group is the user's own. */
    private static int writableByOthers(Path path, Mode mode) {
        return (mode.bits() & 0020) != 0 && privateGroup(path) ? OTHER_WRITE : GROUP_OR_OTHER_WRITE;
    }

    /** Whether the path's group is the user's private group: named like the user, listing no other member. */
    static boolean privateGroup(Path path) {
        try {
            String user = System.getProperty("user.name");
            String group = Files.readAttributes(path, PosixFileAttributes.class,
                    LinkOption.NOFOLLOW_LINKS).group().getName();
            if (user == null || !user.equals(group)) {
                return false;
            }
            for (String line : Files.readAllLines(Path.of("/etc/group"))) {
                String[] f = line.split(":", -1);
                if (f.length >= 4 && f[0].equals(group)) {
                    return f[3].isBlank() || f[3].strip().equals(user);
                }
            }
            return false;
        } catch (IOException | RuntimeException unknown) {
            return false;   // when in doubt, the group counts as others
        }
    }

    private static Mode mode(Path path) throws UnsafeFileException {
        try {
            Object uid = Files.getAttribute(path, "unix:uid", LinkOption.NOFOLLOW_LINKS);
            Object bits = Files.getAttribute(path, "unix:mode", LinkOption.NOFOLLOW_LINKS);
            return new Mode(((Number) uid).longValue(), ((Number) bits).intValue());
        } catch (UnsupportedOperationException | IllegalArgumentException noUnixView) {
            return null;
        } catch (NoSuchFileException gone) {
            return null;
        } catch (IOException e) {
            throw new UnsafeFileException("Cannot read the permissions of " + path + " (" + reason(e) + ").", e);
        }
    }

    private static String reason(IOException e) {
        return FileProblems.reason(e);
    }
}
