package dev.schemabrain.mining;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.engine.LoggedStatement;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.pii.PiiTags;
import dev.schemabrain.semantic.model.SemanticModel;
import dev.schemabrain.store.CatalogRepository;
import dev.schemabrain.store.PiiRepository;
import dev.schemabrain.store.QueryLogRepository;
import dev.schemabrain.store.QueryLogRepository.Example;
import dev.schemabrain.store.SemanticLayer;
import dev.schemabrain.store.Store;
import dev.schemabrain.store.StoreLocation;
import dev.schemabrain.store.Stores;
import dev.schemabrain.testing.InProcessCli;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The store file a mining test indexes and mines into through the CLI, read back through the repository. */
record MinedStore(Path file) {

    InProcessCli.Result cli(String... args) {
        String[] all = new String[args.length + 2];
        all[0] = "--store";
        all[1] = file.toString();
        System.arraycopy(args, 0, all, 2, args.length);
        return InProcessCli.run(all);
    }

    /** A command's stdout, after asserting it succeeded. */
    static String ok(InProcessCli.Result r) {
        assertEquals(0, r.exitCode(), () -> r.stdout() + r.stderr());
        return r.stdout();
    }

    /** Every stored statement of the source at {@code url}, most observed first. */
    List<Example> stored(String url) throws Exception {
        try (Store s = Stores.open(StoreLocation.file(file))) {
            String sourceId = SourceUrl.parse(url).sourceId();
            return s.read(c -> QueryLogRepository.all(c, sourceId));
        }
    }

    /**
     * Mines {@code logged} as a log that keeps its literals delivers it (MySQL 8's QUERY_SAMPLE_TEXT, a server log):
     * analysed against the store's catalog with {@code schema} as the search path, merged, drafts refreshed, as
     * mine-queries does after reading its engine.
     */
    void mineLog(String url, String schema, List<dev.schemabrain.engine.LoggedStatement> logged) throws Exception {
        String sourceId = SourceUrl.parse(url).sourceId();
        try (Store store = Stores.open(StoreLocation.file(file))) {
            dev.schemabrain.catalog.Catalog catalog = store.read(c -> dev.schemabrain.store.CatalogRepository.catalog(c, sourceId));
            dev.schemabrain.pii.PiiTags pii = store.read(dev.schemabrain.store.PiiRepository::tags);
            LogAnalysis.Result analysis = LogAnalysis.analyze(logged, catalog, List.of(schema), pii,
                    QueryLogMiner.loggedLexical(SourceUrl.parse(url)));
            store.write(c -> {
                QueryLogRepository.merge(c, sourceId, Optional.empty(), analysis.statements(), Instant.now());
                SemanticLayer.refreshDrafts(c);
                return null;
            });
        }
    }

    /** The semantic layer the store holds. */
    SemanticModel semanticLayer() throws Exception {
        try (Store store = Stores.open(StoreLocation.file(file))) {
            return store.read(SemanticLayer::stored);
        }
    }

    Map<QueryLogRepository.StoredJoin, Long> joins() throws Exception {
        try (Store s = Stores.open(StoreLocation.file(file))) {
            return s.read(QueryLogRepository::joinObservations);
        }
    }
}
