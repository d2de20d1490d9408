package dev.schemabrain.engine.sqlite;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.engine.Engines;
import dev.schemabrain.engine.Purpose;
import dev.schemabrain.engine.IntrospectionOptions;
import dev.schemabrain.engine.RowSampler;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.error.SourceException;
import dev.schemabrain.engine.SourceKind;
import dev.schemabrain.engine.SourceUrl;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Objects;

/**
 * One SQLite file, opened read-only so that introspection can never create, migrate or journal it.
 * Its tables live in the schema {@code main}.
 */
public final class SqliteSource implements SchemaSource {

    private final SourceUrl url;

    public SqliteSource(SourceUrl url) {
        this.url = Objects.requireNonNull(url, "url");
        if (!url.kind().equals(SourceKind.SQLITE)) {
            throw new IllegalArgumentException("not an SQLite source: " + url);
        }
    }

    @Override
    public SourceKind kind() {
        return SourceKind.SQLITE;
    }

    @Override
    public Catalog introspect(IntrospectionOptions options) throws SourceException {
        Path path = url.path();
        // Checked up front: the driver's own errors for these cases are vague.
        if (!Files.exists(path)) {
            throw new SourceException("The SQLite file " + path + " does not exist; check the path in the URL.");
        }
        if (Files.isDirectory(path)) {
            throw new SourceException(path + " is a directory, not an SQLite file; point the URL at the database file.");
        }
        try (Connection connection = Engines.SQLITE.connect(url, Purpose.introspection())) {
            List<Table> tables = new SqliteCatalogReader(connection).read();
            return new Catalog(new RowSampler(Engines.SQLITE).sampleAll(connection, tables, options));
        } catch (SQLException e) {
            throw SqliteErrors.translate(e, path);
        }
    }
}
