package dev.schemabrain.testing;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The benchmark and sample data in the repository's {@code bench/} folder (the surefire property
 * schemabrain.bench points at it; a run from the repository root finds it without the property).
 */
public final class Bench {

    private Bench() {
    }

    public static Path root() {
        Path root = Path.of(System.getProperty("schemabrain.bench", "bench"));
        if (!Files.isDirectory(root)) {
            throw new IllegalStateException("benchmark data not found at " + root.toAbsolutePath()
                    + "; run the tests from the repository root (mvn verify), where bench/ holds it");
        }
        return root;
    }

    public static Path sampleDb(String file) {
        return root().resolve("sampledbs").resolve(file);
    }

    public static Path spiderTables() {
        return root().resolve("spider").resolve("dev_tables.json");
    }
}
