package dev.schemabrain.engine.mysql;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.engine.Engines;
import dev.schemabrain.engine.Purpose;
import dev.schemabrain.engine.IntrospectionOptions;
import dev.schemabrain.engine.RowSampler;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.error.SourceException;
import dev.schemabrain.engine.SourceKind;
import dev.schemabrain.engine.SourceUrl;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;
import java.util.Objects;

/**
 * MySQL and MariaDB through the MariaDB driver. A URL naming a database reads that database only;
 * otherwise every non-system database, each as one schema. Nothing is opened until
 * {@link #introspect}, and the connection lives only for that call.
 */
public final class MySqlSource implements SchemaSource {

    private final SourceUrl url;
    private Optional<String> unreadKeys = Optional.empty();

    public MySqlSource(SourceUrl url) {
        this.url = Objects.requireNonNull(url, "url");
        if (!url.kind().equals(SourceKind.MYSQL)) {
            throw new IllegalArgumentException("not a MySQL source: " + url);
        }
    }

    @Override
    public SourceKind kind() {
        return SourceKind.MYSQL;
    }

    @Override
    public Catalog introspect(IntrospectionOptions options) throws SourceException {
        try (Connection connection = connect()) {
            MySqlCatalogReader.Read read = new MySqlCatalogReader(connection, url.database()).read();
            unreadKeys = read.keysUnread().isEmpty() ? Optional.empty()
                    : Optional.of(MySqlRoles.unreadKeys(connection, read.keysUnread()));
            return new Catalog(new RowSampler(Engines.MYSQL).sampleAll(connection, read.tables(), options));
        } catch (SQLException e) {
            throw MySqlErrors.whileReading(e, url);
        }
    }

    @Override
    public Optional<String> unreadKeys() {
        return unreadKeys;
    }

    private Connection connect() throws SourceException {
        try {
            return Engines.MYSQL.connect(url, Purpose.introspection());
        } catch (SQLException e) {
            throw MySqlErrors.whileConnecting(e, url);
        }
    }
}
