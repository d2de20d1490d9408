package dev.schemabrain.engine.contract;

/** The engine contract on an SQLite file. */
class SqliteContractTest extends FileEngineContractTest {

    @Override
    protected String scheme() {
        return "sqlite";
    }

    @Override
    protected String systemCatalogRead() {
        return "SELECT name, sql FROM sqlite_master";
    }

    @Override
    protected String fileReadingCall() {
        return "SELECT load_extension('/tmp/evil.so')";
    }

    @Override
    protected String slowStatement() {
        return "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT COUNT(*) FROM r";
    }
}
