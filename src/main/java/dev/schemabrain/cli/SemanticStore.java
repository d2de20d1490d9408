package dev.schemabrain.cli;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.semantic.model.SemanticModel;
import dev.schemabrain.store.SemanticLayer;
import dev.schemabrain.error.StoreException;
import dev.schemabrain.error.UserError;
import dev.schemabrain.store.SqliteStore;
import dev.schemabrain.store.StoreSnapshot;

import java.nio.file.Path;

/** The store as the semantic-layer commands need it: the indexed catalog and the stored layer. */
final class SemanticStore {

    record State(Catalog catalog, SemanticModel stored) {
    }

    private SemanticStore() {
    }

    static State read(Path store) throws StoreException, UserError {
        if (!SqliteStore.exists(store)) {
            throw new UserError("There is no store at " + store + "; run 'schemabrain index --source URL' first or pass --store PATH.");
        }
        try (SqliteStore s = SqliteStore.open(store)) {
            return s.read(c -> new State(StoreSnapshot.read(c).catalog(), SemanticLayer.stored(c)));
        }
    }

    static void replace(Path store, SemanticModel model) throws StoreException {
        try (SqliteStore s = SqliteStore.open(store)) {
            s.write(c -> {
                SemanticLayer.replace(c, model);
                return null;
            });
        }
    }
}
