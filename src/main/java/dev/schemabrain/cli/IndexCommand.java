package dev.schemabrain.cli;

import dev.schemabrain.index.IndexResult;
import dev.schemabrain.index.Indexer;
import dev.schemabrain.source.Dictionary;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.error.SourceException;
import dev.schemabrain.source.Sources;
import dev.schemabrain.store.CatalogChanges.RunCounts;
import dev.schemabrain.error.StoreException;
import dev.schemabrain.error.UserError;
import dev.schemabrain.embed.WordVocabulary;
import dev.schemabrain.llm.LlmEnricher;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import dev.schemabrain.store.CatalogRepository;
import dev.schemabrain.store.Store;
import dev.schemabrain.store.StoreLocation;
import dev.schemabrain.store.Stores;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;

/** {@code schemabrain index}: introspect a source into the store. */
@Command(name = "index", mixinStandardHelpOptions = true,
        description = {"Introspect a database (tables, columns, keys, comments, sample values) into the store.",
                "Cache-aware: unchanged tables and columns cost nothing on a re-index; objects the source no longer"
                        + " has are marked deprecated and purged after 30 days. --source or --url-env given several"
                        + " times: each source in turn, one summary each.",
                "Sources: postgresql://user@host:port/db, mysql:// or mariadb://user@host:port/db, sqlite:FILE,"
                        + " duckdb:FILE, ddl:FILE (CREATE TABLE statements), spider:TABLES.json."})
final class IndexCommand implements Callable<Integer> {

    @ParentCommand
    Main main;

    @Mixin
    SourceOptions.Several sources;

    @Option(names = "--dry-run", description = "Read the source and report what would change, without writing the store;"
            + " with --llm, print the estimated tokens and cost and send nothing.")
    boolean dryRun;

    @Option(names = "--add-source", description = "Index this source into a store that already holds another one, on"
            + " purpose: serve then offers the tables of all of them. Without it such a run is refused.")
    boolean addSource;

    @Mixin
    LlmIndexOptions llm;

    @Option(names = "--dictionary", paramLabel = "DIR", description = "A data dictionary: DIR/<table>.csv with the"
            + " columns original_column_name, column_name, column_description, value_description; each row becomes"
            + " its column's comment.")
    Path dictionary;

    @Override
    public Integer call() throws SourceException, StoreException, UserError {
        if (!dryRun) {
            Stores.checkWritable(main.store());   // before introspecting, not after
        }
        List<SourceUrl> urls = sources.resolve(main.env, main.err());
        if (urls.isEmpty()) {
            urls = List.of(new SourceOptions().resolve(main.env, main.err()));   // no option: the one-source refusal
        }
        if (!addSource) {
            checkOneSource(main.store(), urls);   // every source before any is indexed: none half-done
        }
        LlmEnricher enricher = new LlmEnricher(llm.options(main.env, main.err()), WordVocabulary.get().words());
        Dictionary comments = dictionary == null ? Dictionary.none() : Dictionary.read(dictionary);
        for (SourceUrl url : urls) {
            if (!index(url, enricher, comments)) {
                return ExitSignals.awaitExit();   // no summary of a run the signal undoes
            }
        }
        LlmIndexOptions.printSummary(main.out(), main.err(), enricher.summary());
        return 0;
    }

    /** One source into the store, its summary printed; false when a signal stopped it. */
    private boolean index(SourceUrl url, LlmEnricher enricher, Dictionary comments) throws SourceException, StoreException {
        IndexResult result;
        Optional<String> unreadKeys;
        // The run writes the store in one transaction at its end: stopped before the commit, nothing of it lands;
        // a store file the run created is deleted, never left empty or half-written.
        StoreLocation store = main.store();
        boolean existed = Stores.exists(store);
        ExitSignals.onInterrupt(existed ? "index interrupted; the store " + store + " is unchanged."
                : "index interrupted; nothing was indexed into " + store + ".",
                existed || dryRun ? () -> { } : () -> Stores.deleteUnwritten(store), main.err());
        try (SchemaSource schemaSource = comments.over(Sources.open(url))) {
            result = new Indexer().enrichedBy(enricher).run(url, schemaSource, store, dryRun, ConsoleProgress.on(main.err()));
            unreadKeys = schemaSource.unreadKeys();
        } finally {
            ExitSignals.onInterrupt(null);
        }
        if (ExitSignals.stopping()) {
            return false;
        }
        printSummary(main.out(), result, main.store().toString());
        unreadKeys.ifPresent(m -> main.err().println("warning: " + m));
        return true;
    }

    /**
     * A store serves every source it holds as one catalog: a second database indexed into it by mistake (the demo's
     * store, a store from another project) would be ranked and answered beside the first, so it takes --add-source.
     * Sources given together count as held once the first of them is indexed.
     */
    private static void checkOneSource(StoreLocation store, List<SourceUrl> urls) throws StoreException, UserError {
        Map<String, String> indexed = new LinkedHashMap<>();
        if (Stores.exists(store)) {
            try (Store opened = Stores.open(store)) {
                indexed.putAll(opened.read(CatalogRepository::sourceUrls));
            }
        }
        for (SourceUrl url : urls) {
            if (!indexed.isEmpty() && !indexed.containsKey(url.sourceId())
                    && indexed.values().stream().noneMatch(display -> sameSource(display, url))) {
                throw new UserError("The store " + store + " holds " + String.join(", ", indexed.values()) + ", not "
                        + url.displayUrl() + "; give this source a store of its own with --store FILE, or pass --add-source"
                        + " to serve both from this store on purpose.");
            }
            indexed.putIfAbsent(url.sourceId(), url.displayUrl());
        }
    }

    /** A store from before display URLs were allow-listed keeps an older id; the index run re-keys it. */
    private static boolean sameSource(String display, SourceUrl url) {
        try {
            return SourceUrl.parse(display).sourceId().equals(url.sourceId());
        } catch (SourceException unparsable) {
            return false;
        }
    }

    static void printSummary(PrintWriter out, IndexResult r, String store) {
        RunCounts n = r.counts();
        out.printf("%s %s (source %s)%s%n", r.dryRun() ? "Would index" : "Indexed", r.displayUrl(), r.sourceId(),
                r.dryRun() ? "; nothing was written" : " into " + store);
        out.printf("  tables   %6d: %d new, %d changed, %d unchanged, %d deprecated%s%n", r.tables(),
                n.tablesNew(), n.tablesChanged(), n.tablesUnchanged(), n.tablesDeprecated(),
                r.tablesPurged() > 0 ? ", " + r.tablesPurged() + " purged" : "");
        out.printf("  columns  %6d: %d new, %d changed, %d unchanged, %d deprecated%n", r.columns(),
                n.columnsNew(), n.columnsChanged(), n.columnsUnchanged(), n.columnsDeprecated());
        out.printf("  foreign keys %d%n", r.foreignKeys());
        out.printf("  pii      %6d columns tagged (schemabrain policy tags lists them)%n", r.piiColumns());
        IndexResult.Documents d = r.documents();
        out.printf("  documents %5d %s, %d %s%s%n", d.described(), r.dryRun() ? "to describe" : "described",
                d.embedded(), r.dryRun() ? "to embed" : "embedded",
                d.texts() < d.embedded() || d.reused() > 0 ? " (" + d.texts() + " distinct texts"
                        + (d.reused() > 0 ? ", " + d.reused() + " of them already in the store" : "") + ")" : "");
        out.printf(Locale.ROOT, "  time     %.2f s (introspect %.2f s while reading the store %.2f s, compare %.2f s, "
                        + "describe %.2f s, embed %.2f s, write %.2f s)%n",
                r.totalMillis() / 1000.0, r.introspectMillis() / 1000.0, r.loadMillis() / 1000.0, r.diffMillis() / 1000.0,
                d.describeMillis() / 1000.0, d.embedMillis() / 1000.0, r.writeMillis() / 1000.0);
    }
}
