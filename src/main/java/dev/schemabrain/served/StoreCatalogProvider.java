package dev.schemabrain.served;

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
import dev.schemabrain.pii.ChannelPolicy;
import dev.schemabrain.pii.PiiTags;
import dev.schemabrain.store.SubjectPolicyRepository;
import dev.schemabrain.store.PiiAllowanceRepository;
import dev.schemabrain.store.PiiRepository;
import dev.schemabrain.store.SemanticLayer;
import dev.schemabrain.semantic.model.SemanticModel;
import dev.schemabrain.store.CatalogVersion;
import dev.schemabrain.retrieve.VectorIndex;
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
import java.lang.ref.Cleaner;
import java.nio.file.attribute.BasicFileAttributes;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collections;
import java.util.Objects;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.time.Duration;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.List;
import java.util.Optional;

/**
 * Serves the store's catalog, reloading it when the catalog in the store changes (a re-index, apply,
 * import or policy change while the server runs), so a long-lived server never answers from a stale
 * index. Each call asks the store for its catalog version, which moves with catalog rows and not with
 * the audit witness every call writes, so recording a call never makes the next one reload the catalog.
 * The question goes through one read-only connection kept between calls (opening one per call cost more
 * than the tool); it is reopened when the file at the path is replaced and closed when it is gone or
 * the provider is collected. A store without the version (older than V4) is reloaded whenever its file
 * or WAL changes size or modification time.
 */
public final class StoreCatalogProvider implements CatalogProvider {

    private static final Logger LOG = LoggerFactory.getLogger(StoreCatalogProvider.class);
    /** Closes the kept connection of a provider nobody holds any more (tests make many). */
    private static final Cleaner CLEANER = Cleaner.create();

    private final Path store;
    private final StoreLocation location;
    private final CatalogVersionPoll poll;   // a PostgreSQL store: no file to stat, the version is polled
    private final Supplier<Function<String, float[]>> queryEmbedder;
    private final Supplier<Function<List<String>, List<float[]>>> passageEmbedder;
    private final Optional<BlockList> blockList;
    private final VersionProbe probe;
    private volatile Loaded loaded;
    private final ReentrantLock loading = new ReentrantLock();
    private volatile Duration loadWait = LOAD_WAIT;
    /** A large catalog loads in seconds; a store that does not answer for this long is better said than waited on. */
    static final Duration LOAD_WAIT = Duration.ofSeconds(30);

    /**
     * Metric search is lexical: only questions have an embedder here.
     *
     * @param queryEmbedder embeds questions; answers null when no model can be loaded (retrieval is then lexical)
     * @param blockList     the server's block list; without one, the store's (from policy apply), else the floor
     */
    public StoreCatalogProvider(StoreLocation location, Supplier<Function<String, float[]>> queryEmbedder,
                                Optional<BlockList> blockList) {
        this(location, queryEmbedder, () -> null, blockList);
    }

    /** @param passageEmbedder embeds the metrics' documents; answers null when no model can be loaded */
    private StoreCatalogProvider(StoreLocation location, Supplier<Function<String, float[]>> queryEmbedder,
                                 Supplier<Function<List<String>, List<float[]>>> passageEmbedder, Optional<BlockList> blockList) {
        this.location = location;
        this.passageEmbedder = passageEmbedder;
        this.store = Stores.file(location).orElse(null);
        this.poll = store == null ? new CatalogVersionPoll(location, CatalogVersionPoll.DEFAULT_INTERVAL_MILLIS) : null;
        this.queryEmbedder = queryEmbedder;
        this.blockList = blockList;
        this.probe = store == null ? null : new VersionProbe(store);
        if (probe != null) {
            CLEANER.register(this, probe::close);
        }
    }

    /** Questions are embedded with the shared local model. */
    public StoreCatalogProvider(Path store, Optional<BlockList> blockList) {
        this(StoreLocation.file(store), blockList);
    }

    public StoreCatalogProvider(StoreLocation location, Optional<BlockList> blockList) {
        this(location, StoreCatalogProvider::sharedModel, StoreCatalogProvider::sharedPassageModel, blockList);
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

    private static Function<List<String>, List<float[]>> sharedPassageModel() {
        Function<String, float[]> questions = sharedModel();
        return questions == null ? null : Embedders.shared()::embedPassages;
    }

    private record Loaded(List<Object> stamp, Optional<String> version, Optional<ServedCatalog> catalog) {
    }

    @Override
    public Optional<ServedCatalog> current() {
        Optional<String> version = poll != null ? poll.version() : probe.version();
        Loaded l = loaded;
        if (fresh(l, version)) {
            return l.catalog;
        }
        // A call waits for a load under way (the server's first, or after a re-index) for a bound, not for ever.
        try {
            if (!loading.tryLock(loadWait.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new StillLoading("the catalog is still loading after " + loadWait.toSeconds() + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StillLoading("interrupted while the catalog loads");
        }
        try {
            l = loaded;
            if (fresh(l, version)) {
                return l.catalog;
            }
            // Read before the load: a catalog write in between only costs one more reload, never a stale answer.
            l = new Loaded(version.isPresent() ? List.of() : stamp(), version, load());
            loaded = l;
            return l.catalog;
        } finally {
            loading.unlock();
        }
    }

    @Override
    public Optional<ServedCatalog> currentWithoutWaiting() {
        Loaded l = loaded;
        return loading.isLocked() ? (l == null ? Optional.empty() : l.catalog) : current();
    }

    /** How long a call waits for a load under way before it is told to retry; tests shorten it. */
    void waitForLoadsAtMost(Duration bound) {
        loadWait = bound;
    }

    /** Whether {@code l} still serves the store: the same version, or for a store without one the same files. */
    private boolean fresh(Loaded l, Optional<String> version) {
        if (l == null || !l.version.equals(version)) {
            return false;
        }
        return version.isPresent() || l.stamp.equals(stamp());
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
                // A store indexed before the channel policy existed may still hold comments, free-text samples and person values.
                Catalog catalog = ChannelPolicy.apply(pii.withoutTaggedSamples(snapshot.catalog()), pii);
                BlockList block = blockList.isPresent() ? blockList.get()
                        : PiiRepository.blockList(c).orElse(BlockList.FLOOR);
                List<TableDocuments> documents = documents(catalog, snapshot.documents());
                Map<QualifiedName, String> descriptions = new HashMap<>();
                documents.forEach(d -> descriptions.put(d.table(), d.description().text()));
                SemanticModel semantic = SemanticLayer.load(c, catalog, descriptions::get);
                // The vectors last, streamed into int8: holding a million columns' floats at once doubled the heap.
                VectorIndex.Builder vectors = VectorIndex.builder(catalog.tables());
                StoreSnapshot.embeddings(c, (key, bytes) -> vectors.put(key, Vectors.fromBytes(bytes)));
                ServedCatalog served = new ServedCatalog(snapshot.schemas(), catalog, documents,
                        vectors.build(), queryEmbedder, passageEmbedder, semantic, pii, block, SubjectPolicyRepository.read(c),
                        snapshot.tableSources());
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
        if (stored == null || stored.description() == null || stored.origin() == null) {
            return fallback;
        }
        DescriptionOrigin origin = DescriptionOrigin.fromWire(stored.origin());
        // A stored description may quote a database comment written before comments were redacted.
        return new Description(ChannelPolicy.redact(stored.description()), origin, origin == DescriptionOrigin.LLM ? draft(stored.llm()) : null);
    }

    /** The stored record of a model's description; a name that cleans to nothing leaves it unknown. */
    private static Description.LlmDraft draft(DocumentRepository.LlmAuthor author) {
        String model = author == null ? null : Description.LlmDraft.cleanModel(author.model());
        return model == null ? null : new Description.LlmDraft(model, "medium".equals(author.confidence()));
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

    /**
     * The catalog version, read through one kept read-only connection only when the store's files say something
     * may have changed. A call's check is two file stats and a volatile read, with no lock: the version's SQL
     * (synchronized, as a JDBC connection serves one thread at a time) ran on every call and was a quarter of the
     * native time of a describe_table over HTTP and most of the lock waits at high concurrency. A file whose stats
     * did not move is still re-read once a second, as a commit can leave the WAL's size and coarse mtime as they were.
     */
    private static final class VersionProbe {
        private static final long RECHECK_NANOS = 1_000_000_000L;

        /** What the files looked like when the version was read, and the version read. */
        private record Seen(List<Object> files, long readAt, Optional<String> version) {
        }

        private final Path store;
        private final Path wal;
        private volatile Seen seen;
        private Connection connection;
        private Object openedOn;

        VersionProbe(Path store) {
            this.store = store;
            this.wal = store.resolveSibling(store.getFileName() + "-wal");
        }

        Optional<String> version() {
            List<Object> files = files();
            Seen s = seen;
            if (s != null && s.files.equals(files) && System.nanoTime() - s.readAt < RECHECK_NANOS) {
                return s.version;
            }
            return read(files);
        }

        /** The store's and its WAL's identity, size and modification time; nulls for a file that is not there. */
        private List<Object> files() {
            List<Object> out = new ArrayList<>(6);
            for (Path p : new Path[] {store, wal}) {
                try {
                    BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
                    out.add(Objects.requireNonNullElse(a.fileKey(), a.isRegularFile()));
                    out.add(a.size());
                    out.add(a.lastModifiedTime().to(TimeUnit.NANOSECONDS));
                } catch (IOException gone) {
                    out.add(null);
                    out.add(-1L);
                    out.add(-1L);
                }
            }
            return Collections.unmodifiableList(out);
        }

        private synchronized Optional<String> read(List<Object> files) {
            long at = System.nanoTime();
            Optional<String> version = versionNow();
            seen = new Seen(files, at, version);
            return version;
        }

        /** Empty when there is nothing to read: no store, an empty file, or one older than V4. */
        private Optional<String> versionNow() {
            BasicFileAttributes now;
            try {
                now = Files.readAttributes(store, BasicFileAttributes.class);
            } catch (IOException gone) {
                now = null;
            }
            Object key = now == null ? null : Objects.requireNonNullElse(now.fileKey(), "");
            if (connection != null && !Objects.equals(key, openedOn)) {
                close();   // deleted or replaced: the kept connection reads the old file
            }
            if (now == null || !now.isRegularFile() || now.size() == 0) {
                return Optional.empty();
            }
            try {
                if (connection == null) {
                    connection = CatalogVersion.openReadOnly(store);
                    openedOn = key;
                }
                return CatalogVersion.of(connection);
            } catch (SQLException e) {
                close();
                return Optional.empty();
            }
        }

        synchronized void close() {
            if (connection != null) {
                try {
                    connection.close();
                } catch (SQLException ignored) {
                    // Read-only: nothing is lost with it.
                }
                connection = null;
            }
        }
    }
}
