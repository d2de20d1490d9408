package dev.schemabrain.engine.contract;

import dev.schemabrain.testing.TestPostgres;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/** The engine contract on PostgreSQL (the embedded test server), in a database of its own. */
class PostgresContractTest extends EngineContractTest {

    private static final String DATABASE = "sb_contract";

    @Override
    protected String createDatabase() throws SQLException {
        TestPostgres.createDatabase(DATABASE);
        return TestPostgres.url(DATABASE);
    }

    @Override
    protected Connection writer() throws SQLException {
        return TestPostgres.connect(DATABASE);
    }

    @Override
    protected void dropDatabase() throws SQLException {
        try (Connection c = TestPostgres.connect("postgres"); Statement st = c.createStatement()) {
            st.execute("DROP DATABASE IF EXISTS " + DATABASE + " WITH (FORCE)");
        }
    }

    @Override
    protected String schema() {
        return "public";
    }

    @Override
    protected String systemCatalogRead() {
        return "SELECT rolname, rolpassword FROM pg_catalog.pg_authid";
    }

    @Override
    protected String fileReadingCall() {
        return "SELECT pg_read_file('/etc/passwd')";
    }

    @Override
    protected String slowStatement() {
        return "SELECT pg_sleep(10)";
    }
}
