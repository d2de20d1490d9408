package dev.schemabrain.cli;

import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.error.SourceException;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * How a client starts {@code schemabrain serve} over stdio: the absolute java, the JVM options the launcher
 * uses (crash reports in a private directory, no core dump: both would hold the command line and secrets; C1 and
 * the serial collector for a stdio session),
 * the absolute jar and serve's arguments, and the environment it needs.
 *
 * @param env variable → its value, or empty when the client must pass on its own variable of that name
 */
record ServerLaunch(String java, List<String> arguments, Map<String, Optional<String>> env) {

    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_./:=@%+,-]+");

    ServerLaunch {
        arguments = List.copyOf(arguments);
        env = Collections.unmodifiableMap(new LinkedHashMap<>(env));
    }

    /** The java of this JVM, the JVM options, {@code -jar JAR} and {@code serveArguments} after it. */
    static ServerLaunch of(Path crashDir, Path jar, List<String> serveArguments, Map<String, Optional<String>> env) {
        // The launcher's flags for a stdio serve: C1 only and the serial collector suit one client's session.
        List<String> args = new ArrayList<>(jvmOptions(crashDir, jar));
        args.addAll(List.of("-jar", jar.toString()));
        args.addAll(serveArguments);
        return new ServerLaunch(javaOfThisJvm(), args, env);
    }

    /**
     * C1 only, and a heap that follows the catalog: it starts at 16 MB (the JVM's default start is 1/64 of the
     * machine's memory, which the young generation then fills), at most 20% free, a young generation of at most 128 MB.
     */
    static final List<String> STDIO_SERVER = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xms16m",
            "-XX:MinHeapFreeRatio=10", "-XX:MaxHeapFreeRatio=20", "-XX:MaxNewSize=128m");

    /**
     * The launcher's JVM options for a stdio serve: JVM warnings on stderr (stdout carries only MCP frames), the
     * class-data archive built beside the jar when there is one, and {@link #STDIO_SERVER}.
     */
    static List<String> jvmOptions(Path crashDir, Path jar) {
        List<String> options = new ArrayList<>(List.of("-XX:ErrorFile=" + crashDir.resolve("hs_err_pid%p.log"),
                "-XX:-CreateCoredumpOnCrash", "-Xlog:disable", "-Xlog:all=warning,cds*=off:stderr"));
        Path archive = jar.resolveSibling(jar.getFileName().toString().replaceFirst("\\.jar$", "") + ".jsa");
        if (Files.isRegularFile(archive)) {
            options.addAll(List.of("-XX:SharedArchiveFile=" + archive, "-Xshare:auto"));
        }
        options.addAll(STDIO_SERVER);
        return options;
    }

    static String javaOfThisJvm() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toAbsolutePath().toString();
    }

    /**
     * The launch of exactly the invocation {@code given} (serve's own command line): the store named by
     * {@code store} (absolute, or a URL without credentials), a --source URL without its credentials, and each
     * --url-env / --store-url-env variable passed on from the client's environment; the audit files made absolute.
     */
    static ServerLaunch ofInvocation(List<String> given, String store, Path crashDir, Path jar) {
        List<String> args = new ArrayList<>();
        Map<String, Optional<String>> env = new LinkedHashMap<>();
        for (int i = 0; i < given.size(); i++) {
            String arg = given.get(i);
            int eq = arg.indexOf('=');
            String option = arg.startsWith("--") && eq > 0 ? arg.substring(0, eq) : arg;
            boolean joined = !option.equals(arg);
            if (!List.of("--store", "--source", "--url-env", "--store-url-env", "--audit-log", "--audit-key", "--audit-witness")
                    .contains(option)
                    || (!joined && i + 1 >= given.size())) {
                args.add(arg);
                continue;
            }
            String value = joined ? arg.substring(eq + 1) : given.get(++i);
            switch (option) {
                case "--store" -> value = store;
                case "--source" -> value = withoutCredentials(value);
                // A client starts the server in a directory of its own: files are named absolutely.
                case "--audit-log", "--audit-key", "--audit-witness" -> value = Path.of(value).toAbsolutePath().normalize().toString();
                default -> env.put(value, Optional.empty());
            }
            args.add(option);
            args.add(value);
        }
        if (given.stream().noneMatch(a -> a.equals("--store") || a.startsWith("--store=") || a.startsWith("--store-url-env"))) {
            args.addAll(0, List.of("--store", store));
        }
        return of(crashDir, jar, args, env);
    }

    /** The URL as given without its password; the display form when a query parameter could be a secret too. */
    private static String withoutCredentials(String url) {
        try {
            SourceUrl parsed = SourceUrl.parse(url);
            return shownWhole(parsed) ? url.replaceFirst("^([A-Za-z]+://[^:/@?#]*):[^@/?#]*@", "$1@") : parsed.displayUrl();
        } catch (SourceException e) {
            return "SOURCE-URL";
        }
    }

    /** Whether the display form keeps every query parameter: none of them can be a secret. */
    static boolean shownWhole(SourceUrl url) {
        return url.query().isEmpty() || url.displayUrl().contains(url.query());
    }

    /** The jar this process runs from; run from target/classes (a developer's build), the jar Maven puts beside it. */
    static Optional<Path> runningJar() {
        try {
            Path running = Path.of(ServerLaunch.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            Path jar = Files.isDirectory(running) ? running.resolveSibling("schemabrain.jar") : running;
            return Files.isRegularFile(jar) ? Optional.of(jar.toAbsolutePath().normalize()) : Optional.empty();
        } catch (URISyntaxException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** The entry as one JSON line under a client's "mcpServers", variables as ${VAR} (Claude Code's form). */
    String jsonLine(String name) {
        return McpClient.CLAUDE_CODE.stdioEntry(this).toString().replaceFirst("^", "\"" + name + "\": ");
    }

    /** Where the launcher keeps crash reports: ${XDG_STATE_HOME:-~/.local/state}/schemabrain. */
    static Path crashDirectory(Path home, Map<String, String> env) {
        String state = env.get("XDG_STATE_HOME");
        return (state == null || state.isBlank() ? home.resolve(".local/state") : Path.of(state)).resolve("schemabrain");
    }

    /**
     * The Claude Code command that registers this launch (user scope), quoted for a POSIX shell. Each variable is
     * passed as the reference ${VAR}, which Claude Code expands when it starts the server: no value is stored.
     */
    String claudeMcpAdd(String name) {
        String envOptions = env.keySet().stream().map(v -> "-e " + quote(v + "=${" + v + "}") + " ")
                .collect(Collectors.joining());
        return "claude mcp add --scope user " + envOptions + quote(name) + " -- " + quote(java) + " "
                + arguments.stream().map(ServerLaunch::quote).collect(Collectors.joining(" "));
    }

    static String quote(String s) {
        if (PLAIN.matcher(s).matches()) {
            return s;
        }
        return "'" + s.replace("'", "'\\''") + "'";
    }
}
