package dev.schemabrain.index;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.source.IntrospectionOptions;
import dev.schemabrain.source.SchemaSource;
import dev.schemabrain.source.SourceException;
import dev.schemabrain.source.SourceUrl;
import dev.schemabrain.store.CatalogChanges;
import dev.schemabrain.store.CatalogRepository;
import dev.schemabrain.store.SqliteStore;
import dev.schemabrain.store.StoreException;
import dev.schemabrain.store.StoredTable;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * One index run: check the store, introspect the source, fingerprint and compare, then write all
 * changes in a single store transaction. Nothing touches the store file before the source has been
 * read completely, so a source failure leaves the store byte-for-byte as it was.
 */
public final class Indexer {

    private final Clock clock;

    public Indexer(Clock clock) {
        this.clock = clock;
    }

    public Indexer() {
        this(Clock.systemUTC());
    }

    public IndexResult run(SourceUrl url, SchemaSource source, Path storePath, boolean dryRun, IndexListener listener)
            throws SourceException, StoreException {
        Instant startedAt = clock.instant();
        String sourceId = url.sourceId();
        boolean storeExisted = SqliteStore.exists(storePath);
        List<StoredTable> stored = List.of();
        if (storeExisted) {
            // Opening validates the file (a store, not from a newer version) before any source work.
            try (SqliteStore store = SqliteStore.open(storePath)) {
                stored = store.read(c -> CatalogRepository.load(c, sourceId));
            }
        }
        Map<QualifiedName, Table> previous = stored.stream().filter(t -> !t.deprecated())
                .collect(Collectors.toMap(t -> t.table().name(), StoredTable::table));
        Function<QualifiedName, Optional<Table>> lookup = name -> Optional.ofNullable(previous.get(name));

        listener.stage("Reading the catalog of " + url.displayUrl());
        long t0 = System.nanoTime();
        Catalog catalog = source.introspect(new IntrospectionOptions(true, lookup, listener));
        long introspectMillis = millisSince(t0);

        listener.stage("Comparing " + catalog.tables().size() + " tables with the store");
        long t1 = System.nanoTime();
        CatalogChanges changes = CatalogDiff.compute(new CatalogDiff.Run(sourceId, url.kind().wireName(),
                url.displayUrl(), startedAt, clock.instant(), introspectMillis), catalog, stored);
        long diffMillis = millisSince(t1);

        long writeMillis = 0;
        int purged = 0;
        if (!dryRun) {
            listener.stage("Writing the store " + storePath);
            long t2 = System.nanoTime();
            purged = write(storePath, storeExisted, changes, t2);
            writeMillis = millisSince(t2);
        }
        return new IndexResult(sourceId, url.displayUrl(), catalog.tables().size(), catalog.columnCount(),
                catalog.foreignKeyCount(), changes.counts(), purged, introspectMillis, diffMillis, writeMillis, dryRun);
    }

    private static int write(Path storePath, boolean storeExisted, CatalogChanges changes, long startNanos)
            throws StoreException {
        boolean committed = false;
        try (SqliteStore store = SqliteStore.openOrCreate(storePath)) {
            int purged = store.write(c -> {
                int n = CatalogRepository.apply(c, changes);
                CatalogRepository.recordRun(c, changes, millisSince(startNanos), n);
                return n;
            });
            committed = true;
            return purged;
        } finally {
            if (!committed && !storeExisted) {
                deleteQuietly(storePath);
            }
        }
    }

    /** A store this run created but could not fill is removed, never left half-written. */
    private static void deleteQuietly(Path storePath) {
        for (String suffix : new String[]{"", "-wal", "-shm", "-journal"}) {
            try {
                Files.deleteIfExists(Path.of(storePath + suffix));
            } catch (IOException ignored) {
                // Best effort: a leftover empty file is still recognised as an unwritten store.
            }
        }
    }

    private static long millisSince(long startNanos) {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }
}
