package dev.schemabrain.store;

import dev.schemabrain.engine.Engines;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.error.SourceException;
import dev.schemabrain.error.StoreException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What {@code serve} checks before it answers anything: the store is one nobody else could have planted
 * (see {@link SqliteStore#checkPrivate}; a PostgreSQL store: {@link StoreOwnership}), and the database get_metric runs on is one the store was
 * indexed from. PII tags, the semantic layer and the catalog describe the indexed source: served against
 * another database they would tag the wrong columns and leave the other database's PII unguarded.
 */
public final class ServedSource {

    private ServedSource() {
    }

    /**
     * @param sourceId  the id of get_metric's source, when serve has one
     * @param displayUrl its display URL (never credentials), for the message
     */
    public static void check(Path store, Optional<String> sourceId, Optional<String> displayUrl) throws StoreException {
        check(StoreLocation.file(store), sourceId, displayUrl);
    }

    public static void check(StoreLocation store, Optional<String> sourceId, Optional<String> displayUrl) throws StoreException {
        if (!Stores.exists(store)) {
            // Serve starts before anything is indexed (tools answer index_not_ready); its directory must still be private.
            SqliteStore.checkPrivate(((StoreLocation.SqliteFile) store).path());
            return;
        }
        Map<String, String> indexed;
        try (Store opened = Stores.open(store)) {
            StoreOwnership.check(opened);
            indexed = opened.read(CatalogRepository::sourceUrls);
        }
        if (sourceId.isEmpty() || indexed.isEmpty() || indexed.containsKey(sourceId.get())) {
            return;
        }
        String from = String.join(", ", indexed.values());
        throw new StoreException("The store " + store + " was indexed from " + from + ", not from "
                + displayUrl.orElse("the --source given") + ", so its PII tags and catalog do not describe that database;"
                + " index this source into the store first (schemabrain index --add-source --source URL) or pass the --store indexed from it.");
    }

    /**
     * With any source given, every source of the store needs its own: serving a store's tables without a connection
     * for their database would answer each call on them with an error. No source may be given twice.
     *
     * @param sourceIds   the ids of the sources given, in order
     * @param displayUrls their display URLs (never credentials), for the message
     */
    public static void checkAll(StoreLocation store, List<String> sourceIds, List<String> displayUrls)
            throws StoreException {
        checkAll(store, sourceIds, displayUrls, "serve");
    }

    /** @param command the command given the sources (serve, or init writing serve's arguments), for the message */
    public static void checkAll(StoreLocation store, List<String> sourceIds, List<String> displayUrls,
                                String command) throws StoreException {
        for (int i = 0; i < sourceIds.size(); i++) {
            if (sourceIds.indexOf(sourceIds.get(i)) != i) {
                throw new StoreException("The source " + displayUrls.get(i) + " is given twice; give each source of the"
                        + " store once.");
            }
        }
        if (sourceIds.isEmpty() || !Stores.exists(store)) {
            return;
        }
        Map<String, String> indexed;
        try (Store opened = Stores.open(store)) {
            indexed = opened.read(CatalogRepository::sourceUrls);
        }
        List<String> missing = indexed.entrySet().stream().filter(e -> !sourceIds.contains(e.getKey()))
                .filter(e -> storedFile(e.getKey(), e.getValue()).isEmpty())
                .map(Map.Entry::getValue).sorted().toList();
        if (!missing.isEmpty()) {
            throw new StoreException("The store " + store + " holds " + indexed.size() + " sources and " + command + " was given no"
                    + " connection for " + String.join(", ", missing) + "; pass --url-env VAR (or --source URL) once for"
                    + " each source of the store, so every table it serves can be queried.");
        }
    }

    /**
     * The sources of {@code store} other than those given that serve opens from the path the store records: a SQLite
     * or DuckDB file, whose URL holds no secret and names the very file indexed. A database on a server needs its own
     * --url-env or --source. None when nothing is given (serve then runs no statement at all).
     */
    public static List<SourceUrl> storedFiles(StoreLocation store, List<String> givenIds)
            throws StoreException {
        if (givenIds.isEmpty() || !Stores.exists(store)) {
            return List.of();
        }
        Map<String, String> indexed;
        try (Store opened = Stores.open(store)) {
            indexed = opened.read(CatalogRepository::sourceUrls);
        }
        List<SourceUrl> files = new ArrayList<>();
        indexed.forEach((id, display) -> {
            if (!givenIds.contains(id)) {
                storedFile(id, display).ifPresent(files::add);
            }
        });
        return files;
    }

    private static Optional<SourceUrl> storedFile(String id, String display) {
        try {
            SourceUrl url = SourceUrl.parse(display);
            boolean file = url.path() != null && url.host() == null && !url.hasPassword()
                    && Engines.of(url.kind()).isPresent() && Files.isRegularFile(url.path());
            return file && url.sourceId().equals(id) ? Optional.of(url) : Optional.empty();
        } catch (SourceException unparsable) {
            return Optional.empty();
        }
    }
}
