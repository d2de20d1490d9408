package dev.schemabrain.cli;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemabrain.testing.InProcessCli;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code init} against a temporary home per client: merge, backup, idempotence, refusals. */
class InitCommandTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path home;
    @TempDir
    Path work;

    Path jar;
    Path store;
    Map<String, String> env;

    @BeforeEach
    void setUp() throws Exception {
        jar = Files.writeString(work.resolve("schemabrain.jar"), "a jar");
        store = work.resolve("s.db");
        env = new HashMap<>(Map.of("HOME", home.toString(), "DB", "sqlite:" + work.resolve("app.sqlite")));
    }

    private InProcessCli.Result init(String... extra) {
        List<String> args = new ArrayList<>(List.of("init", "--store", store.toString(), "--jar", jar.toString()));
        args.addAll(List.of(extra));
        return InProcessCli.run(env, args.toArray(String[]::new));
    }

    private Path config(McpClient client) {
        return client.configFile(home, Map.of(), "Linux");
    }

    private List<Path> backups(Path file) throws Exception {
        try (Stream<Path> files = Files.list(file.getParent())) {
            return files.filter(p -> p.getFileName().toString().startsWith(file.getFileName() + ".bak-")).toList();
        }
    }

    @ParameterizedTest
    @EnumSource(McpClient.class)
    void mergesKeepingOtherServersBacksUpAndASecondRunChangesNothing(McpClient client) throws Exception {
        Path file = config(client);
        Files.createDirectories(file.getParent());
        String original = "{\"theme\": \"dark\", \"" + client.serversKey + "\": {\"other\": {\"command\": \"node\","
                + " \"args\": [\"x.js\"]}}, \"n\": 1.10}";
        Files.writeString(file, original);

        InProcessCli.Result r = init("--client", client.id, "--url-env", "DB");
        assertEquals(0, r.exitCode(), r.stderr());
        JsonNode root = JSON.readTree(file.toFile());
        assertEquals("dark", root.path("theme").asText(), "other keys stay");
        assertTrue(Files.readString(file).contains("\"n\" : 1.10"), "numbers are kept as written");
        assertEquals("node", root.path(client.serversKey).path("other").path("command").asText(), "other servers stay");
        JsonNode entry = root.path(client.serversKey).path("schemabrain");
        assertTrue(Path.of(entry.path("command").asText()).isAbsolute(), entry.toString());
        List<String> args = new ArrayList<>();
        entry.path("args").forEach(a -> args.add(a.asText()));
        assertEquals(jar.toString(), args.get(args.indexOf("-jar") + 1));
        assertEquals(store.toString(), args.get(args.indexOf("--store") + 1));
        assertEquals(List.of("serve", "--url-env", "DB"), args.subList(args.size() - 3, args.size()));
        assertEquals(env.get("DB"), entry.path("env").path("DB").asText(), "a URL without a secret goes in the env block");
        assertTrue(args.get(0).startsWith("-XX:ErrorFile=" + home.resolve(".local/state/schemabrain")), args.get(0));

        List<Path> backups = backups(file);
        assertEquals(1, backups.size(), r.stdout());
        assertEquals(original, Files.readString(backups.get(0)));
        assertTrue(r.stdout().contains(backups.get(0).toString()), r.stdout());

        byte[] after = Files.readAllBytes(file);
        InProcessCli.Result again = init("--client", client.id, "--url-env", "DB");
        assertEquals(0, again.exitCode(), again.stderr());
        assertTrue(again.stdout().contains("nothing changed"), again.stdout());
        assertArrayEquals(after, Files.readAllBytes(file));
        assertEquals(1, backups(file).size(), "no backup for a run that changes nothing");
    }

    @ParameterizedTest
    @EnumSource(McpClient.class)
    void malformedJsonIsRefusedWithoutWriting(McpClient client) throws Exception {
        Path file = config(client);
        Files.createDirectories(file.getParent());
        String broken = "{\"" + client.serversKey + "\": {\"other\": {\"command\": \"node\",}} // edited by hand\n";
        Files.writeString(file, broken);
        InProcessCli.Result r = init("--client", client.id, "--url-env", "DB");
        assertEquals(2, r.exitCode());
        assertTrue(r.stderr().startsWith("schemabrain: " + file + " is not valid JSON"), r.stderr());
        assertEquals(1, r.stderr().lines().count(), r.stderr());
        assertEquals(broken, Files.readString(file));
        assertTrue(backups(file).isEmpty());
    }

    @Test
    void aVsCodeFileWithCommentsAndTrailingCommasKeepsThemAndASecondRunChangesNothing() throws Exception {
        Path file = config(McpClient.VSCODE);
        Files.createDirectories(file.getParent());
        // As VS Code writes it: tabs, comments above and inside "servers", trailing commas.
        String original = """
                // Servers for every workspace; see https://code.visualstudio.com/docs/copilot/chat/mcp-servers
                {
                	/* inputs prompt once and are stored by VS Code */
                	"inputs": [
                		{ "type": "promptString", "id": "gh-token", "description": "GitHub token", "password": true, },
                	],
                	"servers": {
                		// the GitHub server, from the gallery
                		"github": {
                			"type": "http",
                			"url": "https://api.githubcopilot.com/mcp/", // remote
                		},
                		/* trailing note inside servers */
                	},
                }
                """;
        Files.writeString(file, original);

        InProcessCli.Result r = init("--client", "vscode", "--url-env", "DB");
        assertEquals(0, r.exitCode(), r.stderr());
        String after = Files.readString(file);
        for (String kept : List.of("// Servers for every workspace; see https://code.visualstudio.com/docs/copilot/chat/mcp-servers",
                "/* inputs prompt once and are stored by VS Code */", "// the GitHub server, from the gallery",
                "\"url\": \"https://api.githubcopilot.com/mcp/\", // remote", "/* trailing note inside servers */",
                "\"password\": true, },")) {
            assertTrue(after.contains(kept), kept + " is gone:\n" + after);
        }
        ObjectMapper jsonc = new ObjectMapper()
                .enable(JsonReadFeature.ALLOW_JAVA_COMMENTS.mappedFeature())
                .enable(JsonReadFeature.ALLOW_TRAILING_COMMA.mappedFeature());
        JsonNode root = jsonc.readTree(after);
        assertEquals("https://api.githubcopilot.com/mcp/", root.path("servers").path("github").path("url").asText());
        assertEquals("gh-token", root.path("inputs").path(0).path("id").asText());
        JsonNode entry = root.path("servers").path("schemabrain");
        assertEquals("stdio", entry.path("type").asText(), after);
        assertEquals(env.get("DB"), entry.path("env").path("DB").asText());
        // Only our entry was added: removing it gives back the original text.
        assertEquals(original, after.replaceFirst("(?s),\n\t\t\"schemabrain\": \\{.*?\n\t\t}", ""), after);
        List<Path> backups = backups(file);
        assertEquals(1, backups.size());
        assertEquals(original, Files.readString(backups.get(0)));

        InProcessCli.Result again = init("--client", "vscode", "--url-env", "DB");
        assertEquals(0, again.exitCode(), again.stderr());
        assertTrue(again.stdout().contains("nothing changed"), again.stdout());
        assertEquals(after, Files.readString(file));
        assertEquals(1, backups(file).size());

        // A changed entry is replaced in place, the comments still around it.
        InProcessCli.Result moved = init("--client", "vscode", "--url-env", "DB", "--name", "schemabrain");
        assertEquals(0, moved.exitCode());
        env.put("DB", "sqlite:" + work.resolve("other.sqlite"));
        assertEquals(0, init("--client", "vscode", "--url-env", "DB").exitCode());
        String changed = Files.readString(file);
        assertEquals(env.get("DB"), jsonc.readTree(changed).path("servers").path("schemabrain").path("env").path("DB").asText());
        assertEquals(1, changed.split("\"schemabrain\":", -1).length - 1, changed);
        assertTrue(changed.contains("/* trailing note inside servers */") && changed.contains("// remote"), changed);
    }

    @Test
    void aVsCodeFileWithCommentsButNoServersGetsThemAndCursorStillRefusesComments() throws Exception {
        Path file = config(McpClient.VSCODE);
        Files.createDirectories(file.getParent());
        Files.writeString(file, "{\n  // nothing yet\n}\n");
        assertEquals(0, init("--client", "vscode").exitCode());
        String after = Files.readString(file);
        assertTrue(after.contains("// nothing yet"), after);
        ObjectMapper jsonc = new ObjectMapper()
                .enable(JsonReadFeature.ALLOW_JAVA_COMMENTS.mappedFeature());
        assertEquals("stdio", jsonc.readTree(after).path("servers").path("schemabrain").path("type").asText(), after);

        Path cursor = config(McpClient.CURSOR);
        Files.createDirectories(cursor.getParent());
        Files.writeString(cursor, "{\n  // Cursor reads strict JSON\n}\n");
        InProcessCli.Result r = init("--client", "cursor");
        assertEquals(2, r.exitCode());
        assertTrue(r.stderr().contains("is not valid JSON"), r.stderr());
    }

    @Test
    void createsAMissingFileAndAllFindsOnlyInstalledClients() throws Exception {
        Files.createDirectories(home.resolve(".cursor"));
        Files.createDirectories(home.resolve(".codeium/windsurf"));
        InProcessCli.Result r = init("--url-env", "DB");
        assertEquals(0, r.exitCode(), r.stderr());
        assertTrue(Files.exists(config(McpClient.CURSOR)) && Files.exists(config(McpClient.WINDSURF)), r.stdout());
        assertFalse(Files.exists(config(McpClient.CLAUDE_CODE)) || Files.exists(config(McpClient.VSCODE)), r.stdout());
        assertTrue(r.stdout().contains("created " + config(McpClient.CURSOR)), r.stdout());
    }

    @Test
    void aPasswordNeverReachesTheFileTheClientReadsItsOwnVariable() throws Exception {
        env.put("DB", "postgresql://reader:s3cret-pw@db.internal:5432/app?sslpassword=k3y");
        Files.createDirectories(home.resolve(".cursor"));
        assertEquals(0, init("--client", "cursor", "--url-env", "DB").exitCode());
        assertEquals(0, init("--client", "claude-code", "--url-env", "DB").exitCode());
        String cursor = Files.readString(config(McpClient.CURSOR));
        String claude = Files.readString(config(McpClient.CLAUDE_CODE));
        assertEquals("${env:DB}", JSON.readTree(cursor).path("mcpServers").path("schemabrain").path("env").path("DB").asText());
        assertEquals("${DB}", JSON.readTree(claude).path("mcpServers").path("schemabrain").path("env").path("DB").asText());
        // A query parameter outside the display allow-list may be a secret too.
        env.put("DB", "postgresql://reader@db.internal:5432/app?sslpassword=k3y");
        assertEquals(0, init("--client", "cursor", "--url-env", "DB").exitCode());
        InProcessCli.Result desktop = init("--client", "claude-desktop", "--url-env", "DB");
        assertEquals(2, desktop.exitCode());
        assertTrue(desktop.stderr().contains("Claude Desktop cannot read environment variables"), desktop.stderr());
        for (Path p : List.of(config(McpClient.CURSOR), config(McpClient.CLAUDE_CODE))) {
            String text = Files.readString(p);
            assertFalse(text.contains("s3cret") || text.contains("k3y"), text);
        }
        assertFalse(Files.exists(config(McpClient.CLAUDE_DESKTOP)));
    }

    @Test
    void allWritesEveryClientThatTakesAReferenceAndSaysWhyClaudeDesktopWasSkipped() throws Exception {
        env.put("DB", "postgresql://reader:s3cret-pw@db.internal:5432/app");
        Files.createDirectories(config(McpClient.CLAUDE_DESKTOP).getParent());
        Files.createDirectories(home.resolve(".cursor"));
        InProcessCli.Result r = init("--url-env", "DB");
        assertEquals(0, r.exitCode(), r.stderr());
        assertEquals("${env:DB}", JSON.readTree(config(McpClient.CURSOR).toFile())
                .path("mcpServers").path("schemabrain").path("env").path("DB").asText());
        assertFalse(Files.exists(config(McpClient.CLAUDE_DESKTOP)));
        List<String> skips = r.stderr().lines().filter(l -> l.contains("skipped")).toList();
        assertEquals(List.of("warning: skipped Claude Desktop, which cannot read environment variables, and DB holds a"
                + " password or secret parameter, or is not set here; export in DB a URL without them (for PostgreSQL,"
                + " keep the password in ~/.pgpass, which the server's driver reads) and run init again, or use a client"
                + " that reads variables: claude-code, cursor, vscode or windsurf."), skips, r.stderr());
        assertTrue(r.stdout().contains("Cursor: created " + config(McpClient.CURSOR)), r.stdout());

        // Over HTTP Claude Desktop is skipped too, and the others are written.
        InProcessCli.Result http = init("--transport", "http", "--url", "https://mcp.example.com/mcp");
        assertEquals(0, http.exitCode(), http.stderr());
        assertTrue(http.stderr().contains("warning: skipped Claude Desktop, which adds remote servers"), http.stderr());
        assertEquals("https://mcp.example.com/mcp", JSON.readTree(config(McpClient.CURSOR).toFile())
                .path("mcpServers").path("schemabrain").path("url").asText());

        // When Claude Desktop is the only client found, nothing can be written: exit 2, one sentence.
        try (Stream<Path> files = Files.list(home.resolve(".cursor"))) {
            for (Path f : files.toList()) {
                Files.delete(f);
            }
        }
        Files.delete(home.resolve(".cursor"));
        InProcessCli.Result only = init("--url-env", "DB");
        assertEquals(2, only.exitCode(), only.stdout());
        assertEquals(1, only.stderr().lines().count(), only.stderr());
        assertTrue(only.stderr().startsWith("schemabrain: Claude Desktop cannot read environment variables"), only.stderr());

        // --print cannot help: its entry holds the same reference. The advice is one that works, never --print.
        InProcessCli.Result printed = init("--client", "claude-desktop", "--print", "--url-env", "DB");
        assertEquals(2, printed.exitCode(), printed.stdout());
        assertEquals("", printed.stdout());
        assertFalse(printed.stderr().contains("--print") || printed.stderr().contains("s3cret"), printed.stderr());
        assertTrue(printed.stderr().contains("~/.pgpass"), printed.stderr());
    }

    @Test
    void aClientSkippedSaysItKeepsTheEntryItHad() throws Exception {
        Files.createDirectories(config(McpClient.CLAUDE_DESKTOP).getParent());
        assertEquals(0, init("--client", "claude-desktop", "--url-env", "DB").exitCode());
        byte[] before = Files.readAllBytes(config(McpClient.CLAUDE_DESKTOP));
        env.put("DB", "postgresql://reader:s3cret-pw@db.internal:5432/app");
        InProcessCli.Result again = init("--client", "claude-desktop", "--url-env", "DB");
        assertEquals(2, again.exitCode(), again.stdout());
        assertEquals(1, again.stderr().lines().count(), again.stderr());
        assertTrue(again.stderr().strip().endsWith("; until then its 'schemabrain' entry in " + config(McpClient.CLAUDE_DESKTOP)
                + " is left unchanged, and Claude Desktop still starts the server it describes."), again.stderr());
        assertFalse(again.stderr().contains("s3cret"), again.stderr());
        assertArrayEquals(before, Files.readAllBytes(config(McpClient.CLAUDE_DESKTOP)));
    }

    @Test
    void aSecondInitWithAnotherSourceSaysItReplacedTheEntry() throws Exception {
        Files.createDirectories(config(McpClient.CLAUDE_DESKTOP).getParent());
        assertEquals(0, init("--client", "claude-desktop", "--url-env", "DB").exitCode());
        env.put("DB", "sqlite:" + work.resolve("other.sqlite"));
        InProcessCli.Result again = init("--client", "claude-desktop", "--url-env", "DB");
        assertEquals(0, again.exitCode(), again.stderr());
        assertTrue(again.stdout().startsWith("Claude Desktop: replaced the 'schemabrain' entry in "
                + config(McpClient.CLAUDE_DESKTOP) + " (the previous file is "), again.stdout());
        assertEquals("sqlite:" + work.resolve("other.sqlite"), JSON.readTree(config(McpClient.CLAUDE_DESKTOP).toFile())
                .path("mcpServers").path("schemabrain").path("env").path("DB").asText());
    }

    @Test
    void printWritesNothing() throws Exception {
        InProcessCli.Result r = init("--print", "--url-env", "DB");
        assertEquals(0, r.exitCode(), r.stderr());
        try (Stream<Path> files = Files.walk(home)) {
            assertEquals(1, files.count(), "the home stays empty");
        }
        assertTrue(r.stdout().contains("\"mcpServers\""), r.stdout());
        assertTrue(r.stdout().contains("claude mcp add --scope user -e 'DB=${DB}' schemabrain -- "), r.stdout());
        InProcessCli.Result vscode = init("--print", "--client", "vscode");
        assertTrue(vscode.stdout().contains("\"servers\"") && vscode.stdout().contains("\"type\" : \"stdio\""), vscode.stdout());
    }

    @Test
    void httpEntriesCarryTheUrlAndAnAuthorizationReference() throws Exception {
        String url = "https://mcp.example.com/mcp";
        assertEquals(0, init("--client", "vscode", "--transport", "http", "--url", url).exitCode());
        assertEquals(0, init("--client", "windsurf", "--transport", "http", "--url", url, "--token-env", "SB_TOKEN").exitCode());
        JsonNode vscode = JSON.readTree(config(McpClient.VSCODE).toFile()).path("servers").path("schemabrain");
        assertEquals("http", vscode.path("type").asText());
        assertEquals(url, vscode.path("url").asText());
        assertEquals("Bearer ${env:SCHEMABRAIN_TOKEN}", vscode.path("headers").path("Authorization").asText());
        JsonNode windsurf = JSON.readTree(config(McpClient.WINDSURF).toFile()).path("mcpServers").path("schemabrain");
        assertEquals(url, windsurf.path("serverUrl").asText());
        assertEquals("Bearer ${env:SB_TOKEN}", windsurf.path("headers").path("Authorization").asText());
        InProcessCli.Result desktop = init("--client", "claude-desktop", "--transport", "http", "--url", url);
        assertEquals(2, desktop.exitCode());
        assertTrue(desktop.stderr().contains("Connectors"), desktop.stderr());
    }

    @Test
    void aServerWithoutAuthenticationGetsNoAuthorizationHeader() throws Exception {
        InProcessCli.Result r = init("--client", "cursor", "--transport", "http", "--url", "http://127.0.0.1:8080/mcp", "--no-token");
        assertEquals(0, r.exitCode(), r.stderr());
        JsonNode cursor = JSON.readTree(config(McpClient.CURSOR).toFile()).path("mcpServers").path("schemabrain");
        assertEquals("http://127.0.0.1:8080/mcp", cursor.path("url").asText());
        assertTrue(cursor.path("headers").isMissingNode(), cursor.toString());
        assertFalse(r.stdout().contains("SCHEMABRAIN_TOKEN"), "no token to export: " + r.stdout());
    }

    @Test
    void hostileValuesAreRefusedInOneSentence() throws Exception {
        String[][] cases = {
                {"--client", "cursor", "--url-env", "DB\"}, \"evil\": {\"command\": \"sh"},
                {"--client", "cursor", "--name", "schemabrain\n\"x"},
                {"--client", "cursor", "--transport", "http", "--url", "https://user:pw@mcp.example.com/mcp"},
                {"--client", "cursor", "--transport", "http", "--url", "javascript:alert(1)"},
                {"--client", "cursor", "--transport", "http", "--url", "https://mcp.example.com/mcp\r\nX-Evil: 1"},
                {"--client", "notepad"},
                {"--client", "cursor", "--url-env", "X".repeat(100_000)}};
        for (String[] c : cases) {
            InProcessCli.Result r = init(c);
            assertEquals(2, r.exitCode(), String.join(" ", c) + r.stdout());
            assertEquals(1, r.stderr().lines().count(), r.stderr());
            assertTrue(r.stderr().startsWith("schemabrain: ") && r.stderr().strip().endsWith("."), r.stderr());
            assertFalse(r.stderr().contains("pw@") || r.stderr().contains("X-Evil") || r.stderr().length() > 400, r.stderr());
        }
        try (Stream<Path> files = Files.walk(home)) {
            assertEquals(1, files.count(), "nothing was written");
        }
    }

    @Test
    void aStoreDirectoryThatDoesNotExistIsRefused() {
        store = work.resolve("no-such-dir/s.db");
        InProcessCli.Result r = init("--client", "cursor");
        assertEquals(2, r.exitCode());
        assertTrue(r.stderr().contains(work.resolve("no-such-dir") + " does not exist"), r.stderr());
    }
}
