package dev.schemabrain.cli;

import dev.schemabrain.audit.AuditKey;
import dev.schemabrain.demo.DemoDatabase;
import dev.schemabrain.demo.DemoEvents;
import dev.schemabrain.demo.DemoStory;
import dev.schemabrain.embed.Embedders;
import dev.schemabrain.error.FileProblems;
import dev.schemabrain.error.SchemaBrainException;
import dev.schemabrain.error.UserError;
import dev.schemabrain.index.IndexResult;
import dev.schemabrain.index.Indexer;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.source.Sources;
import dev.schemabrain.store.StoreLocation;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import java.util.Optional;
import java.util.concurrent.Callable;

/** {@code schemabrain demo}: the whole job on a bundled SaaS database, no setup, no API key. */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Create the bundled demo database (a small SaaS company: organizations, users, teams,"
                + " subscriptions, invoices, payments, tickets, events) as an SQLite file, index it into a store of its own"
                + " (" + DemoCommand.DEMO_STORE + " unless --store names one, so your own index stays apart),"
                + " and show on one screen what an agent gets through the real tools: a search, a table, a join path,"
                + " a metric with rows (money labelled in cents), small groups left out with the reason, a PII refusal with its"
                + " recovery, and the verified audit chain."})
final class DemoCommand implements Callable<Integer> {

    @ParentCommand
    Main main;

    @Option(names = "--database", paramLabel = "FILE", defaultValue = "schemabrain-demo.sqlite",
            description = "Where the demo database is created on first use (default: ${DEFAULT-VALUE}).")
    Path database;

    @Option(names = "--events", paramLabel = "FILE|none", description = "Where the demo's second database (DuckDB,"
            + " product events) is created on first use (default: beside --database, NAME-events.duckdb); 'none' keeps"
            + " the demo to the SQLite database alone.")
    String eventsOption;

    /** The demo's own store: indexing your database into the default store must not mix the demo's tables in. */
    static final String DEMO_STORE = "schemabrain.demo.db";

    @Override
    public Integer call() throws SchemaBrainException {
        PrintWriter out = main.out();
        StoreLocation store = main.storeChosen() ? main.store() : StoreLocation.file(Path.of(DEMO_STORE));
        boolean created = !database.toFile().exists();
        try {
            DemoDatabase.ensure(database);
        } catch (UncheckedIOException e) {
            IOException cause = e.getCause();
            // DemoDatabase wraps the file system's failure, or SQLite's in an IOException of its own.
            String why = cause.getCause() == null ? FileProblems.reason(cause) : cause.getCause().getMessage();
            throw new UserError(SchemaBrainException.Kind.UNAVAILABLE, "Cannot create the demo database " + database
                    + " (" + why + "); pass --database with a file in a directory that exists and you can write to.", e);
        }
        boolean withEvents = !"none".equals(eventsOption);
        Path events = eventsOption == null || !withEvents ? DemoEvents.beside(database) : Path.of(eventsOption);
        if (withEvents) {
            try {
                DemoEvents.ensure(events);
            } catch (UncheckedIOException e) {
                throw new UserError(SchemaBrainException.Kind.UNAVAILABLE, "Cannot create the demo's events database " + events
                        + " (" + FileProblems.reason(e.getCause()) + "); pass --events with a file in a directory you can"
                        + " write to, or --events none.", e);
            }
        }
        SourceUrl url = SourceUrl.parse("sqlite:" + database.toAbsolutePath());
        SourceUrl eventsUrl = SourceUrl.parse("duckdb:" + events.toAbsolutePath());
        IndexResult result;
        try (SchemaSource source = Sources.open(url)) {
            result = new Indexer().run(url, source, store, false, ConsoleProgress.on(main.err()));
        }
        IndexResult second = null;
        if (withEvents) {
            // The second source of the same store, as 'index --add-source' puts it there.
            try (SchemaSource source = Sources.open(eventsUrl)) {
                second = new Indexer().run(eventsUrl, source, store, false, ConsoleProgress.on(main.err()));
            }
        }
        out.printf("%s the demo database %s; indexed %d tables, %d columns, %d foreign keys into %s in %.1f s"
                        + " (%d documents embedded).%n", created ? "Created" : "Using", database, result.tables(), result.columns(),
                result.foreignKeys(), store, result.totalMillis() / 1000.0, result.documents().embedded());
        if (second != null) {
            out.printf("Its second database, %s (DuckDB, product events): %d table, %d columns, indexed into the same store"
                    + " in %.1f s; one server serves both.%n", events, second.tables(), second.columns(), second.totalMillis() / 1000.0);
        }
        out.println("What an agent gets through serve's MCP tools (list_indexed_schemas comes with 'serve --tools all';"
                + " the others are in the default set):");
        Path auditDir = temporaryDirectory();
        boolean intact;
        try {
            intact = new DemoStory(out).tell(store, withEvents ? List.of(url, eventsUrl) : List.of(url),
                    auditDir).audit().intact();
        } finally {
            Embedders.closeShared();
            deleteQuietly(auditDir);
        }
        if (!intact) {
            return 1;
        }
        out.println();
        out.println("Next: index your own database with 'schemabrain index --url-env DATABASE_URL' (into schemabrain.db;"
                + " the demo keeps to " + store + "), then serve it with 'schemabrain serve --url-env DATABASE_URL' (one --url-env"
                + " per database, as the demo serves its two).");
        return 0;
    }

    /** A private (0700) directory for the demo's own audit chain, removed when the story is told. */
    private static Path temporaryDirectory() throws UserError {
        try {
            return Files.createTempDirectory("schemabrain-demo");
        } catch (IOException e) {
            throw new UserError(SchemaBrainException.Kind.UNAVAILABLE, "Cannot create a temporary directory for the demo's"
                    + " audit chain (" + FileProblems.reason(e) + "); point SCHEMABRAIN_JAVA_OPTS=-Djava.io.tmpdir=DIR at a directory you can write to.", e);
        }
    }

    private static void deleteQuietly(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // A temporary file left behind holds only the demo's own calls; nothing to tell the user.
        }
    }
}
