package dev.schemabrain.cli;

import dev.schemabrain.testing.Cli;
import dev.schemabrain.testing.McpStdio;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The packaged jar and the release archive as an operator meets them: serve's guards and registration, a bare JRE. */
class OnboardingIT {

    @TempDir
    Path dir;

    @Test
    void serveRefusesAStoreWhoseDirectoryIsMissing() throws Exception {
        Cli.Result r = Cli.run(dir, "serve", "--store", dir.resolve("typo/schemabrain.db").toString());
        assertEquals(2, r.exitCode());
        assertEquals("schemabrain: The store's directory " + dir.resolve("typo") + " does not exist; pass --store with the"
                + " file 'schemabrain index' wrote, or create the directory and index into it first.", r.stderr().strip());
        assertFalse(Files.exists(dir.resolve("typo")), "nothing is created");
        assertEquals("", r.stdout());
    }

    @Test
    void serveWithoutAStoreSaysSoAndCreatesNothing() throws Exception {
        Path store = dir.resolve("schemabrain.db");
        StringBuffer stderr = new StringBuffer();
        // HOME and XDG_CONFIG_HOME in dir too: no audit key is generated either.
        var client = McpStdio.client(store, stderr,
                Map.of("HOME", dir.toString(), "XDG_CONFIG_HOME", dir.resolve("config").toString()));
        String answer;
        try {
            answer = McpStdio.call(client, "list_indexed_schemas", Map.of()).content().toString();
        } finally {
            McpStdio.stop(client);
        }
        assertTrue(answer.contains("index_not_ready"), answer);
        assertTrue(stderr.toString().contains("schemabrain: there is no store at " + store + ", so every tool answers"
                + " index_not_ready; run 'schemabrain index --url-env DATABASE_URL --store " + store + "', then start"
                + " serve again."), stderr.toString());
        try (var left = Files.list(dir)) {
            assertEquals(List.of(), left.toList(), "no store, audit log or key is left behind");
        }
    }

    @Test
    void servePrintsTheRegistrationOfExactlyItsInvocationOnStderr() throws Exception {
        Path jar = Path.of(System.getProperty("schemabrain.jar", "target/schemabrain.jar")).toAbsolutePath();
        Cli.Result r = Cli.run(dir, Map.of("DB", "sqlite:" + dir.resolve("app.sqlite"), "HOME", dir.toString()),
                "--store", "s.db", "serve", "--url-env", "DB", "--max-rows-per-result", "50");
        assertEquals(0, r.exitCode(), r.stderr());
        assertEquals("", r.stdout(), "stdout carries only MCP frames");
        Path archive = jar.resolveSibling("schemabrain.jsa");
        String expectedArgs = "-XX:ErrorFile=" + dir.resolve(".local/state/schemabrain/hs_err_pid%p.log")
                + " -XX:-CreateCoredumpOnCrash -Xlog:disable '-Xlog:all=warning,cds*=off:stderr'"
                + (Files.isRegularFile(archive) ? " -XX:SharedArchiveFile=" + archive + " -Xshare:auto" : "")
                + " " + String.join(" ", ServerLaunch.STDIO_SERVER) + " -jar " + jar + " --store " + dir.resolve("s.db")
                + " serve --url-env DB --max-rows-per-result 50";
        assertTrue(r.stderr().contains("claude mcp add --scope user -e 'DB=${DB}' schemabrain -- "
                + ServerLaunch.javaOfThisJvm() + " " + expectedArgs), r.stderr());
        assertTrue(r.stderr().contains("\"env\":{\"DB\":\"${DB}\"}"), r.stderr());

        Cli.Result secret = Cli.run(dir, Map.of("HOME", dir.toString()), "--store", "s.db", "serve",
                "--source", "postgresql://reader:hunter2@127.0.0.1:1/app");
        assertTrue(secret.stderr().contains("--source postgresql://reader@127.0.0.1:1/app"), secret.stderr());
        assertFalse(secret.stderr().contains("hunter2"), secret.stderr());
    }

    @Test
    void theReleaseArchiveRunsOnAJreWithoutMaven() throws Exception {
        Path zip = Path.of("target", "schemabrain-" + System.getProperty("schemabrain.version") + ".zip").toAbsolutePath();
        assertTrue(Files.isRegularFile(zip), "mvn package builds " + zip);
        run(dir, List.of("unzip", "-q", zip.toString(), "-d", dir.toString()), Map.of());
        Path release = dir.resolve("schemabrain-" + System.getProperty("schemabrain.version"));
        for (String file : List.of("schemabrain.jar", "schemabrain", "README.md", "docs/cli.md", "licences/THIRD-PARTY.txt",
                "licences/jackson-databind-jar/META-INF/LICENSE")) {
            assertTrue(Files.isRegularFile(release.resolve(file)), file);
        }
        assertTrue(Files.isExecutable(release.resolve("schemabrain")));
        assertTrue(Files.readString(release.resolve("licences/THIRD-PARTY.txt")).contains("picocli"));
        assertFalse(Files.exists(release.resolve("licences/.markers")), "no build bookkeeping in the archive");
        // A PATH with java and the shell's basic tools only: no mvn, no sources.
        Path bin = Files.createDirectory(dir.resolve("bin"));
        Files.createSymbolicLink(bin.resolve("java"), Path.of(ServerLaunch.javaOfThisJvm()));
        for (String tool : List.of("bash", "dirname", "mkdir", "id", "chmod")) {
            Path found = List.of(Path.of("/usr/bin", tool), Path.of("/bin", tool)).stream().filter(Files::isExecutable)
                    .findFirst().orElseThrow();
            Files.createSymbolicLink(bin.resolve(tool), found);
        }
        String out = run(dir, List.of(release.resolve("schemabrain").toString(), "--version"),
                Map.of("PATH", bin.toString(), "HOME", dir.toString()));
        assertTrue(out.matches("schemabrain " + System.getProperty("schemabrain.version") + " \\(git [\\w.-]+\\)\\s*"), out);
    }

    private static String run(Path dir, List<String> command, Map<String, String> env) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
        if (!env.isEmpty()) {
            pb.environment().clear();
            pb.environment().putAll(env);
        }
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), String.join(" ", command) + ": " + out);
        return out;
    }
}
