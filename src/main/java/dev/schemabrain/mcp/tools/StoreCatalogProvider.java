package dev.schemabrain.mcp.tools;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.store.CatalogRepository;
import dev.schemabrain.store.SchemaSummary;
import dev.schemabrain.store.SqliteStore;
import dev.schemabrain.store.StoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Serves the store's catalog, reloading it when the store file changes on disk (a re-index while the
 * server runs), so a long-lived server never answers from a stale index and never holds the file open
 * between calls. A change is noticed by size and modification time of the file and its WAL: a stat
 * per call, far cheaper than a query.
 */
public final class StoreCatalogProvider implements CatalogProvider {

    private static final Logger LOG = LoggerFactory.getLogger(StoreCatalogProvider.class);

    private final Path store;
    private volatile Loaded loaded;

    public StoreCatalogProvider(Path store) {
        this.store = store;
    }

    private record Loaded(List<Object> stamp, Optional<ServedCatalog> catalog) {
    }

    @Override
    public Optional<ServedCatalog> current() {
        List<Object> stamp = stamp();
        Loaded l = loaded;
        if (l != null && l.stamp.equals(stamp)) {
            return l.catalog;
        }
        synchronized (this) {
            l = loaded;
            if (l == null || !l.stamp.equals(stamp)) {
                l = new Loaded(stamp, load());
                loaded = l;
            }
            return l.catalog;
        }
    }

    private Optional<ServedCatalog> load() {
        if (!SqliteStore.exists(store)) {
            return Optional.empty();
        }
        try (SqliteStore opened = SqliteStore.open(store)) {
            return opened.read(c -> {
                List<SchemaSummary> schemas = CatalogRepository.schemas(c);
                List<Table> tables = new ArrayList<>();
                Set<String> seen = new HashSet<>();
                for (String sourceId : schemas.stream().map(SchemaSummary::sourceId).distinct().sorted().toList()) {
                    for (Table t : CatalogRepository.catalog(c, sourceId).tables()) {
                        // Two sources with the same schema.table: the first source (by id) is served.
                        if (seen.add(t.name().toString())) {
                            tables.add(t);
                        } else {
                            LOG.warn("{} is indexed from two sources; serving the one from the first source", t.name());
                        }
                    }
                }
                ServedCatalog served = new ServedCatalog(schemas, new Catalog(tables));
                return served.isEmpty() ? Optional.<ServedCatalog>empty() : Optional.of(served);
            });
        } catch (StoreException e) {
            LOG.warn("cannot read the store {}: {}", store, e.getMessage());
            return Optional.empty();
        }
    }

    private List<Object> stamp() {
        List<Object> stamp = new ArrayList<>(4);
        for (Path p : List.of(store, store.resolveSibling(store.getFileName() + "-wal"))) {
            try {
                stamp.add(Files.size(p));
                stamp.add(Files.getLastModifiedTime(p).toMillis());
            } catch (IOException e) {
                stamp.add(-1L);
                stamp.add(-1L);
            }
        }
        return stamp;
    }
}
