package dev.schemabrain.engine.duckdb;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.engine.Engine;
import dev.schemabrain.engine.Engines;
import dev.schemabrain.engine.IntrospectionOptions;
import dev.schemabrain.engine.Purpose;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.engine.SourceKind;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.error.SourceException;
import dev.schemabrain.engine.RowSampler;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/** One DuckDB file, attached read-only: its tables and views in every schema, with keys, comments and sizes. */
final class DuckDbSource implements SchemaSource {

    private static final int MAX_REASON = 200;

    private final SourceUrl url;

    DuckDbSource(SourceUrl url) {
        this.url = url;
    }

    @Override
    public SourceKind kind() {
        return DuckDbEngine.KIND;
    }

    @Override
    public Catalog introspect(IntrospectionOptions options) throws SourceException {
        Path path = url.path();
        if (!Files.exists(path)) {
            throw new SourceException("The DuckDB file " + path + " does not exist; check the path in the URL.");
        }
        if (Files.isDirectory(path)) {
            throw new SourceException(path + " is a directory, not a DuckDB file; point the URL at the database file.");
        }
        Engine engine = engine();
        try (Connection connection = engine.connect(url, Purpose.introspection())) {
            List<Table> tables = DuckDbCatalogReader.read(connection);
            return new Catalog(new RowSampler(engine).sampleAll(connection, tables, options));
        } catch (SQLException e) {
            throw translate(e, path);
        }
    }

    private static Engine engine() {
        return Engines.of(DuckDbEngine.KIND).orElseThrow();
    }

    private static SourceException translate(SQLException e, Path path) {
        String message = switch (engine().classify(e)) {
            case NOT_A_DATABASE -> "The file " + path + " is not a DuckDB database; check the path in the URL.";
            case UNREACHABLE, PERMISSION -> "Cannot open the DuckDB file " + path + "; check that it is readable by this user.";
            case BUSY -> "The DuckDB file " + path + " is open for writing by another process; try again when it is closed.";
            default -> "Reading the DuckDB file " + path + " failed (" + reason(e) + "); check that it is a valid DuckDB database.";
        };
        return new SourceException(message, e);
    }

    private static String reason(SQLException e) {
        String text = e.getMessage() == null ? "no detail" : e.getMessage().strip().lines().findFirst().orElse("");
        return text.length() <= MAX_REASON ? text : text.substring(0, MAX_REASON) + "…";
    }
}
