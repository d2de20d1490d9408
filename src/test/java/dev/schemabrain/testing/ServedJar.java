package dev.schemabrain.testing;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code java [jvmOptions] -jar target/schemabrain.jar --store STORE serve --transport http --port 0} as a
 * child process, for tests whose point is the process itself (its death, its own heap).
 */
public final class ServedJar implements AutoCloseable {

    private static final Pattern LISTENING = Pattern.compile("serving MCP over HTTP at (http://\\S+)/mcp");

    public final Process process;
    /** http://127.0.0.1:PORT, without /mcp */
    public final String url;
    /** The server's log lines so far (the request log only if asked for). */
    public final List<String> stderr;

    private ServedJar(Process process, String url, List<String> stderr) {
        this.process = process;
        this.url = url;
        this.stderr = stderr;
    }

    public static ServedJar start(Path store, Path workDir, Map<String, String> env, List<String> jvmOptions, String... serveArgs)
            throws Exception {
        return start(store, workDir, env, jvmOptions, false, serveArgs);
    }

    /** @param keepRequestLog keep the one-line-per-request log too (a short run that checks it) */
    public static ServedJar start(Path store, Path workDir, Map<String, String> env, List<String> jvmOptions, boolean keepRequestLog,
                           String... serveArgs) throws Exception {
        return start(store.toString(), workDir, env, jvmOptions, keepRequestLog, serveArgs);
    }

    /** As above, on a store named by text: a PostgreSQL store's URL is no path. */
    public static ServedJar start(String store, Path workDir, Map<String, String> env, List<String> jvmOptions, boolean keepRequestLog,
                           String... serveArgs) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.addAll(List.of("-jar", McpStdio.jar().toAbsolutePath().toString(), "--store", store, "serve",
                "--transport", "http", "--port", "0"));
        if (!List.of(serveArgs).contains("--tools")) {
            command.addAll(List.of("--tools", "all"));   // tests drive every tool, not only the default core
        }
        command.addAll(List.of(serveArgs));
        ProcessBuilder pb = new ProcessBuilder(command).directory(workDir.toFile()).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment().putAll(env);
        Process process = pb.start();
        List<String> stderr = new java.util.concurrent.CopyOnWriteArrayList<>();
        CompletableFuture<String> listening = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null; ) {
                    // The request log is one line per request: keep only the rest, or a long run fills the heap.
                    if (keepRequestLog || !line.contains(" request caller=")) {
                        stderr.add(line);
                    }
                    Matcher m = LISTENING.matcher(line);
                    if (m.find()) {
                        listening.complete(m.group(1));
                    }
                }
            } catch (java.io.IOException e) {
                listening.completeExceptionally(e);
            }
            listening.completeExceptionally(new IllegalStateException("serve ended: " + stderr));
        }, "served-jar-stderr");
        reader.setDaemon(true);
        reader.start();
        try {
            return new ServedJar(process, listening.get(120, TimeUnit.SECONDS), stderr);
        } catch (Exception e) {
            process.destroyForcibly();
            throw e;
        }
    }

    /** SIGKILL (Process.destroyForcibly on Linux): no shutdown hook, no flush, no close. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("serve did not die on SIGKILL");
        }
    }

    /** SIGTERM, as an operator stops it; SIGKILL if it has not stopped within 30 s. */
    public void stop() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            kill();
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            try {
                kill();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
