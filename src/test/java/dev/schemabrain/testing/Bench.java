package dev.schemabrain.testing;

import java.nio.file.Files;
import java.nio.file.Path;

/** The shared benchmark data (../shared/bench), located by the surefire property schemabrain.bench. */
public final class Bench {

    private Bench() {
    }

    public static Path root() {
        Path root = Path.of(System.getProperty("schemabrain.bench", "../shared/bench"));
        if (!Files.isDirectory(root)) {
            throw new IllegalStateException("benchmark data not found at " + root.toAbsolutePath()
                    + "; the repository expects ../shared/bench beside it");
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
