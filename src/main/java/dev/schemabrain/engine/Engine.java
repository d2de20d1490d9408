package dev.schemabrain.engine;

import dev.schemabrain.sql.guard.SqlRules;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/**
 * Everything SchemaBrain knows about one database engine: its source URLs, how to open a read-only session
 * on it, its catalog reader, its SQL dialect, its EXPLAIN, what its errors mean, its query log and how
 * doctor checks its role. One implementation per engine, each in its own package with everything else about
 * that database, registered once in {@code META-INF/services/dev.schemabrain.engine.Engine}; {@link Engines}
 * finds them.
 */
public interface Engine extends Dialect {

    SourceKind kind();

    /** The engine's name as people write it, for messages ("PostgreSQL"). */
    String title();

    /** The URL schemes this engine reads (lower case), in the order help lists them. */
    List<String> schemes();

    /** The scheme a URL written with {@code scheme} is shown with ({@code postgres://} is shown as {@code postgresql://}). */
    default String shownScheme(String scheme) {
        return scheme;
    }

    /** Whether its URLs name a file ({@code scheme:PATH}) rather than a server ({@code scheme://user@host/db}). */
    boolean fileBased();

    /** Whether the URL query parameter {@code key} (lower case) holds no secret, so it may be shown and stored. */
    default boolean displays(String key) {
        return false;
    }

    /** The source that introspects {@code url} (of this engine's kind). */
    SchemaSource open(SourceUrl url);

    /**
     * A new connection to {@code url} whose session cannot write, named {@code schemabrain-…} where the
     * engine shows names, and limited as {@code purpose} says.
     */
    Connection connect(SourceUrl url, Purpose purpose) throws SQLException;

    /**
     * Returns a query session whose call is over to the state {@link #connect} left it in, so the executor may lend
     * it to the next call: the transaction rolled back, and no temporary object, prepared statement, cursor, variable,
     * setting, lock or subscription of the call left; the read-only default and statement limit asserted again.
     * False where the engine cannot promise that: the session is then closed, and the next call opens a new one.
     */
    default boolean resetSession(Connection c, SourceUrl url, Purpose purpose) throws SQLException {
        return false;
    }

    /**
     * Whether a session lives on a server, so that its reset (or close) is round trips the executor runs after the
     * call has answered. False for an in-process engine: its reset is cheap, and a connection it closes must be gone
     * before the call answers, as the caller may open the same file next (DuckDB refuses a second configuration).
     */
    default boolean sessionsOnAServer() {
        return false;
    }

    /**
     * The statement that starts the read-only transaction a query runs in (ended by a rollback), or null where no
     * statement is needed: the driver begins it (PostgreSQL), or the connection itself is read-only (SQLite, DuckDB).
     */
    String beginReadOnly();

    /**
     * How the guard reads and writes SQL for this engine; empty where nobody has written them down, and
     * then agent SQL is refused there rather than checked by another engine's rules.
     */
    default Optional<SqlRules> sqlRules() {
        return Optional.empty();
    }

    String explain(String sql);

    Explain readExplain(ResultSet rs) throws SQLException;

    Failure classify(SQLException e);

    /** The statement statistics mine-queries reads; empty where the engine keeps none. */
    default Optional<QueryLog> queryLog() {
        return Optional.empty();
    }

    /** How doctor reads the connecting role's privileges; empty for a file with no roles (see {@link #withoutRoles}). */
    default Optional<Roles> roles() {
        return Optional.empty();
    }

    /** The column privileges {@code grants} writes and doctor checks; empty for a file with no roles. */
    default Optional<ColumnGrants> columnGrants() {
        return Optional.empty();
    }

    /** What doctor says of an engine without roles. */
    default String withoutRoles() {
        return "the " + title() + " file is opened read-only; nothing can write through it.";
    }

    /** Reads what the connecting role may write. */
    @FunctionalInterface
    interface Roles {
        RoleCheck check(Connection c, SourceUrl url) throws SQLException;
    }
}
