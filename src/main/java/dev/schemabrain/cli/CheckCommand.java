package dev.schemabrain.cli;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.error.SchemaBrainException;
import dev.schemabrain.error.UserError;
import dev.schemabrain.index.SchemaDrift;
import dev.schemabrain.engine.IntrospectionOptions;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.source.Sources;
import dev.schemabrain.store.CatalogRepository;
import dev.schemabrain.store.Store;
import dev.schemabrain.store.Stores;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParentCommand;

import java.util.List;
import java.util.concurrent.Callable;

/** {@code schemabrain check}: the live source's tables and columns against the store's. */
@Command(name = "check", mixinStandardHelpOptions = true,
        description = {"Compare the live source's tables and columns with what the store indexed, writing nothing; with"
                + " --source or --url-env repeated, each source with the tables the store indexed from it.",
                "Prints '+ table|column' (added since the index), '-' (removed) and '~ column: old -> new' (retyped)."
                        + " Exit 0 in sync, 1 drift, 2 error."})
final class CheckCommand implements Callable<Integer> {

    @ParentCommand
    Main main;

    @Mixin
    SourceOptions.Several sources;

    @Override
    public Integer call() throws SchemaBrainException {
        if (!sources.given()) {
            throw new UserError("check needs the source: pass --source URL or --url-env VAR.");
        }
        List<SourceOptions> each = sources.each();
        int worst = 0;
        for (SourceOptions source : each) {
            try {
                worst = Math.max(worst, check(source, each.size() > 1));
            } catch (SchemaBrainException e) {
                if (each.size() == 1) {
                    throw e;
                }
                // One source that cannot be compared leaves the others to compare; the exit code keeps its failure.
                main.err().println("schemabrain: " + e.getMessage());
                worst = Math.max(worst, e.failure().exitCode());
            }
        }
        return worst;
    }

    /** One source against the store's tables of that source only; with several, headed by its display URL. */
    private int check(SourceOptions source, boolean headed) throws SchemaBrainException {
        SourceUrl url = source.resolve(main.env, main.err());
        if (!Stores.exists(main.store())) {
            throw new UserError("There is no store at " + main.store() + "; " + source.indexAdvice(url, main.storeOption())
                    + " first, or pass --store with the store to compare.");
        }
        Catalog stored;
        try (Store store = Stores.open(main.store())) {
            stored = store.read(c -> CatalogRepository.catalog(c, url.sourceId()));
        }
        if (stored.tables().isEmpty()) {
            throw new UserError("The store " + main.store() + " has no catalog for " + url.displayUrl()
                    + "; " + source.indexAdvice(url, main.storeOption()) + " first.");
        }
        if (headed) {
            main.out().println(url.displayUrl() + ":");
        }
        Catalog live;
        try (SchemaSource schemaSource = Sources.open(url)) {
            live = schemaSource.introspect(IntrospectionOptions.withoutSamples());
        }
        List<SchemaDrift.Change> changes = SchemaDrift.between(stored, live);
        if (changes.isEmpty()) {
            main.out().println("In sync: " + url.displayUrl() + " has the " + live.tables().size() + " tables and "
                    + live.columnCount() + " columns the store indexed.");
            return 0;
        }
        changes.forEach(main.out()::println);
        main.out().println(changes.size() + " difference" + (changes.size() == 1 ? "" : "s") + " since the last index of "
                + url.displayUrl() + "; " + source.indexAdvice(url, main.storeOption()) + " to update the store.");
        return 1;
    }
}
