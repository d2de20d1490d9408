package dev.schemabrain.engine.contract;

import dev.schemabrain.testing.TestMariaDb;

import java.sql.Connection;
import java.sql.SQLException;

/** The engine contract on MariaDB (the {@code mysql} engine), in a throw-away database on the test server. */
class MariaDbContractTest extends EngineContractTest {

    private String database;

    @Override
    protected String createDatabase() throws SQLException {
        database = TestMariaDb.create("sb_contract");
        return TestMariaDb.url(database);
    }

    @Override
    protected Connection writer() throws SQLException {
        return TestMariaDb.connect(database);
    }

    @Override
    protected void dropDatabase() throws SQLException {
        if (database != null) {
            TestMariaDb.drop(database);
        }
    }

    @Override
    protected String schema() {
        return database;
    }

    /** MariaDB's TIMESTAMP updates itself on a row's change; DATETIME is the plain one. */
    @Override
    protected String timestampType() {
        return "DATETIME";
    }

    @Override
    protected String systemCatalogRead() {
        return "SELECT user, password FROM mysql.user";
    }

    @Override
    protected String fileReadingCall() {
        return "SELECT LOAD_FILE('/etc/passwd')";
    }

    /** SLEEP() answers 1 when interrupted rather than failing, so the work is real: ten billion joined rows. */
    @Override
    protected String slowStatement() {
        return "SELECT COUNT(*) FROM seq_1_to_100000 a, seq_1_to_100000 b";
    }
}
