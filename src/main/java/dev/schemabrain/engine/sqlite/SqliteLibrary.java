package dev.schemabrain.engine.sqlite;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sqlite.SQLiteJDBCLoader;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/**
 * Loads sqlite-jdbc's native library faster than the driver does: left to itself, at the first connection of every
 * process it copies the library out of the jar under a random name, then compares the copy with the jar entry a byte
 * at a time through a buffered stream (about 60 ms of a server's start before the JIT has compiled anything, most of
 * the store's open). Here the library is copied once into a private temporary directory, loaded through the driver's
 * own override settings ({@code org.sqlite.lib.path}, {@code org.sqlite.lib.name}) and deleted at once, as
 * {@code embed.NativeLibs} does for onnxruntime. Settings the user made win; on a platform this does not recognise
 * (musl, Windows, other architectures) or on any failure the driver loads the library itself.
 */
public final class SqliteLibrary {

    private static final Logger log = LoggerFactory.getLogger(SqliteLibrary.class);
    private static final String PATH = "org.sqlite.lib.path";
    private static final String NAME = "org.sqlite.lib.name";

    private static boolean tried;

    private SqliteLibrary() {
    }

    /** Loads the library once per JVM before the first connection; later calls return at once. */
    public static synchronized void load() {
        if (tried) {
            return;
        }
        tried = true;
        if (System.getProperty(PATH) != null || System.getProperty(NAME) != null) {
            return;
        }
        Optional<String> resource = resource();
        if (resource.isEmpty() || SqliteLibrary.class.getResource(resource.get()) == null) {
            return;
        }
        String name = resource.get().substring(resource.get().lastIndexOf('/') + 1);
        Path dir = null;
        try {
            dir = Files.createTempDirectory("schemabrain-sqlite"); // owner-only on POSIX
            // A signal during the copy or the load ends the JVM before the finally below: the exit deletes them then
            // (the later registered first, so the file before its directory).
            dir.toFile().deleteOnExit();
            dir.resolve(name).toFile().deleteOnExit();
            try (InputStream in = SqliteLibrary.class.getResourceAsStream(resource.get())) {
                Files.copy(in, dir.resolve(name));
            }
            System.setProperty(PATH, dir.toString());
            System.setProperty(NAME, name);
            try {
                SQLiteJDBCLoader.initialize();
            } finally {
                System.clearProperty(PATH);
                System.clearProperty(NAME);
            }
        } catch (Exception | LinkageError e) {
            log.debug("loading the SQLite library ahead failed ({}); the driver loads it itself", e.toString());
        } finally {
            delete(dir, name);
        }
    }

    /** The library's place in sqlite-jdbc's jar for this platform, when it is one the driver lays out plainly. */
    static Optional<String> resource() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = switch (System.getProperty("os.arch", "").toLowerCase(Locale.ROOT)) {
            case "amd64", "x86_64" -> "x86_64";
            case "aarch64", "arm64" -> "aarch64";
            default -> null;
        };
        if (arch == null) {
            return Optional.empty();
        }
        if (os.startsWith("linux")) {
            // Alpine and other musl systems take the driver's Linux-Musl build, and Android its own: left to it.
            boolean musl = Files.exists(Path.of("/lib/ld-musl-" + arch + ".so.1"));
            boolean android = System.getProperty("java.vm.vendor", "").toLowerCase(Locale.ROOT).contains("android");
            return musl || android ? Optional.empty()
                    : Optional.of("/org/sqlite/native/Linux/" + arch + "/libsqlitejdbc.so");
        }
        if (os.startsWith("mac")) {
            return Optional.of("/org/sqlite/native/Mac/" + arch + "/libsqlitejdbc.dylib");
        }
        return Optional.empty();
    }

    private static void delete(Path dir, String name) {
        if (dir == null) {
            return;
        }
        try {
            Files.deleteIfExists(dir.resolve(name));   // a loaded library needs no file
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            dir.toFile().deleteOnExit();
        }
    }
}
