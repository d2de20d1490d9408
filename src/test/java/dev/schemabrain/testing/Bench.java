package dev.schemabrain.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The shared benchmark data: ../shared/bench beside the repository (the surefire property
 * schemabrain.bench), else $SCHEMABRAIN_BENCH, else the workspace's /work/shared/bench, so a clone
 * made elsewhere (a CI checkout in a temp directory) still finds it.
 */
public final class Bench {

    private Bench() {
    }

    public static Path root() {
        List<Path> candidates = new ArrayList<>();
        candidates.add(Path.of(System.getProperty("schemabrain.bench", "../shared/bench")));
        Optional.ofNullable(System.getenv("SCHEMABRAIN_BENCH")).ifPresent(v -> candidates.add(Path.of(v)));
        candidates.add(Path.of("/work/shared/bench"));
        return candidates.stream().filter(Files::isDirectory).findFirst().orElseThrow(() -> new IllegalStateException(
                "benchmark data not found at " + candidates.get(0).toAbsolutePath()
                        + "; put it at ../shared/bench beside the repository or set SCHEMABRAIN_BENCH"));
    }

    public static Path sampleDb(String file) {
        return root().resolve("sampledbs").resolve(file);
    }

    public static Path spiderTables() {
        return root().resolve("spider").resolve("dev_tables.json");
    }
}
