package dev.schemabrain.cli;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The MCP clients {@code init} configures: where each keeps its user-level configuration, the key its servers
 * sit under, how an entry is written, and how a value refers to an environment variable of the client.
 */
enum McpClient {

    CLAUDE_DESKTOP("claude-desktop", "Claude Desktop", "mcpServers", null),
    CLAUDE_CODE("claude-code", "Claude Code", "mcpServers", "${%s}"),
    CURSOR("cursor", "Cursor", "mcpServers", "${env:%s}"),
    VSCODE("vscode", "VS Code", "servers", "${env:%s}"),
    WINDSURF("windsurf", "Windsurf", "mcpServers", "${env:%s}");

    final String id;
    final String title;
    /** The object of the configuration file that maps server names to entries. */
    final String serversKey;
    /** How a value names the client's environment variable, or null when the client cannot (Claude Desktop). */
    private final String reference;

    McpClient(String id, String title, String serversKey, String reference) {
        this.id = id;
        this.title = title;
        this.serversKey = serversKey;
        this.reference = reference;
    }

    static Optional<McpClient> byId(String id) {
        for (McpClient c : values()) {
            if (c.id.equals(id)) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }

    boolean readsEnvironment() {
        return reference != null;
    }

    /** A value the client replaces with its environment variable {@code var} when it starts the server. */
    String reference(String var) {
        return String.format(Locale.ROOT, reference, var);
    }

    /** The user-level configuration file on this machine's platform. */
    Path configFile(Path home, Map<String, String> env) {
        return configFile(home, env, System.getProperty("os.name", "linux"));
    }

    /**
     * The user-level configuration file, under {@code home} (macOS and Windows in their application-data
     * directories, Linux under XDG_CONFIG_HOME for the Electron apps).
     */
    Path configFile(Path home, Map<String, String> env, String osName) {
        String os = osName.toLowerCase(Locale.ROOT);
        boolean mac = os.contains("mac");
        boolean windows = os.contains("win");
        Path appData = mac ? home.resolve("Library/Application Support")
                : windows ? Optional.ofNullable(env.get("APPDATA")).map(Path::of).orElse(home.resolve("AppData/Roaming"))
                : Optional.ofNullable(env.get("XDG_CONFIG_HOME")).filter(s -> !s.isBlank()).map(Path::of)
                .orElse(home.resolve(".config"));
        return switch (this) {
            case CLAUDE_DESKTOP -> appData.resolve("Claude").resolve("claude_desktop_config.json");
            case CLAUDE_CODE -> home.resolve(".claude.json");
            case CURSOR -> home.resolve(".cursor").resolve("mcp.json");
            case VSCODE -> appData.resolve("Code").resolve("User").resolve("mcp.json");
            case WINDSURF -> home.resolve(".codeium").resolve("windsurf").resolve("mcp_config.json");
        };
    }

    /** The entry for a server the client starts itself (stdio). */
    ObjectNode stdioEntry(ServerLaunch launch) {
        ObjectNode entry = JsonNodeFactory.instance.objectNode();
        if (this == CLAUDE_CODE || this == VSCODE) {
            entry.put("type", "stdio");
        }
        entry.put("command", launch.java());
        launch.arguments().forEach(entry.putArray("args")::add);
        if (!launch.env().isEmpty()) {
            ObjectNode env = entry.putObject("env");
            launch.env().forEach((var, value) -> env.put(var, value.orElseGet(() -> reference(var))));
        }
        return entry;
    }

    /**
     * The entry for a server over Streamable HTTP, its bearer token read from the client's {@code tokenVar}; no
     * Authorization header when {@code tokenVar} is null (a server without authentication).
     */
    ObjectNode httpEntry(String url, String tokenVar) {
        ObjectNode entry = JsonNodeFactory.instance.objectNode();
        if (this == CLAUDE_CODE || this == VSCODE) {
            entry.put("type", "http");
        }
        entry.put(this == WINDSURF ? "serverUrl" : "url", url);
        if (tokenVar != null) {
            entry.putObject("headers").put("Authorization", "Bearer " + reference(tokenVar));
        }
        return entry;
    }
}
