package dev.schemabrain.cli;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.ForeignKey;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.demo.DemoDatabase;
import dev.schemabrain.error.FileProblems;
import dev.schemabrain.error.SchemaBrainException;
import dev.schemabrain.error.UserError;
import dev.schemabrain.index.IndexResult;
import dev.schemabrain.index.Indexer;
import dev.schemabrain.source.SchemaSource;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.source.Sources;
import dev.schemabrain.store.CatalogRepository;
import dev.schemabrain.store.SchemaSummary;
import dev.schemabrain.store.Store;
import dev.schemabrain.store.StoreLocation;
import dev.schemabrain.store.Stores;
import dev.schemabrain.pii.BlockList;
import dev.schemabrain.pii.PiiTags;
import dev.schemabrain.store.PiiRepository;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

/** {@code schemabrain demo}: the whole job on a bundled SaaS database, no setup, no API key. */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Create the bundled demo database (a small SaaS company: organizations, users, teams,"
                + " subscriptions, invoices, payments, tickets, events) as an SQLite file, index it into the store,"
                + " and print what an agent would see."})
final class DemoCommand implements Callable<Integer> {

    @ParentCommand
    Main main;

    @Option(names = "--database", paramLabel = "FILE", defaultValue = "schemabrain-demo.sqlite",
            description = "Where the demo database is created on first use (default: ${DEFAULT-VALUE}).")
    Path database;

    @Override
    public Integer call() throws SchemaBrainException {
        PrintWriter out = main.out();
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
        SourceUrl url = SourceUrl.parse("sqlite:" + database.toAbsolutePath());
        IndexResult result;
        try (SchemaSource source = Sources.open(url)) {
            result = new Indexer().run(url, source, main.store(), false, ConsoleProgress.on(main.err()));
        }
        out.println((created ? "Created" : "Using") + " the demo database " + database + ".");
        IndexCommand.printSummary(out, result, main.store().toString());
        try (Store store = Stores.open(main.store())) {
            List<SchemaSummary> schemas = store.read(CatalogRepository::schemas);
            Catalog catalog = store.read(c -> CatalogRepository.catalog(c, url.sourceId()));
            printAgentView(out, schemas, catalog);
            printPii(out, store.read(PiiRepository::tags));
        }
        out.println();
        out.println("Next: index your own database with 'schemabrain index --url-env DATABASE_URL'.");
        return 0;
    }

    /** The tagged columns, and what the default block list does with them. */
    private static void printPii(PrintWriter out, PiiTags tags) {
        out.println();
        out.println("PII the classifier found (samples of these columns were never stored; blocked ones are redacted"
                + " and get_metric refuses to aggregate over them)");
        for (PiiTags.Entry e : tags.tagged()) {
            boolean blocked = !e.tag().blockedBy(BlockList.FLOOR.categories()).isEmpty();
            out.printf("  %-32s %-13s %s%s%n", e.qualifiedColumn(), e.tag().sensitivity().wireName(),
                    String.join(",", e.tag().categoryNames()), blocked ? "  (blocked)" : "");
        }
    }

    private static void printAgentView(PrintWriter out, List<SchemaSummary> schemas, Catalog catalog) {
        out.println();
        out.println("What an agent sees");
        out.println();
        out.println("list_indexed_schemas");
        for (SchemaSummary s : schemas) {
            out.printf("  %-12s %3d tables, %4d columns  (source %s)%n", s.schema(), s.tables(), s.columns(), s.sourceId());
        }
        out.println();
        out.println("tables of the demo database");
        int width = catalog.tables().stream().mapToInt(t -> t.name().toString().length()).max().orElse(10);
        for (Table t : catalog.tables()) {
            String rows = t.rowEstimate() == null ? "" : t.rowEstimate() + " rows, ";
            String links = t.foreignKeys().stream().map(ForeignKey::target).map(Object::toString).distinct()
                    .collect(Collectors.joining(", "));
            out.printf("  %-" + width + "s  %s%d columns%s%s%n", t.name(), rows, t.columns().size(),
                    links.isEmpty() ? "" : "; references " + links,
                    t.isJunction() ? "; junction table: joining through it multiplies rows" : "");
        }
    }
}
