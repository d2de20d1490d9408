package dev.schemabrain.cli;

import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.error.SchemaBrainException;
import dev.schemabrain.error.SourceException;
import dev.schemabrain.error.StoreException;
import dev.schemabrain.store.StoreLocation;
import dev.schemabrain.store.Stores;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The {@code schemabrain} command: global options and the subcommands. */
@Command(name = "schemabrain",
        mixinStandardHelpOptions = true,
        versionProvider = Main.VersionProvider.class,
        description = "The trust boundary between AI agents and SQL databases: index a database, then serve it over MCP.",
        usageHelpAutoWidth = true)
public final class Main implements Runnable {

    /**
     * The subcommands, in --help's order. Registered by {@link #commandLine}: only the one a command line names, as
     * picocli builds (and instantiates) every registered command up front, which was 200 ms of each start.
     */
    static final List<Class<?>> SUBCOMMANDS = List.of(IndexCommand.class, ServeCommand.class, EvalCommand.class,
            ApplyCommand.class, DiffCommand.class, ExportCommand.class, SemanticListing.Entities.class,
            SemanticListing.Joins.class, SemanticListing.Metrics.class, ImportCommand.class, PolicyCommand.class,
            AuditCommand.class, LintCommand.class, DemoCommand.class, ConsoleCommand.class, TokenCommand.class, StoreCommand.class,
            LlmCommand.class, ProbeCommand.class, SweepCommand.class, MineQueriesCommand.class, InitCommand.class,
            DoctorCommand.class, GrantsCommand.class, CheckCommand.class, TestCommand.class, CommandLine.HelpCommand.class);

    /** The global options that take a value: the word after one is not a subcommand. */
    private static final Set<String> VALUED = Set.of("--store", "--store-schema", "--store-url-env",
            "--audit-log");

    /** Exit code of a command line picocli refuses and of a bug (docs/cli.md, exit codes); the root's comes from its kind. */
    public static final int EXIT_FAILURE = 2;

    @Option(names = "--store", scope = ScopeType.INHERIT, paramLabel = "PATH|URL", defaultValue = "schemabrain.db",
            description = "The store: a file (default: ${DEFAULT-VALUE} in the current directory), or"
                    + " postgresql://user@host:port/database[?schema=NAME] to share one store between servers.")
    String storeArg;

    @Option(names = "--store-schema", scope = ScopeType.INHERIT, paramLabel = "NAME",
            description = "The schema of a PostgreSQL store (default: schemabrain).")
    String storeSchema;

    @Option(names = "--store-url-env", scope = ScopeType.INHERIT, paramLabel = "VAR",
            description = "Read the PostgreSQL store URL (with its password) from this environment variable.")
    String storeUrlEnv;

    @Option(names = "--audit-log", scope = ScopeType.INHERIT, paramLabel = "FILE",
            description = "The SQLite store's audit log (default: beside the store, NAME.audit.db). Place it in a"
                    + " writable directory when the store is on a read-only mount.")
    Path auditLog;

    @Option(names = {"-v", "--verbose"}, scope = ScopeType.INHERIT,
            description = "Log details to stderr, and show stack traces of failures.")
    boolean verbose;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** The command line as given, for serve's registration lines. */
    List<String> arguments = List.of();

    /** The environment --url-env and the audit key read; a test passes its own. */
    final Map<String, String> env;

    public Main() {
        this(System.getenv());
    }

    Main(Map<String, String> env) {
        this.env = Map.copyOf(env);
    }

    /** The store options as given, to repeat in a suggested command line: empty for the default store, never a password. */
    String storeOption() {
        String schema = storeSchema == null ? "" : " --store-schema " + storeSchema;
        if (storeUrlEnv != null) {
            return " --store-url-env " + storeUrlEnv + schema;
        }
        if ("schemabrain.db".equals(storeArg)) {
            return schema;
        }
        String store = storeArg;
        if (storeArg.contains("://")) {
            try {
                store = SourceUrl.parse(storeArg).displayUrl();
            } catch (SourceException e) {
                store = "URL";
            }
        }
        return " --store " + store + schema;
    }

    /** Where the store is, from --store, --store-schema and --store-url-env. */
    StoreLocation store() throws StoreException {
        StoreLocation location = Stores.location(storeArg, storeSchema, storeUrlEnv, env);
        if (auditLog != null) {
            if (!(location instanceof StoreLocation.SqliteFile f)) {
                throw new StoreException("--audit-log applies to a SQLite store; a PostgreSQL store keeps its audit chain"
                        + " in its schema, so drop --audit-log.");
            }
            location = new StoreLocation.SqliteFile(f.path(), auditLog);
        }
        if (!warnedStorePassword && storeUrlEnv == null && location instanceof StoreLocation.PostgresSchema p
                && p.url().hasPassword()) {
            warnedStorePassword = true;
            err().println("warning: the store URL holds a password, which shell history and process lists can show;"
                    + " prefer --store-url-env VAR.");
        }
        return location;
    }

    private boolean warnedStorePassword;

    /** Whether the command line names a store (an inherited option may be matched on any subcommand), not the default. */
    boolean storeChosen() {
        for (CommandLine.ParseResult r = spec.commandLine().getParseResult(); r != null; r = r.subcommand()) {
            if (r.hasMatchedOption("--store") || r.hasMatchedOption("--store-url-env") || r.hasMatchedOption("--store-schema")) {
                return true;
            }
        }
        return false;
    }

    /**
     * The SQLite store file the audit log is kept beside. A PostgreSQL store keeps its chain in its schema
     * (callers take {@link #store()} for it); this is only asked for a SQLite store.
     */
    StoreLocation.SqliteFile auditStore() throws StoreException {
        if (store() instanceof StoreLocation.SqliteFile f) {
            return f;
        }
        throw new StoreException("This needs a SQLite store file; a PostgreSQL store keeps its audit chain in its schema.");
    }

    /** The user's home from this run's environment (HOME), where the MCP clients keep their configuration. */
    Path home() {
        String home = env.getOrDefault("HOME", System.getProperty("user.home", ""));
        return Path.of(home.isBlank() ? "." : home).toAbsolutePath().normalize();
    }

    /** Where a command prints its result: picocli's writer, so a test can capture it in process. */
    PrintWriter out() {
        return spec.commandLine().getOut();
    }

    /** Where a command prints warnings and progress. */
    PrintWriter err() {
        return spec.commandLine().getErr();
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    public static void main(String[] args) {
        ExitSignals.install();
        System.exit(execute(args));
    }

    /** Runs the CLI on this process's streams and environment and returns the exit code, without exiting. */
    public static int execute(String... args) {
        return execute(commandLine(new Main(), args), args);
    }

    /** Runs the CLI in process on the given writers and environment (tests call this); serve's frames still use stdout. */
    public static int execute(PrintWriter out, PrintWriter err, Map<String, String> env, String... args) {
        return execute(commandLine(new Main(env), args).setOut(out).setErr(err), args);
    }

    /** The command line for {@code args}: the subcommand they name alone, or every one (for help and mistakes). */
    static CommandLine commandLine(Main main, String... args) {
        CommandLine cli = new CommandLine(main);
        Optional<Class<?>> named = named(args).filter(c -> c != CommandLine.HelpCommand.class);   // help shows them all
        if (named.isPresent()) {
            cli.addSubcommand(named.get());
        } else {
            SUBCOMMANDS.forEach(cli::addSubcommand);
        }
        return cli;
    }

    /** The subcommand the first word after the global options names, if it names one. */
    private static Optional<Class<?>> named(String... args) {
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (VALUED.contains(arg)) {
                i++;
            } else if (!arg.startsWith("-")) {
                return SUBCOMMANDS.stream().filter(c -> names(c).contains(arg)).findFirst();
            }
        }
        return Optional.empty();
    }

    private static List<String> names(Class<?> command) {
        Command c = command.getAnnotation(Command.class);
        List<String> names = new ArrayList<>(List.of(c.aliases()));
        names.add(c.name());
        return names;
    }

    private static int execute(CommandLine cli, String... args) {
        boolean verbose = Arrays.stream(args).anyMatch(a -> a.equals("-v") || a.equals("--verbose"));
        if (cli.getCommand() instanceof Main main) {
            main.arguments = List.of(args);
        }
        // slf4j-simple reads its level once, so set it before the first logger exists.
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", verbose ? "debug" : "warn");
        System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");
        // The MariaDB driver logs failed logins itself; SchemaBrain says it once, in its own words.
        System.setProperty("org.slf4j.simpleLogger.log.org.mariadb.jdbc", verbose ? "debug" : "off");
        // The MCP SDK's debug lines hold whole messages, a tool's arguments (execute's SQL) included: -v stops short of them.
        System.setProperty("org.slf4j.simpleLogger.log.io.modelcontextprotocol", verbose ? "info" : "warn");
        // The tokenizer warns about its default length on every load; SchemaBrain's documents are short.
        System.setProperty("org.slf4j.simpleLogger.log.ai.djl", verbose ? "debug" : "error");
        cli.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            PrintWriter err = commandLine.getErr();
            if (ExitSignals.stopping()) {
                // A signal closed the model under the command: its sentence is said, and its handler ends the JVM
                // once what it undoes is undone.
                return ExitSignals.awaitExit();
            }
            err.println("schemabrain: " + userMessage(ex));
            if (verbose) {
                ex.printStackTrace(err);
            }
            err.flush();
            return ex instanceof SchemaBrainException known ? known.failure().exitCode() : EXIT_FAILURE;
        });
        cli.setParameterExceptionHandler((ex, argv) -> {
            PrintWriter err = ex.getCommandLine().getErr();
            Optional<String> unknown = unknownCommand(ex);
            if (unknown.isPresent()) {
                err.println("schemabrain: " + unknown.get());
                err.flush();
                return EXIT_FAILURE;
            }
            // picocli starts some messages with "Error: "; the prefix already says where the sentence comes from.
            err.println("schemabrain: " + ex.getMessage().replaceFirst("^Error: ", "") + "; see '"
                    + ex.getCommandLine().getCommandSpec().qualifiedName() + " --help'.");
            err.flush();
            return EXIT_FAILURE;
        });
        try {
            return cli.execute(args);
        } finally {
            // print() does not flush an auto-flushing writer; a partial last line must still reach the caller.
            cli.getOut().flush();
            cli.getErr().flush();
        }
    }

    /**
     * A word where a command with subcommands expected one of them ({@code schemabrain indx}, {@code audit verfy}):
     * one sentence naming the closest command, instead of picocli's "Unmatched argument at index 0".
     */
    static Optional<String> unknownCommand(CommandLine.ParameterException ex) {
        CommandLine at = ex.getCommandLine();
        if (!(ex instanceof CommandLine.UnmatchedArgumentException unmatched) || at.getSubcommands().isEmpty()
                || unmatched.getUnmatched().isEmpty() || unmatched.getUnmatched().get(0).startsWith("-")) {
            return Optional.empty();
        }
        String word = unmatched.getUnmatched().get(0);
        String command = at.getCommandSpec().qualifiedName();
        String shown = shown(word);
        List<String> suggestions = unmatched.getSuggestions().stream().filter(at.getSubcommands()::containsKey).toList();
        String meant = suggestions.isEmpty() ? "" : "'" + command + " " + suggestions.get(0) + "' if you meant it, or ";
        return Optional.of(shown + " is not a command of " + command + "; run " + meant + "'" + command
                + " --help' for the list.");
    }

    /** User text echoed in a message: short and printable (it may be anything a user pasted), or not at all. */
    static String shown(String s) {
        return s.length() <= 60 && s.chars().allMatch(c -> c >= 0x20 && c < 0x7f) ? "'" + s + "'" : "(the value given)";
    }

    /** The one place a failure becomes what the user reads: the root's sentence, or a bug to report. */
    static String userMessage(Throwable ex) {
        if (ex instanceof SchemaBrainException) {
            return ex.getMessage();
        }
        return "internal error (" + ex.getClass().getSimpleName() + (ex.getMessage() == null ? "" : ": " + ex.getMessage())
                + "); rerun with -v for the details and report it.";
    }

    static final class VersionProvider implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[]{"schemabrain " + Version.get() + " (git " + Version.revision() + ")"};
        }
    }
}
