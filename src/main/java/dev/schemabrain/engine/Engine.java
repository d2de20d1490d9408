package dev.schemabrain.engine;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Everything SchemaBrain knows about one database engine: how to open a read-only session on it, its
 * SQL dialect, its EXPLAIN, and what its errors mean. One implementation per engine, each in its own
 * package; {@link Engines} picks one for a source kind.
 */
public interface Engine extends Dialect {

    SourceKind kind();

    /**
     * A new connection to {@code url} whose session cannot write, named {@code schemabrain-…} where the
     * engine shows names, and limited as {@code purpose} says.
     */
    Connection connect(SourceUrl url, Purpose purpose) throws SQLException;

    /** The statement that starts the read-only transaction a query runs in (ended by a rollback), or null. */
    String beginReadOnly();

    String explain(String sql);

    Explain readExplain(ResultSet rs) throws SQLException;

    Failure classify(SQLException e);
}
