package dev.schemabrain.engine.contract;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

/** The engine contract on a DuckDB file. */
class DuckDbContractTest extends FileEngineContractTest {

    @Override
    protected String scheme() {
        return "duckdb";
    }

    /**
     * DuckDB opens a file once per process per configuration: while the executor's sessions hold it read-only, the
     * hand-written SQL reads it with the same settings.
     */
    @Override
    protected Connection reader() throws SQLException {
        Properties props = new Properties();
        props.setProperty("duckdb.read_only", "true");
        props.setProperty("enable_external_access", "false");
        return DriverManager.getConnection("jdbc:duckdb:" + file, props);
    }

    @Override
    protected String systemCatalogRead() {
        return "SELECT table_name, sql FROM duckdb_tables";
    }

    @Override
    protected String fileReadingCall() {
        return "SELECT content FROM read_text('/etc/passwd')";
    }

    @Override
    protected String slowStatement() {
        return "SELECT SUM(a.range * b.range) FROM range(1000000) a, range(1000000) b";
    }
}
