package dev.schemabrain.store;

/** The store contract on the embedded default: a SQLite file. */
class SqliteStoreContractTest extends StoreContractTest {

    @Override
    StoreLocation freshStore() {
        return StoreLocation.file(dir.resolve("store.db"));
    }
}
