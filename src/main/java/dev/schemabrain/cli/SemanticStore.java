package dev.schemabrain.cli;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.semantic.model.MetricReview;
import dev.schemabrain.semantic.model.SemanticModel;
import dev.schemabrain.store.SemanticLayer;
import dev.schemabrain.error.StoreException;
import dev.schemabrain.error.UserError;
import dev.schemabrain.store.Store;
import dev.schemabrain.store.StoreLocation;
import dev.schemabrain.store.Stores;
import dev.schemabrain.store.StoreSnapshot;


/** The store as the semantic-layer commands need it: the indexed catalog and the stored layer. */
final class SemanticStore {

    record State(Catalog catalog, SemanticModel stored) {
    }

    private SemanticStore() {
    }

    static State read(StoreLocation store) throws StoreException, UserError {
        if (!Stores.exists(store)) {
            throw new UserError("There is no store at " + store + "; run 'schemabrain index --source URL' first or pass --store PATH.");
        }
        try (Store s = Stores.open(store)) {
            return s.read(c -> new State(StoreSnapshot.read(c).catalog(), SemanticLayer.stored(c)));
        }
    }

    static void replace(StoreLocation store, SemanticModel model) throws StoreException {
        replace(store, model, null);
    }

    /** @param review stamped on the objects the operator confirmed or authored that this write changes; null for none */
    static void replace(StoreLocation store, SemanticModel model, MetricReview review) throws StoreException {
        try (Store s = Stores.open(store)) {
            s.write(c -> {
                SemanticLayer.replace(c, model, review);
                return null;
            });
        }
    }
}
