package dev.schemabrain.engine.contract;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The contract on an engine that reads one file in process: a new file in a directory of its own, the schema
 * {@code main}, no roles, and a slow statement stopped by the executor's watchdog rather than by the session.
 */
abstract class FileEngineContractTest extends EngineContractTest {

    private Path dir;

    /** The shop's file, once {@link #createDatabase} made its directory. */
    protected Path file;

    /** The URL scheme, which is also the file's extension. */
    protected abstract String scheme();

    @Override
    protected String createDatabase() throws IOException {
        dir = Files.createTempDirectory("schemabrain-contract");
        file = dir.resolve("shop." + scheme());
        return scheme() + ":" + file;
    }

    @Override
    protected Connection writer() throws SQLException {
        return DriverManager.getConnection("jdbc:" + scheme() + ":" + file);
    }

    @Override
    protected void dropDatabase() throws IOException {
        if (dir != null) {
            try (Stream<Path> paths = Files.walk(dir)) {
                for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }

    @Override
    protected String schema() {
        return "main";
    }

    @Override
    protected boolean hasRoles() {
        return false;
    }

    @Override
    protected boolean sessionCarriesStatementTimeout() {
        return false;
    }
}
