package dev.schemabrain.store;

import dev.schemabrain.testing.TestPostgres;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/** The store contract on a shared store: a fresh schema of a real PostgreSQL database per test. */
class PostgresStoreContractTest extends StoreContractTest {

    private static final AtomicInteger SCHEMAS = new AtomicInteger();

    @Override
    StoreLocation freshStore() throws Exception {
        String schema = "contract_" + ProcessHandle.current().pid() + "_" + SCHEMAS.incrementAndGet();
        return Stores.location(TestPostgres.url("postgres") + "?schema=" + schema, null, null, Map.of());
    }
}
