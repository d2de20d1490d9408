package dev.schemabrain.store;

import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.error.StoreException;

import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import java.util.Properties;
import org.postgresql.util.PSQLException;

/**
 * The store in a schema of a PostgreSQL database, shared by several servers: one JDBC connection with
 * {@code search_path} set to the schema. Opening writes nothing (a serving role with SELECT only can
 * open it); the first write creates the schema and applies the migrations in its own transaction, under
 * an advisory lock so two first writers do not race. Reads run in one REPEATABLE READ transaction, so a
 * reader never sees half of another instance's index run.
 */
public final class PostgresStore implements Store {

    private static final String APPLICATION_NAME = "schemabrain-store";

    private final StoreLocation.PostgresSchema location;
    private final Connection connection;

    private PostgresStore(StoreLocation.PostgresSchema location, Connection connection) {
        this.location = location;
        this.connection = connection;
    }

    /** Connects and checks the schema is not from a newer build; creates nothing. */
    public static PostgresStore open(StoreLocation.PostgresSchema location) throws StoreException {
        Connection c = connect(location, APPLICATION_NAME);
        PostgresStore store = new PostgresStore(location, c);
        try {
            int version = store.version();
            if (version > Migrations.latestVersion()) {
                throw new StoreException("The store " + location + " was written by a newer SchemaBrain (store version "
                        + version + ", this build reads up to " + Migrations.latestVersion()
                        + "); upgrade SchemaBrain or pass another --store.");
            }
            return store;
        } catch (SQLException e) {
            store.close();
            throw new StoreException("Cannot open the PostgreSQL store " + location + " (" + reason(e)
                    + "); check that the role may use the schema.", e);
        } catch (StoreException | RuntimeException e) {
            store.close();
            throw e;
        }
    }

    /**
     * A connection of its own to the store's schema ({@code search_path} set), for work that must not share
     * the store's connection: the audit chain's appends and its witness run on threads of their own.
     */
    public static Connection connect(StoreLocation.PostgresSchema location, String applicationName) throws StoreException {
        SourceUrl url = location.url();
        Properties props = url.credentials();
        props.setProperty("ApplicationName", applicationName);
        props.setProperty("connectTimeout", "10");
        // Batched inserts (columns, foreign keys, a copy) go as multi-row INSERTs, not one statement per row.
        props.setProperty("reWriteBatchedInserts", "true");
        String jdbc = "jdbc:postgresql://" + url.host() + (url.port() >= 0 ? ":" + url.port() : "") + "/" + url.database()
                + (url.query().isEmpty() ? "" : "?" + url.query());
        Connection c;
        try {
            c = DriverManager.getConnection(jdbc, props);
        } catch (SQLException e) {
            throw new StoreException("Cannot reach the PostgreSQL store " + location + " (" + reason(e)
                    + "); check the URL, that the server runs and the role's password.", e);
        }
        try (Statement st = c.createStatement()) {
            st.execute("SET search_path TO " + location.schema());
            return c;
        } catch (SQLException e) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // Nothing was done through it.
            }
            throw new StoreException("Cannot open the PostgreSQL store " + location + " (" + reason(e)
                    + "); check that the role may use the schema.", e);
        }
    }

    @Override
    public <T> T write(StoreWork<T> work) throws StoreException {
        try {
            connection.setAutoCommit(false);
            if (version() < Migrations.latestVersion()) {
                migrate();
            }
            T result = work.run(connection);
            connection.commit();
            return result;
        } catch (SQLException e) {
            rollbackQuietly();
            throw new StoreException("Writing the store " + location + " failed (" + reason(e)
                    + "); the store was left as it was. Rerun with -v for details.", e);
        } catch (RuntimeException e) {
            rollbackQuietly();
            throw e;
        } finally {
            autoCommit();
        }
    }


    @Override
    public <T> T read(StoreWork<T> work) throws StoreException {
        try {
            connection.setAutoCommit(false);
            connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            connection.setReadOnly(true);
            T result = work.run(connection);
            connection.commit();
            return result;
        } catch (SQLException e) {
            rollbackQuietly();
            throw new StoreException("Reading the store " + location + " failed (" + reason(e)
                    + "); rerun with -v for details.", e);
        } finally {
            try {
                connection.setReadOnly(false);
                connection.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
            } catch (SQLException ignored) {
                // The connection is going away; the next read sets both again.
            }
            autoCommit();
        }
    }

    /** One indexed single-row SELECT (after the table is known to exist). */
    @Override
    public Optional<String> catalogVersion() throws StoreException {
        try {
            if (!StoreDialect.hasTable(connection, "catalog_version")) {
                return Optional.empty();
            }
            try (Statement st = connection.createStatement();
                 ResultSet rs = st.executeQuery("SELECT encode(token, 'hex') FROM catalog_version WHERE id = 1")) {
                String token = rs.next() ? rs.getString(1) : "";
                return Optional.of(token + "/" + version());
            }
        } catch (SQLException e) {
            throw new StoreException("Reading the store " + location + " failed (" + reason(e) + ").", e);
        }
    }

    @Override
    public String describe() {
        return "the store " + location;
    }

    @Override
    public StoreLocation location() {
        return location;
    }

    @Override
    public StoreDialect dialect() {
        return StoreDialect.POSTGRESQL;
    }

    @Override
    public void close() {
        try {
            connection.close();
        } catch (SQLException ignored) {
            // Nothing uncommitted can be lost: every write commits or rolls back before returning.
        }
    }

    /** Creates the schema and applies what is missing, inside the caller's transaction. */
    private void migrate() throws SQLException {
        try (Statement st = connection.createStatement()) {
            // Two first writers: the second waits here, then finds the migrations done.
            st.execute("SELECT pg_advisory_xact_lock(hashtextextended('schemabrain migrate " + location.schema() + "', 0))");
            st.execute("CREATE SCHEMA IF NOT EXISTS " + location.schema());
        }
        int version = version();
        if (version < Migrations.latestVersion()) {
            Migrations.migrate(connection, StoreDialect.POSTGRESQL, version);
        }
    }

    /** The migrations applied; 0 when the schema or its version table does not exist yet. */
    private int version() throws SQLException {
        if (!StoreDialect.hasTable(connection, "schema_version")) {
            return 0;
        }
        try (Statement st = connection.createStatement();
             ResultSet rs = st.executeQuery("SELECT version FROM schema_version WHERE id = 1")) {
            return rs.next() ? rs.getInt(1) : 0;
        }
    }

    private void rollbackQuietly() {
        try {
            connection.rollback();
        } catch (SQLException ignored) {
            // The transaction is lost with the connection anyway.
        }
    }

    private void autoCommit() {
        try {
            connection.setAutoCommit(true);
        } catch (SQLException ignored) {
            // The connection is broken; the next use reports it.
        }
    }

    /**
     * The server's first line: never the statement a batch failure quotes (it holds the values written,
     * samples among them), never a password (the driver's messages hold none).
     */
    public static String reason(SQLException e) {
        SQLException cause = e instanceof BatchUpdateException && e.getNextException() != null ? e.getNextException() : e;
        if (cause instanceof PSQLException pe && pe.getServerErrorMessage() != null) {
            return pe.getServerErrorMessage().getMessage();
        }
        String m = cause.getMessage();
        return m == null ? e.getClass().getSimpleName() : m.lines().findFirst().orElse(m).replaceFirst("^ERROR: ", "");
    }
}
