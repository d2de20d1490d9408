package dev.schemabrain.embed;

import dev.schemabrain.error.EmbeddingException;
import ai.djl.huggingface.tokenizers.jni.LibUtils;
import ai.onnxruntime.OrtEnvironment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;

/**
 * Loads the two native libraries behind the model (onnxruntime, and the Rust tokenizer of DJL) without their
 * side effects. Left to themselves:
 * <ul>
 *   <li>onnxruntime copies 17 MB of libraries into a fresh {@code /tmp/onnxruntime-java*} directory per run and
 *       only asks for deletion at exit, directory first, so an empty directory stays behind after every run
 *       (and the libraries too if the JVM is killed);</li>
 *   <li>DJL keeps a 14 MB copy of its tokenizer library in {@code ~/.djl.ai} (or {@code java.io.tmpdir/.djl.ai},
 *       shared by all users, when the home directory is not writable);</li>
 *   <li>DJL "calls home" when a tokenizer is created: an HTTP request to the EC2 metadata address and, on EC2,
 *       to its telemetry bucket; and it may download a CUDA build of the tokenizer.</li>
 * </ul>
 * Instead, on Linux and macOS, both libraries are copied from the class path into one private temporary
 * directory, loaded from there through the libraries' own override settings ({@code onnxruntime.native.path},
 * {@code RUST_LIBRARY_PATH}) and deleted at once: a loaded library needs no file. Settings the user made win,
 * and elsewhere (Windows) the libraries' own loading applies.
 */
final class NativeLibs {

    private static final Logger log = LoggerFactory.getLogger(NativeLibs.class);

    private static final String ORT_PATH = "onnxruntime.native.path";
    private static final String RUST_PATH = "RUST_LIBRARY_PATH";
    private static final String JNA_TMPDIR = "jna.tmpdir";

    private static boolean loaded;

    private NativeLibs() {
    }

    /** Loads both libraries once per JVM; later calls return at once. */
    static synchronized void load() throws EmbeddingException {
        if (loaded) {
            return;
        }
        // No network: DJL's telemetry and downloads. Environment variables of the same names still win.
        setIfAbsent("OPT_OUT_TRACKING", "true");
        setIfAbsent("ai.djl.offline", "true");
        Path dir = null;
        try {
            Platform platform = Platform.current();
            if (platform != null) {
                dir = Files.createTempDirectory("schemabrain-native"); // owner-only on POSIX
            }
            loadOnnxRuntime(platform, dir);
            loadTokenizer(platform, dir);
            loaded = true;
        } catch (IOException e) {
            throw new EmbeddingException("Cannot copy the embedding model's native libraries to "
                    + System.getProperty("java.io.tmpdir") + " (" + e.getMessage() + "); set -Djava.io.tmpdir to a writable directory.", e);
        } finally {
            deleteQuietly(dir);
        }
    }

    private static void loadOnnxRuntime(Platform platform, Path dir) throws IOException, EmbeddingException {
        boolean own = platform != null && !isSet(ORT_PATH)
                && copyAll(List.of(platform.ortLibrary("onnxruntime"), platform.ortLibrary("onnxruntime4j_jni")), dir);
        try {
            withProperties(own ? Map.of(ORT_PATH, dir.toString()) : Map.of(), OrtEnvironment::getEnvironment);
        } catch (RuntimeException | LinkageError e) {
            throw new EmbeddingException("Cannot load the onnxruntime native library (" + rootMessage(e)
                    + "); check that java.io.tmpdir is writable and not mounted noexec.", e);
        }
    }

    private static void loadTokenizer(Platform platform, Path dir) throws IOException, EmbeddingException {
        Map<String, String> properties = new HashMap<>();
        boolean userChoice = isSet(RUST_PATH) || isSet("DJL_CACHE_DIR") || isSet("ENGINE_CACHE_DIR");
        if (platform != null && !userChoice && copyAll(List.of(platform.tokenizerLibrary()), dir)) {
            // The file, not the directory: DJL 0.36 fails on a directory when no GPU is present (null CUDA arch).
            properties.put(RUST_PATH, dir.resolve(System.mapLibraryName("tokenizers")).toString());
        }
        if (dir != null && !isSet(JNA_TMPDIR)) {
            // DJL probes for CUDA through JNA when JNA is on the class path (the MariaDB driver brings it);
            // JNA unpacks its own library to ~/.cache/JNA/temp and leaves that directory behind.
            properties.put(JNA_TMPDIR, dir.toString());
        }
        try {
            withProperties(properties, LibUtils::checkStatus);
        } catch (RuntimeException | LinkageError e) {
            throw new EmbeddingException("Cannot load the tokenizer native library (" + rootMessage(e)
                    + "); check that java.io.tmpdir is writable and not mounted noexec.", e);
        }
    }

    /** Runs {@code action} with the system properties set, then clears them: the files they name go away next. */
    private static void withProperties(Map<String, String> properties, Runnable action) {
        properties.forEach(System::setProperty);
        try {
            action.run();
        } finally {
            properties.keySet().forEach(System::clearProperty);
        }
    }

    /** Copies class path resources into {@code dir}, or returns false (and copies nothing) if one is missing. */
    private static boolean copyAll(List<String> resources, Path dir) throws IOException {
        for (String resource : resources) {
            if (NativeLibs.class.getResource(resource) == null) {
                log.debug("{} is not on the class path; the library loads itself", resource);
                return false;
            }
        }
        for (String resource : resources) {
            try (InputStream in = NativeLibs.class.getResourceAsStream(resource)) {
                Files.copy(in, dir.resolve(resource.substring(resource.lastIndexOf('/') + 1)));
            }
        }
        return true;
    }

    private static void deleteQuietly(Path dir) {
        if (dir == null) {
            return;
        }
        try (var files = Files.list(dir)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                if (!file.toFile().delete()) {
                    file.toFile().deleteOnExit(); // Windows keeps loaded DLLs
                }
            }
        } catch (IOException e) {
            log.debug("cannot list {}: {}", dir, e.toString());
        }
        if (!dir.toFile().delete()) {
            // Registered after the files, so deleted after them at exit.
            dir.toFile().deleteOnExit();
        }
    }

    private static boolean isSet(String name) {
        return System.getenv(name) != null || System.getProperty(name) != null;
    }

    private static void setIfAbsent(String property, String value) {
        if (System.getProperty(property) == null) {
            System.setProperty(property, value);
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
    }

    /** Where the two jars keep their libraries for this OS and CPU; null where we leave loading to them. */
    record Platform(String os, String ortArch, String djlArch) {

        static Platform current() {
            String name = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
            String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
            String os = name.startsWith("linux") ? "linux" : name.startsWith("mac") || name.startsWith("darwin") ? "osx" : null;
            if (os == null) {
                return null;
            }
            return switch (arch) {
                case "amd64", "x86_64" -> new Platform(os, "x64", "x86_64");
                case "aarch64", "arm64" -> new Platform(os, "aarch64", "aarch64");
                default -> null;
            };
        }

        String ortLibrary(String name) {
            return "/ai/onnxruntime/native/" + os + "-" + ortArch + "/" + System.mapLibraryName(name).replace(".jnilib", ".dylib");
        }

        String tokenizerLibrary() {
            return "/native/lib/" + os + "-" + djlArch + "/cpu/" + System.mapLibraryName("tokenizers");
        }
    }
}
