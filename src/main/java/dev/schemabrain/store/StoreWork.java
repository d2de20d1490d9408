package dev.schemabrain.store;

import java.sql.Connection;
import java.sql.SQLException;

/** A unit of work on a store's connection, run by {@link Store#read} or {@link Store#write}. */
@FunctionalInterface
public interface StoreWork<T> {
    T run(Connection connection) throws SQLException;
}
