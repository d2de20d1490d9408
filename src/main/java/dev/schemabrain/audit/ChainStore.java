package dev.schemabrain.audit;

import dev.schemabrain.error.AuditException;
import dev.schemabrain.store.AuditWitnessStore;
import dev.schemabrain.store.StoreLocation;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * Where the chain's rows live: a SQLite file beside a SQLite store ({@link SqliteChain}), or tables in a
 * PostgreSQL store's schema that a whole fleet appends to ({@link PostgresChain}). Both hold the same
 * {@code audit_log} and {@code audit_meta} columns, so {@link AuditLog}'s group commit, hashing, witnesses
 * and reads are one code for both; only what is said here differs.
 */
interface ChainStore extends AutoCloseable {

    /** How messages name the log: "The audit log " + name(). */
    String name();

    /** The store this chain belongs to: a second reader (the history check) opens it from here. */
    StoreLocation location();

    /** The connection the rows are read and appended through; null when there is no log to read. */
    Connection connection();

    /** Whether other processes append as a matter of course (a fleet), so a head moved by another is normal. */
    boolean shared();

    /** First statement of an append's transaction: appenders of every process queue here, so the chain never forks. */
    void lockHead(Connection c) throws SQLException;

    /** Before an append: the log must still be the one opened. */
    void checkSame() throws AuditException;

    /** Makes every committed row survive a power cut (nothing to do when a commit already did). */
    void force() throws IOException;

    boolean hasLog() throws SQLException;

    /** What is wrong with the log's schema (a missing or changed trigger), as a clause; null when nothing. */
    String problem(boolean keyless) throws SQLException;

    /** Before a read transaction begins: one snapshot for all of its statements. */
    void beginRead(Connection c) throws SQLException;

    /** After that transaction ended. */
    void endRead(Connection c) throws SQLException;

    /** Where this chain's witness is kept in the store. */
    AuditWitnessStore.Witnesses witnesses();

    @Override
    void close();
}
