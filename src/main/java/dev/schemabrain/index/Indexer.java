package dev.schemabrain.index;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.ValuePolicy;
import dev.schemabrain.engine.IntrospectionOptions;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.error.SourceException;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.store.SemanticLayer;
import dev.schemabrain.store.CatalogChanges;
import dev.schemabrain.store.CatalogRepository;
import dev.schemabrain.store.Store;
import dev.schemabrain.store.StoreLocation;
import dev.schemabrain.store.Stores;
import dev.schemabrain.error.StoreException;
import dev.schemabrain.store.StoredTable;
import dev.schemabrain.store.StoreWork;
import java.util.HashSet;
import java.util.Set;

import java.nio.file.Path;
import dev.schemabrain.describe.OfflineDescriber;
import dev.schemabrain.describe.Words;
import dev.schemabrain.embed.Embedder;
import dev.schemabrain.embed.Embedders;
import dev.schemabrain.embed.WordVocabulary;
import dev.schemabrain.store.DocumentKey;
import dev.schemabrain.store.DocumentRepository;
import dev.schemabrain.store.PiiAllowanceRepository;
import dev.schemabrain.store.PiiRepository;
import dev.schemabrain.pii.Allowance;
import dev.schemabrain.pii.PiiClassifier;
import dev.schemabrain.pii.PiiTags;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * One index run: check the store, introspect the source, classify PII (dropping tagged columns' samples),
 * fingerprint and compare, describe and embed what changed, then write everything in a single store transaction. Nothing touches the store file
 * before the source has been read and embedded completely, so a failure leaves the store
 * byte-for-byte as it was. (The one earlier write: a store from before display URLs were allow-listed has
 * its sources re-keyed first, see {@link SourceScrub}.)
 */
public final class Indexer {

    private final Clock clock;
    private final DocumentStage documents;
    private final String modelId;
    private final DescriptionEnricher enricher;

    /** @param embedder the embedding model, asked for only when a document needs embedding */
    public Indexer(Clock clock, Supplier<Embedder> embedder, String modelId) {
        this(clock, new DocumentStage(new OfflineDescriber(new Words(WordVocabulary.get().words())), embedder, modelId),
                modelId, DescriptionEnricher.NONE);
    }

    private Indexer(Clock clock, DocumentStage documents, String modelId, DescriptionEnricher enricher) {
        this.clock = clock;
        this.documents = documents;
        this.modelId = modelId;
        this.enricher = enricher;
    }

    /** This indexer with descriptions from {@code enricher} laid over the offline describer's. */
    public Indexer enrichedBy(DescriptionEnricher enricher) {
        return new Indexer(clock, documents, modelId, enricher);
    }

    public Indexer(Clock clock) {
        this(clock, Embedders::shared, Embedders.MODEL_ID);
    }

    public Indexer() {
        this(Clock.systemUTC());
    }

    public IndexResult run(SourceUrl url, SchemaSource source, Path storePath, boolean dryRun, IndexListener listener)
            throws SourceException, StoreException {
        return run(url, source, StoreLocation.file(storePath), dryRun, listener);
    }

    public IndexResult run(SourceUrl url, SchemaSource source, StoreLocation storePath, boolean dryRun, IndexListener listener)
            throws SourceException, StoreException {
        try {
            return runChecked(url, source, storePath, dryRun, listener);
        } catch (StoreReadFailure e) {
            throw (StoreException) e.getCause();
        }
    }

    private IndexResult runChecked(SourceUrl url, SchemaSource source, StoreLocation storePath, boolean dryRun,
                                   IndexListener listener) throws SourceException, StoreException {
        Instant startedAt = clock.instant();
        long start = System.nanoTime();
        String sourceId = url.sourceId();
        boolean storeExisted = Stores.exists(storePath);
        Optional<String> storedToken = Optional.empty();
        long lastRun = 0;
        String allowed = "";
        Set<QualifiedName> reread = Set.of();
        if (storeExisted) {
            if (!dryRun) {
                SourceScrub.run(storePath);
            }
            // Opening validates the file (a store, not from a newer version) before any source work.
            try (Store store = Stores.open(storePath)) {
                storedToken = store.read(c -> CatalogRepository.catalogToken(c, sourceId));
                lastRun = store.read(c -> CatalogRepository.lastRun(c, sourceId));
                Map<QualifiedName, Map<String, Set<Allowance>>> allowances = store.read(PiiAllowanceRepository::allowances);
                allowed = allowanceToken(allowances);
                reread = rereadTables(allowances);
            }
        }
        // The fingerprint scheme is part of the token: a new describer or classifier version forces a full run.
        String allowedToken = allowed;
        String token = source.catalogToken()
                .map(t -> t + "|" + Fingerprints.DESCRIBER_VERSION + "|" + OfflineDescriber.VERSION + "|" + modelId
                        + "|pii" + PiiClassifier.VERSION + allowedToken).orElse(null);
        if (token != null && storedToken.equals(Optional.of(token)) && !enricher.asks()) {
            return unchanged(url, storePath, token, startedAt, start, dryRun, lastRun);
        }
        // Reading the store overlaps with reading the source's catalog; sampling waits for it.
        CompletableFuture<LoadedStore> loaded = CompletableFuture.supplyAsync(() -> load(storePath, storeExisted, sourceId));
        Set<QualifiedName> rereadTables = reread;
        Function<QualifiedName, Optional<Table>> lookup = name -> rereadTables.contains(name) ? Optional.empty()
                : Optional.ofNullable(join(loaded).previous().get(name));

        listener.stage("Reading the catalog of " + url.displayUrl());
        long t0 = System.nanoTime();
        Catalog catalog;
        try {
            catalog = source.introspect(new IntrospectionOptions(true, lookup, listener));
        } finally {
            loaded.exceptionally(e -> null).join();
        }
        long introspectMillis = millisSince(t0);
        LoadedStore store = join(loaded);
        List<StoredTable> stored = store.tables();
        long loadMillis = store.millis();
        PiiStage.Classified pii = PiiStage.classify(catalog, store.piiTags(), store.piiOverrides(),
                store.allowances());
        catalog = ValuePolicy.bounded(pii.catalog());

        listener.stage("Comparing " + catalog.tables().size() + " tables with the store");
        long t1 = System.nanoTime();
        CatalogChanges changes = CatalogDiff.compute(new CatalogDiff.Run(sourceId, url.kind().wireName(),
                url.displayUrl(), token, startedAt, clock.instant(), introspectMillis), catalog, stored);
        long diffMillis = millisSince(t1);

        listener.stage("Describing and embedding what changed");
        Set<String> piiColumns = pii.heuristic().stream().map(PiiTags.Entry::qualifiedColumn).collect(Collectors.toSet());
        DescriptionEnricher.Enrichment enriched = enricher.enrich(new DescriptionEnricher.Input(sourceId, catalog,
                store.documents(), piiColumns, storePath, storeExisted, dryRun, startedAt));
        DocumentStage.Plan plan = documents.plan(catalog, store.documents(), storedVectors(storePath, sourceId), enriched, dryRun);

        long writeMillis = 0;
        int purged = 0;
        if (!dryRun) {
            listener.stage("Writing the store " + storePath);
            long t2 = System.nanoTime();
            purged = write(storePath, storeExisted, lastRun, changes, plan.writes(), Optional.of(pii.heuristic()),
                    enriched.write(), t2);
            writeMillis = millisSince(t2);
        }
        return new IndexResult(sourceId, url.displayUrl(), catalog.tables().size(), catalog.columnCount(),
                catalog.foreignKeyCount(), pii.heuristic().size(), changes.counts(), purged, loadMillis, introspectMillis, diffMillis,
                new IndexResult.Documents(plan.described(), plan.embedded(), plan.texts(), plan.reused(), plan.describeMillis(), plan.embedMillis()),
                writeMillis, millisSince(start), dryRun);
    }

    /** Nothing the source's token covers has moved: record the run (and purge), touch nothing else. */
    private IndexResult unchanged(SourceUrl url, StoreLocation storePath, String token, Instant startedAt, long start,
                                  boolean dryRun, long lastRun) throws StoreException {
        int[] live;
        int tagged;
        try (Store store = Stores.open(storePath)) {
            live = store.read(c -> CatalogRepository.liveCounts(c, url.sourceId()));
            tagged = store.read(c -> PiiRepository.heuristic(c, Optional.of(url.sourceId())).size());
        }
        Instant now = clock.instant();
        CatalogChanges changes = CatalogChanges.unchanged(url.sourceId(), url.kind().wireName(), url.displayUrl(),
                token, startedAt, now, now.minus(CatalogDiff.RETENTION),
                new CatalogChanges.RunCounts(0, 0, live[0], 0, 0, 0, live[1], 0));
        long t = System.nanoTime();
        int purged = dryRun ? 0 : write(storePath, true, lastRun, changes, List.of(), Optional.empty(), c -> null, t);
        return new IndexResult(url.sourceId(), url.displayUrl(), live[0], live[1], live[2], tagged, changes.counts(), purged,
                0, 0, 0, IndexResult.Documents.NONE, millisSince(t), millisSince(start), dryRun);
    }

    /** @param pii the classifier's tags of this run; empty when the catalog did not move */
    /** @param lastRun the source's last run when this one read the store: another run since makes its changes stale */
    private static int write(StoreLocation storePath, boolean storeExisted, long lastRun, CatalogChanges changes,
                             List<DocumentRepository.DocumentWrite> documents, Optional<List<PiiTags.Entry>> pii,
                             StoreWork<Void> enriched, long startNanos) throws StoreException {
        boolean committed = false;
        try (Store store = Stores.openOrCreate(storePath)) {
            int purged = store.write(c -> {
                if (!store.dialect().tryLockIndexRun(c, changes.sourceId())
                        || CatalogRepository.lastRun(c, changes.sourceId()) != lastRun) {
                    throw new IndexRunBusy();
                }
                int n = CatalogRepository.apply(c, changes);
                DocumentRepository.write(c, changes.sourceId(), documents);
                enriched.run(c);
                if (pii.isPresent()) {
                    PiiRepository.replaceHeuristic(c, changes.sourceId(), pii.get());
                }
                // Drafts follow the catalog in the same transaction; the operator's objects are kept.
                SemanticLayer.refreshDrafts(c);
                CatalogRepository.recordRun(c, changes, millisSince(startNanos), n);
                return n;
            });
            committed = true;
            return purged;
        } catch (IndexRunBusy e) {
            throw new StoreException("Another index run of " + changes.displayUrl() + " is writing " + store(storePath)
                    + "; wait for it to finish and retry.");
        } finally {
            if (!committed && !storeExisted) {   // a store this run created but could not fill is removed
                Stores.deleteUnwritten(storePath);
            }
        }
    }

    private static String store(StoreLocation location) {
        return "the store " + location;
    }

    /** Another run of the same source holds the store's index lock; the transaction rolls back. */
    private static final class IndexRunBusy extends RuntimeException {
        IndexRunBusy() {
            super(null, null, false, false);
        }
    }

    /**
     * The operator's allowances decide which samples and values are read ({@code allow: [samples]}), so a new one
     * must not be skipped as an unchanged catalog; empty when there are none, so older tokens still match.
     */
    private static String allowanceToken(Map<QualifiedName, Map<String, Set<Allowance>>> allowances) {
        if (allowances.isEmpty()) {
            return "";
        }
        TreeSet<String> lines = new TreeSet<>();
        allowances.forEach((t, columns) -> columns.forEach((c, a) -> lines.add(t + "." + c + "=" + new TreeSet<>(a))));
        return "|allow" + Fingerprints.sha256(lines.toArray(String[]::new)).substring(0, 12);
    }

    /**
     * Tables with a column allowed samples or value-index entries: their stored rows were read without them, so
     * reusing those would never bring them back; such a table is read again at every run.
     */
    private static Set<QualifiedName> rereadTables(Map<QualifiedName, Map<String, Set<Allowance>>> allowances) {
        Set<QualifiedName> out = new HashSet<>();
        allowances.forEach((t, columns) -> columns.values().forEach(a -> {
            if (a.contains(Allowance.SAMPLES) || a.contains(Allowance.VALUE_INDEX)) {
                out.add(t);
            }
        }));
        return out;
    }

    private record LoadedStore(List<StoredTable> tables, Map<QualifiedName, Table> previous,
                               Map<DocumentKey, DocumentRepository.StoredDocument> documents,
                               List<PiiTags.Entry> piiTags, List<PiiTags.Entry> piiOverrides,
                               Map<QualifiedName, Map<String, Set<Allowance>>> allowances, long millis) {
    }

    private static LoadedStore load(StoreLocation storePath, boolean storeExisted, String sourceId) {
        long t = System.nanoTime();
        if (!storeExisted) {
            return new LoadedStore(List.of(), Map.of(), Map.of(), List.of(), List.of(), Map.of(), 0);
        }
        try (Store store = Stores.open(storePath)) {
            List<StoredTable> tables = store.read(c -> CatalogRepository.load(c, sourceId));
            Map<DocumentKey, DocumentRepository.StoredDocument> documents = store.read(c -> DocumentRepository.state(c, sourceId));
            Map<QualifiedName, Table> previous = tables.stream().filter(st -> !st.deprecated())
                    .collect(Collectors.toMap(st -> st.table().name(), StoredTable::table));
            List<PiiTags.Entry> piiTags = store.read(c -> PiiRepository.heuristic(c, Optional.of(sourceId)));
            List<PiiTags.Entry> overrides = store.read(PiiRepository::overrides);
            Map<QualifiedName, Map<String, Set<Allowance>>> allowances = store.read(PiiAllowanceRepository::allowances);
            return new LoadedStore(tables, previous, documents, piiTags, overrides, allowances, millisSince(t));
        } catch (StoreException e) {
            throw new CompletionException(e);
        }
    }

    /** Reads stored vectors from the store as it was before this run (nothing has been written yet). */
    private static DocumentStage.StoredVectors storedVectors(StoreLocation storePath, String sourceId) {
        return wanted -> {
            try (Store store = Stores.open(storePath)) {
                return store.read(c -> DocumentRepository.vectors(c, sourceId, wanted));
            } catch (StoreException e) {
                throw new StoreReadFailure(e);
            }
        };
    }

    private static LoadedStore join(CompletableFuture<LoadedStore> loaded) {
        try {
            return loaded.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof StoreException se) {
                throw new StoreReadFailure(se);
            }
            throw e;
        }
    }

    /** Carries a store failure out of the loader thread; unwrapped by {@link #run}. */
    private static final class StoreReadFailure extends RuntimeException {
        StoreReadFailure(StoreException cause) {
            super(cause);
        }
    }

    private static long millisSince(long startNanos) {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }
}
