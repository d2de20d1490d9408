package dev.schemabrain.engine.mysql;

import dev.schemabrain.engine.QueryLog;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.error.SourceException;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** performance_schema's statement digests, for the source's database and every indexed one. */
final class MySqlQueryLog implements QueryLog {

    @Override
    public Read read(Connection c, SourceUrl url, Set<String> schemas) throws SQLException, SourceException {
        String schema = url.database() != null ? url.database() : c.getCatalog();
        if (schema == null || schema.isEmpty()) {
            throw new SourceException("mine-queries needs the database in the MySQL URL (mysql://user@host/database):"
                    + " the digests are read for that schema only.");
        }
        // Each digest keeps its default database: statements run from any indexed database are read.
        Set<String> read = new LinkedHashSet<>(List.of(schema));
        read.addAll(schemas);
        return new Read(StatementDigests.read(c, read), List.of(schema), Map.of(), Optional.empty());
    }

    @Override
    public Optional<String> problem(Connection c) throws SQLException {
        return StatementDigests.problem(c);
    }

    @Override
    public String name() {
        return "performance_schema statement digests";
    }

    @Override
    public String grantHint() {
        return "grant the user SELECT on performance_schema, where the statement digests are";
    }
}
