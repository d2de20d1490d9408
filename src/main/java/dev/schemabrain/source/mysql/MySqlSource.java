package dev.schemabrain.source.mysql;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.source.IntrospectionOptions;
import dev.schemabrain.source.RowSampler;
import dev.schemabrain.source.SchemaSource;
import dev.schemabrain.error.SourceException;
import dev.schemabrain.source.SourceKind;
import dev.schemabrain.source.SourceUrl;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Objects;
import java.util.Properties;

/**
 * MySQL and MariaDB through the MariaDB driver. A URL naming a database reads that database only;
 * otherwise every non-system database, each as one schema. Nothing is opened until
 * {@link #introspect}, and the connection lives only for that call.
 */
public final class MySqlSource implements SchemaSource {

    static final int DEFAULT_PORT = 3306;
    private static final int CONNECT_TIMEOUT_MILLIS = 10_000;

    private final SourceUrl url;

    public MySqlSource(SourceUrl url) {
        this.url = Objects.requireNonNull(url, "url");
        if (url.kind() != SourceKind.MYSQL) {
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
            List<Table> tables = new MySqlCatalogReader(connection, url.database()).read();
            return new Catalog(new RowSampler(RowSampler::backQuote).sampleAll(connection, tables, options));
        } catch (SQLException e) {
            throw MySqlErrors.whileReading(e, url);
        }
    }

    private Connection connect() throws SourceException {
        try {
            Connection connection = DriverManager.getConnection(jdbcUrl(), credentials());
            try {
                // Introspection only reads; say so, for servers and proxies that act on it.
                connection.setReadOnly(true);
            } catch (SQLException e) {
                connection.close();
                throw e;
            }
            return connection;
        } catch (SQLException e) {
            throw MySqlErrors.whileConnecting(e, url);
        }
    }

    /** Host, port, database and pass-through options only: credentials never go into the URL string. */
    String jdbcUrl() {
        return jdbcUrl(url);
    }

    /** Host, port, database and pass-through options only: credentials never go into the URL string. */
    public static String jdbcUrl(SourceUrl url) {
        StringBuilder jdbc = new StringBuilder("jdbc:mariadb://").append(hostAndPort(url)).append('/');
        if (url.database() != null) {
            jdbc.append(url.database());
        }
        if (!url.query().isEmpty()) {
            jdbc.append('?').append(url.query());
        }
        return jdbc.toString();
    }

    private Properties credentials() {
        return credentials(url);
    }

    /** User, password and a short connect timeout, for any connection to this source. */
    public static Properties credentials(SourceUrl url) {
        Properties props = new Properties();
        if (url.user() != null) {
            props.setProperty("user", url.user());
        }
        if (url.password() != null) {
            props.setProperty("password", url.password());
        }
        props.setProperty("connectTimeout", Integer.toString(CONNECT_TIMEOUT_MILLIS));
        return props;
    }

    static String hostAndPort(SourceUrl url) {
        return url.host() + ":" + (url.port() < 0 ? DEFAULT_PORT : url.port());
    }
}
