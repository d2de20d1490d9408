package dev.schemabrain.index;

import dev.schemabrain.error.SourceException;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.store.CatalogRepository;
import dev.schemabrain.store.Store;
import dev.schemabrain.store.StoreLocation;
import dev.schemabrain.store.Stores;
import dev.schemabrain.error.StoreException;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Stores written before the display URL kept only allow-listed parameters may hold a secret parameter
 * (?sslpassword=...) in {@code sources.display_url}, and a source id hashed from it. Before an index
 * run reads the store, every such source is re-keyed to the id and URL of today's display form, so its
 * rows are found again under the new id and the secret is overwritten (secure_delete).
 */
final class SourceScrub {

    private SourceScrub() {
    }

    /** Answers the number of sources rewritten; writes nothing when none needs it. */
    static int run(StoreLocation storePath) throws StoreException {
        try (Store store = Stores.open(storePath)) {
            Map<String, SourceUrl> rewrites = new LinkedHashMap<>();
            store.read(CatalogRepository::sourceUrls).forEach((id, display) -> {
                try {
                    SourceUrl now = SourceUrl.parse(display);
                    if (!now.displayUrl().equals(display)) {
                        rewrites.put(id, now);
                    }
                } catch (SourceException unparsable) {
                    // Not a URL this build reads: left as it is.
                }
            });
            if (!rewrites.isEmpty()) {
                store.write(c -> {
                    for (Map.Entry<String, SourceUrl> e : rewrites.entrySet()) {
                        CatalogRepository.rekeySource(c, e.getKey(), e.getValue().sourceId(), e.getValue().displayUrl());
                    }
                    return null;
                });
            }
            return rewrites.size();
        }
    }
}
