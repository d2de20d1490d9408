package dev.schemabrain.cli;

import dev.schemabrain.source.SourceException;
import dev.schemabrain.store.StoreException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Arrays;

/** The {@code schemabrain} command: global options and the subcommands. */
@Command(name = "schemabrain",
        mixinStandardHelpOptions = true,
        versionProvider = Main.VersionProvider.class,
        description = "The trust boundary between AI agents and SQL databases: index a database, then serve it over MCP.",
        subcommands = {IndexCommand.class, ServeCommand.class, EvalCommand.class, ApplyCommand.class, DiffCommand.class,
                ExportCommand.class, SemanticListing.Entities.class, SemanticListing.Joins.class, SemanticListing.Metrics.class,
                ImportCommand.class, PolicyCommand.class, AuditCommand.class, LintCommand.class, DemoCommand.class, CommandLine.HelpCommand.class},
        usageHelpAutoWidth = true)
public final class Main implements Runnable {

    /** Exit code for any failure the user is told about. */
    public static final int EXIT_FAILURE = 2;

    @Option(names = "--store", scope = ScopeType.INHERIT, paramLabel = "PATH", defaultValue = "schemabrain.db",
            description = "The store file (default: ${DEFAULT-VALUE} in the current directory).")
    Path store;

    @Option(names = {"-v", "--verbose"}, scope = ScopeType.INHERIT,
            description = "Log details to stderr, and show stack traces of failures.")
    boolean verbose;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    public static void main(String[] args) {
        ExitSignals.install();
        System.exit(execute(args));
    }

    /** Runs the CLI and returns the exit code, without exiting (tests call this). */
    public static int execute(String... args) {
        boolean verbose = Arrays.stream(args).anyMatch(a -> a.equals("-v") || a.equals("--verbose"));
        // slf4j-simple reads its level once, so set it before the first logger exists.
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", verbose ? "debug" : "warn");
        System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");
        // The MariaDB driver logs failed logins itself; SchemaBrain says it once, in its own words.
        System.setProperty("org.slf4j.simpleLogger.log.org.mariadb.jdbc", verbose ? "debug" : "off");
        // The tokenizer warns about its default length on every load; SchemaBrain's documents are short.
        System.setProperty("org.slf4j.simpleLogger.log.ai.djl", verbose ? "debug" : "error");
        CommandLine cli = new CommandLine(new Main());
        cli.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            PrintWriter err = commandLine.getErr();
            err.println("schemabrain: " + userMessage(ex));
            if (verbose) {
                ex.printStackTrace(err);
            }
            err.flush();
            return EXIT_FAILURE;
        });
        cli.setParameterExceptionHandler((ex, argv) -> {
            PrintWriter err = ex.getCommandLine().getErr();
            err.println("schemabrain: " + ex.getMessage() + "; see '"
                    + ex.getCommandLine().getCommandSpec().qualifiedName() + " --help'.");
            err.flush();
            return EXIT_FAILURE;
        });
        return cli.execute(args);
    }

    static String userMessage(Throwable ex) {
        if (ex instanceof SourceException || ex instanceof StoreException || ex instanceof UserError) {
            return ex.getMessage();
        }
        return "internal error (" + ex.getClass().getSimpleName() + (ex.getMessage() == null ? "" : ": " + ex.getMessage())
                + "); rerun with -v for the details and report it.";
    }

    static final class VersionProvider implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[]{"schemabrain " + Version.get()};
        }
    }
}
