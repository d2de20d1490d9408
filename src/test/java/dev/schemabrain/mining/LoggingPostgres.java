package dev.schemabrain.mining;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.Map;

/**
 * An embedded PostgreSQL server of a test's own that logs every statement (log_statement all) through its logging
 * collector into {@code logs}, as {@code destinations} (stderr, csvlog, jsonlog) named {@code filename}.
 */
record LoggingPostgres(EmbeddedPostgres server, Path logs) implements AutoCloseable {

    static LoggingPostgres start(String destinations, String filename, Map<String, String> more) throws Exception {
        Path logs = Files.createTempDirectory("schemabrain-pglog");
        EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                .setDataDirectory(Files.createTempDirectory("schemabrain-pglog-data"))
                .setCleanDataDirectory(true)
                .setServerConfig("logging_collector", "on")
                .setServerConfig("log_destination", destinations)
                .setServerConfig("log_directory", logs.toString())
                .setServerConfig("log_filename", filename)
                .setServerConfig("log_statement", "all")
                .setServerConfig("lc_messages", "C")
                .setServerConfig("fsync", "off");
        more.forEach(builder::setServerConfig);
        return new LoggingPostgres(builder.start(), logs);
    }

    Connection connect(String database) throws Exception {
        return server.getDatabase("postgres", database).getConnection();
    }

    String url(String database) {
        return "postgresql://postgres@localhost:" + server.getPort() + "/" + database;
    }

    /** The collector writes on its own schedule: waits until each file holds {@code marker}, the last statement run. */
    void awaitLogged(String marker, String... files) throws Exception {
        for (int i = 0; i < 100; i++) {
            boolean all = true;
            for (String file : files) {
                Path p = logs.resolve(file);
                all &= Files.exists(p) && Files.readString(p).contains(marker);
            }
            if (all) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the server did not write its log to " + logs);
    }

    @Override
    public void close() throws Exception {
        server.close();
    }
}
