package dev.schemabrain.store;

import dev.schemabrain.error.StoreException;

import java.util.Optional;

/**
 * Where SchemaBrain keeps what it knows: the SQLite file (the embedded default) or a PostgreSQL schema
 * shared by several servers. Repositories take the {@link java.sql.Connection} a unit of work is given;
 * the SQL that must differ between the two lives in {@link StoreDialect}.
 */
public interface Store extends AutoCloseable {

    /** Runs {@code work} in one transaction, applying pending migrations first; nothing stays of a failure. */
    <T> T write(StoreWork<T> work) throws StoreException;

    /** Runs read-only {@code work} on one consistent view; a store that was never written reads as empty. */
    <T> T read(StoreWork<T> work) throws StoreException;

    /** The catalog's version: moves when a catalog row changes, not on other writes; empty before any catalog. */
    Optional<String> catalogVersion() throws StoreException;

    /** Where the store is, for messages: a path, or a URL without its password and the schema. */
    String describe();

    StoreLocation location();

    StoreDialect dialect();

    @Override
    void close();
}
