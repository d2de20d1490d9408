package dev.schemabrain.mcp.tools;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.describe.Description;
import dev.schemabrain.describe.DescriptionOrigin;
import dev.schemabrain.describe.OfflineDescriber;
import dev.schemabrain.describe.TableDocuments;
import dev.schemabrain.describe.Words;
import dev.schemabrain.embed.Embedder;
import dev.schemabrain.embed.Embedders;
import dev.schemabrain.embed.Vectors;
import dev.schemabrain.embed.WordVocabulary;
import dev.schemabrain.pii.BlockList;
import dev.schemabrain.pii.PiiTags;
import dev.schemabrain.store.PiiAllowanceRepository;
import dev.schemabrain.store.PiiRepository;
import dev.schemabrain.store.SemanticLayer;
import dev.schemabrain.semantic.model.SemanticModel;
import dev.schemabrain.store.CatalogVersion;
import dev.schemabrain.store.DocumentKey;
import dev.schemabrain.store.DocumentRepository;
import dev.schemabrain.store.StoreSnapshot;
import dev.schemabrain.store.CatalogVersionPoll;
import dev.schemabrain.store.Store;
import dev.schemabrain.store.StoreLocation;
import dev.schemabrain.store.Stores;
import dev.schemabrain.error.StoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.List;
import java.util.Optional;

/**
 * Serves the store's catalog, reloading it when the catalog in the store changes (a re-index, apply,
 * import or policy change while the server runs), so a long-lived server never answers from a stale
 * index and never holds the file open between calls. A stat per call (size and modification time of
 * the file and its WAL) notices that something was written; only then is the store's catalog version
 * read, which moves with catalog rows and not with the audit witness every call writes, so recording a
 * call never makes the next one reload the catalog. A store without the version (older than V4) is
 * reloaded whenever the file changes.
 */
public final class StoreCatalogProvider implements CatalogProvider {

    private static final Logger LOG = LoggerFactory.getLogger(StoreCatalogProvider.class);

    private final Path store;
    private final StoreLocation location;
    private final CatalogVersionPoll poll;   // a PostgreSQL store: no file to stat, the version is polled
    private final Supplier<Function<String, float[]>> queryEmbedder;
    private final Optional<BlockList> blockList;
    private volatile Loaded loaded;

    /**
     * @param queryEmbedder embeds questions; answers null when no model can be loaded (retrieval is then lexical)
     * @param blockList     the server's block list; without one, the store's (from policy apply), else the floor
     */
    public StoreCatalogProvider(Path store, Supplier<Function<String, float[]>> queryEmbedder, Optional<BlockList> blockList) {
        this(StoreLocation.file(store), queryEmbedder, blockList);
    }

    public StoreCatalogProvider(StoreLocation location, Supplier<Function<String, float[]>> queryEmbedder,
                                Optional<BlockList> blockList) {
        this.location = location;
        this.store = Stores.file(location).orElse(null);
        this.poll = store == null ? new CatalogVersionPoll(location, CatalogVersionPoll.DEFAULT_INTERVAL_MILLIS) : null;
        this.queryEmbedder = queryEmbedder;
        this.blockList = blockList;
    }

    /** Questions are embedded with the shared local model. */
    public StoreCatalogProvider(Path store, Optional<BlockList> blockList) {
        this(store, StoreCatalogProvider::sharedModel, blockList);
    }

    public StoreCatalogProvider(StoreLocation location, Optional<BlockList> blockList) {
        this(location, StoreCatalogProvider::sharedModel, blockList);
    }

    public StoreCatalogProvider(Path store) {
        this(store, Optional.empty());
    }

    private static Function<String, float[]> sharedModel() {
        try {
            Embedder model = Embedders.shared();
            return model::embedQuery;
        } catch (RuntimeException e) {
            LOG.warn("the embedding model cannot be loaded ({}); table retrieval falls back to keywords", e.getMessage());
            return null;
        }
    }

    private record Loaded(List<Object> stamp, Optional<String> version, Optional<ServedCatalog> catalog) {
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
            if (l != null && l.stamp.equals(stamp)) {
                return l.catalog;
            }
            // Read before the load: a catalog write in between only costs one more reload, never a stale answer.
            Optional<String> version = version();
            if (l != null && version.isPresent() && version.equals(l.version)) {
                l = new Loaded(stamp, version, l.catalog);   // the file moved, the catalog did not (an audit witness)
            } else {
                l = new Loaded(stamp, version, load());
            }
            loaded = l;
            return l.catalog;
        }
    }

    /** The store's catalog version; empty when there is none to read (no store, or one older than V4). */
    private Optional<String> version() {
        if (poll != null) {
            return poll.version();
        }
        try {
            return CatalogVersion.of(store);
        } catch (StoreException e) {
            return Optional.empty();
        }
    }

    private Optional<ServedCatalog> load() {
        if (!Stores.exists(location)) {
            return Optional.empty();
        }
        try (Store opened = Stores.open(location)) {
            return opened.read(c -> {
                StoreSnapshot snapshot = StoreSnapshot.read(c);
                PiiTags pii = PiiRepository.tags(c).withAllowances(PiiAllowanceRepository.allowances(c));
                // Overrides applied since the last index may tag columns whose samples are still stored.
                Catalog catalog = pii.withoutTaggedSamples(snapshot.catalog());
                BlockList block = blockList.isPresent() ? blockList.get()
                        : PiiRepository.blockList(c).orElse(BlockList.FLOOR);
                List<TableDocuments> documents = documents(catalog, snapshot.documents());
                Map<QualifiedName, String> descriptions = new HashMap<>();
                documents.forEach(d -> descriptions.put(d.table(), d.description().text()));
                SemanticModel semantic = SemanticLayer.load(c, catalog, descriptions::get);
                ServedCatalog served = new ServedCatalog(snapshot.schemas(), catalog, documents,
                        vectors(snapshot.documents()), queryEmbedder, semantic, pii, block);
                return served.isEmpty() ? Optional.<ServedCatalog>empty() : Optional.of(served);
            });
        } catch (StoreException e) {
            LOG.warn("cannot read the store {}: {}", location, e.getMessage());
            return Optional.empty();
        }
    }

    /** The describer's documents (lexical texts), with the stored descriptions where the store has one. */
    private static List<TableDocuments> documents(Catalog catalog, Map<DocumentKey, DocumentRepository.ServedDocument> stored) {
        List<TableDocuments> documents = new ArrayList<>();
        for (TableDocuments t : new OfflineDescriber(new Words(WordVocabulary.get().words())).describe(catalog)) {
            List<TableDocuments.ColumnDocument> columns = t.columns().stream()
                    .map(c -> new TableDocuments.ColumnDocument(c.column(),
                            storedOr(stored.get(DocumentKey.column(t.table(), c.column())), c.description()), c.text()))
                    .toList();
            documents.add(new TableDocuments(t.table(), storedOr(stored.get(DocumentKey.table(t.table())), t.description()),
                    t.tableText(), t.lexicalText(), columns));
        }
        return documents;
    }

    private static Description storedOr(DocumentRepository.ServedDocument stored, Description fallback) {
        return stored == null || stored.description() == null || stored.origin() == null ? fallback
                : new Description(stored.description(), DescriptionOrigin.fromWire(stored.origin()));
    }

    private static Map<DocumentKey, float[]> vectors(Map<DocumentKey, DocumentRepository.ServedDocument> stored) {
        Map<DocumentKey, float[]> vectors = new HashMap<>();
        stored.forEach((key, d) -> {
            if (d.embedding() != null) {
                vectors.put(key, Vectors.fromBytes(d.embedding()));
            }
        });
        return vectors;
    }

    private List<Object> stamp() {
        if (poll != null) {
            return List.of(poll.version());
        }
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
