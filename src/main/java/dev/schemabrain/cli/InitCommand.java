package dev.schemabrain.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.error.SchemaBrainException;
import dev.schemabrain.error.UserError;
import dev.schemabrain.store.ServedSource;
import dev.schemabrain.store.StoreLocation;
import dev.schemabrain.store.Stores;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;

/** {@code schemabrain init}: registers the server in the MCP clients' configuration files. */
@Command(name = "init", mixinStandardHelpOptions = true, resourceBundle = "dev.schemabrain.cli.InitCommand",
        description = {"Register this server in an MCP client's configuration: Claude Desktop, Claude Code, Cursor, VS Code"
                + " or Windsurf (user-level files; docs/cli.md lists them).",
                "The entry runs the absolute java and jar on the absolute store; each source (--url-env or --source, once"
                        + " for each source of the store) comes from --url-env, named in the entry's env block, or a"
                        + " --source without secrets; never a password. An existing file is backed up (FILE.bak-TIMESTAMP) and"
                        + " merged: other servers stay; a second run changes nothing. A file that is not valid JSON is"
                        + " refused without writing; VS Code's comments and trailing commas are kept. --print writes nothing and prints the entry for any other client."})
final class InitCommand implements Callable<Integer> {

    private static final Pattern VAR = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,63}");
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,63}");

    @ParentCommand
    Main main;

    @Option(names = "--client", defaultValue = "all", paramLabel = "CLIENT", description = "claude-desktop, claude-code,"
            + " cursor, vscode, windsurf, or all: every one of them whose configuration directory exists"
            + " (default: ${DEFAULT-VALUE}).")
    String client;

    /** Worded for init in its resource bundle: what serve is given, once for each source of the store. */
    @picocli.CommandLine.Mixin
    SourceOptions.Several sources;

    @Option(names = "--transport", defaultValue = "stdio", paramLabel = "KIND", description = "stdio: the client starts"
            + " the server (default); http: the client connects to a running 'serve --transport http' at --url.")
    ServeCommand.Transport transport;

    @Option(names = "--url", paramLabel = "URL", description = "HTTP: the server's /mcp address, e.g. https://mcp.example.com/mcp.")
    String url;

    @Option(names = "--token-env", defaultValue = "SCHEMABRAIN_TOKEN", paramLabel = "VAR", description = "HTTP: the client's"
            + " environment variable holding the bearer token; the Authorization header refers to it"
            + " (default: ${DEFAULT-VALUE}).")
    String tokenEnv;

    @Option(names = "--no-token", description = "HTTP: the server asks for no token (no tokens and no --jwt-jwks:"
            + " a loopback-only service), so the entry sends no Authorization header.")
    boolean noToken;

    @Option(names = "--name", defaultValue = "schemabrain", paramLabel = "NAME",
            description = "The server's name in the client (default: ${DEFAULT-VALUE}).")
    String name;

    @Option(names = "--jar", paramLabel = "FILE", description = "The jar the client runs (default: the one running now).")
    Path jar;

    @Option(names = "--print", description = "Print the entry (and the 'claude mcp add' line) instead of writing any file.")
    boolean print;

    @Override
    public Integer call() throws SchemaBrainException {
        checkNames();
        Path home = main.home();
        List<McpClient> clients = clients(home);
        Optional<ServerLaunch> launch = transport == ServeCommand.Transport.stdio ? Optional.of(launch(home)) : Optional.empty();
        if (transport == ServeCommand.Transport.http) {
            checkHttpUrl();
        }
        List<McpClient> shown = print && client.equals("all") ? List.of(McpClient.CLAUDE_CODE) : clients;
        // A client that cannot take this entry is skipped with its reason; the others are still written.
        Map<McpClient, String> skipped = new LinkedHashMap<>();
        for (McpClient c : shown) {
            skipReason(c, launch).ifPresent(reason -> skipped.put(c, c.title + " " + keptEntry(reason, c, home)));
        }
        if (skipped.size() == shown.size()) {
            if (skipped.size() == 1) {
                throw new UserError(skipped.values().iterator().next());
            }
            skipped.values().forEach(reason -> main.err().println("schemabrain: " + reason));
            throw new UserError("None of the clients found can take this entry (each is named above), so nothing was"
                    + " written; follow one of the lines above, or name a client with --client.");
        }
        if (print) {
            print(shown, launch, home);
            return 0;
        }
        Clock clock = Clock.systemUTC();
        for (McpClient c : clients) {
            if (skipped.containsKey(c)) {
                main.err().println("warning: skipped " + c.title + ", which "
                        + keptEntry(skipReason(c, launch).orElseThrow(), c, home));
                continue;
            }
            ObjectNode entry = launch.isPresent() ? c.stdioEntry(launch.get()) : c.httpEntry(url, noToken ? null : tokenEnv);
            ClientConfigFile.Result r = ClientConfigFile.merge(c.configFile(home, main.env), c.serversKey, name,
                    entry, c == McpClient.VSCODE, clock);
            main.out().println(switch (r.outcome()) {
                case UNCHANGED -> c.title + ": " + r.file() + " already has this entry for " + name + "; nothing changed.";
                case CREATED -> c.title + ": created " + r.file() + " with " + name + ".";
                case UPDATED -> c.title + ": added " + name + " to " + r.file() + " (the previous file is " + r.backup() + ").";
                case REPLACED -> c.title + ": replaced the '" + name + "' entry in " + r.file() + " (the previous file is "
                        + r.backup() + ").";
            });
        }
        notes(launch);
        return 0;
    }

    /** Why client {@code c} cannot take this entry, as a predicate of its title, or empty when it can. */
    private Optional<String> skipReason(McpClient c, Optional<ServerLaunch> launch) {
        List<String> references = launch.map(l -> l.env().entrySet().stream().filter(e -> e.getValue().isEmpty())
                .map(Map.Entry::getKey).toList()).orElse(List.of());
        if (!c.readsEnvironment() && !references.isEmpty()) {
            String vars = String.join(" and ", references);
            // --print is no way out: its entry would hold the same reference, which Claude Desktop cannot expand.
            return Optional.of("cannot read environment variables, and " + vars + " holds a password or secret"
                    + " parameter, or is not set here; export in " + vars + " a URL without them (for PostgreSQL, keep"
                    + " the password in ~/.pgpass, which the server's driver reads) and run init again, or use a client"
                    + " that reads variables: claude-code, cursor, vscode or windsurf.");
        }
        if (launch.isEmpty() && c == McpClient.CLAUDE_DESKTOP) {
            return Optional.of("adds remote servers in its Settings > Connectors, not in its"
                    + " configuration file; use --transport stdio, or another --client.");
        }
        return Optional.empty();
    }

    /** Why {@code c} is skipped, and what it keeps: its entry of this name as it was, which it still starts. */
    private String keptEntry(String reason, McpClient c, Path home) {
        Path file = c.configFile(home, main.env);
        try {
            return ClientConfigFile.entry(file, c.serversKey, name).isEmpty() ? reason
                    : reason.substring(0, reason.length() - 1) + "; until then its '" + name + "' entry in " + file
                    + " is left unchanged, and " + c.title + " still starts the server it describes.";
        } catch (SchemaBrainException unreadable) {
            return reason;
        }
    }

    /** Set by {@link #launch}: warned about once the files are written, so a refusal stays one line. */
    private boolean storeMissing;

    private void notes(Optional<ServerLaunch> launch) {
        if (storeMissing) {
            main.err().println("warning: there is no store at " + main.storeArg + " yet; run 'schemabrain index' into it"
                    + " before the client starts the server.");
        }
        List<String> references = launch.map(l -> l.env().entrySet().stream().filter(e -> e.getValue().isEmpty())
                .map(Map.Entry::getKey).filter(urlEnvs()::contains).toList()).orElse(List.of());
        if (!references.isEmpty()) {
            main.out().println("The entry refers to " + String.join(" and ", references) + " in the client's environment"
                    + " (the URL holds a password, or is not set here): export "
                    + (references.size() == 1 ? "it" : "them") + " where the client starts.");
        }
        if (launch.isPresent() && !sources.given()) {
            main.out().println("No --url-env: the tools answer from the store, and get_metric tells the agent the server"
                    + " has no source; run init again with --url-env VAR to give it one.");
        }
        if (launch.isEmpty() && !noToken) {
            main.out().println("Export " + tokenEnv + " (a token from 'schemabrain token create NAME') where the client starts.");
        }
        main.out().println("Restart the client to load it.");
    }

    private void print(List<McpClient> shown, Optional<ServerLaunch> launch, Path home) {
        for (McpClient c : shown) {
            ObjectNode root = ClientConfigFile.JSON.createObjectNode();
            root.putObject(c.serversKey).set(name,
                    launch.isPresent() ? c.stdioEntry(launch.get()) : c.httpEntry(url, noToken ? null : tokenEnv));
            try {
                main.out().println(client.equals("all") ? "// any MCP client (\"mcpServers\"; VS Code calls it \"servers\"):"
                        : "// " + c.title + ": " + c.configFile(home, main.env));
                main.out().println(ClientConfigFile.JSON.writeValueAsString(root));
            } catch (JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
        }
        launch.ifPresent(l -> main.out().println("# Claude Code, from a shell: " + l.claudeMcpAdd(name)));
    }

    private List<McpClient> clients(Path home) throws UserError {
        if (!client.equals("all")) {
            return List.of(McpClient.byId(client).orElseThrow(() -> new UserError("--client " + Main.shown(client)
                    + " is not a client init knows; use claude-desktop, claude-code, cursor, vscode, windsurf or all, or"
                    + " --print for any other client.")));
        }
        if (print) {
            return List.of(McpClient.values());
        }
        List<McpClient> found = new ArrayList<>();
        for (McpClient c : McpClient.values()) {
            Path file = c.configFile(home, main.env);
            if (Files.exists(file) || Files.isDirectory(c == McpClient.CLAUDE_CODE ? home.resolve(".claude") : file.getParent())) {
                found.add(c);
            }
        }
        if (found.isEmpty()) {
            throw new UserError("No MCP client's configuration was found under " + home + "; name one with --client, or"
                    + " use --print for any other client.");
        }
        return found;
    }

    /** serve's arguments for this store and source, with absolute paths. */
    private ServerLaunch launch(Path home) throws SchemaBrainException {
        List<String> args = new ArrayList<>();
        Map<String, Optional<String>> env = new LinkedHashMap<>();
        StoreLocation store = main.store();
        Optional<Path> file = Stores.file(store);
        if (file.isPresent()) {
            Path abs = file.get().toAbsolutePath().normalize();
            if (!Files.isDirectory(abs.getParent())) {
                throw new UserError("The store's directory " + abs.getParent() + " does not exist; pass --store with the"
                        + " file 'schemabrain index' wrote.");
            }
            storeMissing = !Files.exists(abs);
            args.addAll(List.of("--store", abs.toString()));
        } else if (main.storeUrlEnv != null) {
            args.addAll(List.of("--store-url-env", main.storeUrlEnv));
            env.put(main.storeUrlEnv, Optional.empty());
        } else {
            if (((StoreLocation.PostgresSchema) store).url().hasPassword()) {
                throw new UserError("The store URL holds a password, which init would write into the client's file;"
                        + " pass the store as --store-url-env VAR instead.");
            }
            args.addAll(List.of("--store", main.storeArg));
        }
        if (main.storeSchema != null) {
            args.addAll(List.of("--store-schema", main.storeSchema));
        }
        args.add("serve");
        for (SourceOptions.Choice c : sources.choices) {
            if (c.urlEnv != null) {
                args.addAll(List.of("--url-env", c.urlEnv));
                env.put(c.urlEnv, secretFreeValue(c.urlEnv));
            } else {
                args.addAll(List.of("--source", secretFreeSource(c.url)));
            }
        }
        checkEverySource();
        return ServerLaunch.of(ServerLaunch.crashDirectory(home, main.env), jarPath(), args, env);
    }

    private List<String> urlEnvs() {
        return sources.choices.stream().map(c -> c.urlEnv).filter(Objects::nonNull).toList();
    }

    /** A --source written into the client's file as given (a file made absolute), refused when it holds a secret. */
    private static String secretFreeSource(String given) throws SchemaBrainException {
        SourceUrl parsed = SourceUrl.parse(given);
        if (!parsed.holdsNoSecret() || !ServerLaunch.shownWhole(parsed)) {
            throw new UserError("The --source URL holds a password or secret parameter, which init would write into the"
                    + " client's file; pass it as --url-env VAR instead.");
        }
        return parsed.path() != null ? parsed.displayUrl() : given.strip();
    }

    /**
     * A store of several sources needs a connection for each in the entry, as serve does; a variable not set here
     * cannot be told apart, so the check needs every source's URL at hand.
     */
    private void checkEverySource() throws SchemaBrainException {
        List<SourceUrl> urls = new ArrayList<>();
        for (SourceOptions.Choice c : sources.choices) {
            String value = c.urlEnv != null ? main.env.get(c.urlEnv) : c.url;
            if (value == null || value.isBlank()) {
                return;
            }
            urls.add(SourceUrl.parse(value));
        }
        ServedSource.checkAll(main.store(), urls.stream().map(SourceUrl::sourceId).toList(),
                urls.stream().map(SourceUrl::displayUrl).toList(), "init");
    }

    /** The variable's value when it names a source and holds no secret; otherwise the client passes on its own. */
    private Optional<String> secretFreeValue(String var) throws SchemaBrainException {
        String value = main.env.get(var);
        if (value == null || value.isBlank()) {
            return Optional.empty();
        }
        SourceUrl parsed = SourceUrl.parse(value);
        return !parsed.hasPassword() && ServerLaunch.shownWhole(parsed) ? Optional.of(value) : Optional.empty();
    }

    private Path jarPath() throws UserError {
        Optional<Path> path = jar != null ? Optional.of(jar.toAbsolutePath().normalize()).filter(Files::isRegularFile)
                : ServerLaunch.runningJar();
        return path.orElseThrow(() -> new UserError("No schemabrain jar was found" + (jar == null ? "" : " at " + jar)
                + "; build it ('./schemabrain --version' does) or pass --jar FILE."));
    }

    private void checkNames() throws UserError {
        if (!NAME.matcher(name).matches()) {
            throw new UserError("--name " + Main.shown(name) + " is not a server name; use letters, digits, '.', '_' or '-'.");
        }
        List<String> vars = new ArrayList<>(urlEnvs());
        vars.add(tokenEnv);
        vars.add(main.storeUrlEnv);
        for (String var : vars) {
            if (var != null && !VAR.matcher(var).matches()) {
                throw new UserError(Main.shown(var) + " is not an environment variable name; use letters, digits and '_'.");
            }
        }
        if (transport == ServeCommand.Transport.stdio && url != null) {
            throw new UserError("--url is for --transport http; over stdio the client starts the server itself.");
        }
    }

    private void checkHttpUrl() throws UserError {
        if (url == null) {
            throw new UserError("--transport http needs --url, the address of the server's /mcp endpoint.");
        }
        try {
            URI uri = new URI(url);
            if (!("https".equals(uri.getScheme()) || "http".equals(uri.getScheme())) || uri.getHost() == null
                    || uri.getRawUserInfo() != null || uri.getRawFragment() != null) {
                throw new URISyntaxException(url, "not an http(s) address without credentials");
            }
        } catch (URISyntaxException e) {
            // Not echoed: it may hold the very credentials refused.
            throw new UserError("--url is not an http:// or https:// address without credentials;"
                    + " pass the server's /mcp address, e.g. https://mcp.example.com/mcp.");
        }
    }
}
