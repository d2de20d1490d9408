package dev.schemabrain.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs the packaged jar in a child process, as an operator would. */
public final class Cli {

    public record Result(int exitCode, String stdout, String stderr) {
    }

    private Cli() {
    }

    public static Result run(Path workDir, Map<String, String> env, String... args) throws IOException, InterruptedException {
        String jar = System.getProperty("schemabrain.jar", "target/schemabrain.jar");
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", Path.of(jar).toAbsolutePath().toString()));
        command.addAll(List.of(args));
        Path out = Files.createTempFile("cli", ".out");
        Path err = Files.createTempFile("cli", ".err");
        ProcessBuilder pb = new ProcessBuilder(command).directory(workDir.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.from(nullDevice()));
        pb.environment().putAll(env);
        Process p = pb.start();
        if (!p.waitFor(180, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("schemabrain " + String.join(" ", args) + " did not finish");
        }
        Result r = new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
        Files.deleteIfExists(out);
        Files.deleteIfExists(err);
        return r;
    }

    public static Result run(Path workDir, String... args) throws IOException, InterruptedException {
        return run(workDir, Map.of(), args);
    }

    private static java.io.File nullDevice() {
        return new java.io.File("/dev/null");
    }
}
