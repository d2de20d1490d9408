package dev.schemabrain.conformance;

import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The pinned npm packages the conformance ITs run, installed once into {@code target/conformance}: Node 22
 * (the conformance suite needs it; machines have Node 20 and its npm), the MCP conformance suite and the
 * TypeScript MCP SDK. npm's own cache makes a reinstall after {@code mvn clean} cheap.
 */
final class NodeToolchain {

    /** Node's binary package for this machine (x64 or arm64 Linux). */
    private static final String NODE_PACKAGE = "node-linux-" + ("aarch64".equals(System.getProperty("os.arch")) ? "arm64" : "x64");

    static final String NEXT_SUITE = "conformance-2026-07-28";

    static final Map<String, String> PACKAGES = Map.of(
            NODE_PACKAGE, "22.23.3",
            "@modelcontextprotocol/conformance", "0.1.16",
            "@modelcontextprotocol/sdk", "1.32.2",
            "@modelcontextprotocol/client", "2.4.0",
            // The suite's 2026-07-28 release beside 0.1.16, under another name (npm's alias) so both install.
            NEXT_SUITE, "0.2.0-alpha.12");

    /** What each aliased package really is, for npm install's NAME@npm:PACKAGE@VERSION. */
    private static final Map<String, String> ALIASES = Map.of(NEXT_SUITE, "@modelcontextprotocol/conformance");

    static final Path DIR = Path.of("target", "conformance").toAbsolutePath();

    private static boolean ready;

    private NodeToolchain() {
    }

    /** Installs the pinned packages unless each is already there at its pinned version. */
    static synchronized void install() throws IOException, InterruptedException {
        if (ready || installed()) {
            ready = true;
            return;
        }
        Files.createDirectories(DIR);
        List<String> command = new ArrayList<>(List.of("npm", "install", "--no-audit", "--no-fund", "--save-exact",
                "--prefix", DIR.toString()));
        PACKAGES.forEach((name, version) -> command.add(ALIASES.containsKey(name)
                ? name + "@npm:" + ALIASES.get(name) + "@" + version : name + "@" + version));
        Path log = DIR.resolve("npm-install.log");
        Process npm;
        try {
            npm = new ProcessBuilder(command).directory(DIR.toFile()).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).start();
        } catch (IOException e) {
            throw new AssertionError("npm is not installed; install Node.js 20+ with npm (.ci/run does), then rerun.", e);
        }
        if (!npm.waitFor(10, TimeUnit.MINUTES) || npm.exitValue() != 0 || !installed()) {
            npm.destroyForcibly();
            throw new AssertionError("npm could not install " + PACKAGES + " into " + DIR
                    + " (it needs the npm registry); its output:\n" + Files.readString(log, StandardCharsets.UTF_8));
        }
        ready = true;
    }

    /** Node 22 from the node-linux-* package. */
    static Path node() {
        return DIR.resolve("node_modules").resolve(NODE_PACKAGE).resolve("bin/node");
    }

    /** The conformance suite's command line entry point. */
    static Path conformance() {
        return DIR.resolve("node_modules/@modelcontextprotocol/conformance/dist/index.js");
    }

    /** The 2026-07-28 release of the suite's command line entry point. */
    static Path nextConformance() {
        return DIR.resolve("node_modules").resolve(NEXT_SUITE).resolve("dist/index.js");
    }

    private static boolean installed() throws IOException {
        if (!Files.isExecutable(node())) {
            return false;
        }
        for (Map.Entry<String, String> p : PACKAGES.entrySet()) {
            Path manifest = DIR.resolve("node_modules").resolve(p.getKey()).resolve("package.json");
            if (!Files.exists(manifest)
                    || !p.getValue().equals(new ObjectMapper().readTree(manifest.toFile()).path("version").asText())) {
                return false;
            }
        }
        return true;
    }

    /** Runs Node 22 in {@link #DIR}; returns its exit code, stdout and stderr. */
    static Run run(List<String> args, long timeoutSeconds) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(node().toString());
        command.addAll(args);
        Path out = Files.createTempFile(DIR, "node", ".out");
        Path err = Files.createTempFile(DIR, "node", ".err");
        try {
            Process p = new ProcessBuilder(command).directory(DIR.toFile())
                    .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError(String.join(" ", command) + " did not finish within " + timeoutSeconds + " s: "
                        + Files.readString(err, StandardCharsets.UTF_8));
            }
            return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    record Run(int exitCode, String stdout, String stderr) {
    }
}
