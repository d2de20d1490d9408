package dev.schemabrain.testing;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Map;

/** A SQLite source made of {@code ddl} in {@code dir}, indexed by the CLI into a store beside it. */
public final class IndexedSqlite {

    private IndexedSqlite() {
    }

    /** Runs {@code ddl} on {@code dir/name.sqlite}, indexes it into {@code dir/name.db} with {@code env}; answers the store. */
    public static Path index(Path dir, String name, Map<String, String> env, String... ddl) throws Exception {
        Path source = dir.resolve(name + ".sqlite");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + source); Statement st = c.createStatement()) {
            for (String sql : ddl) {
                st.execute(sql);
            }
        }
        Path store = dir.resolve(name + ".db");
        InProcessCli.Result r = InProcessCli.run(env, "index", "--source", "sqlite:" + source, "--store", store.toString());
        if (r.exitCode() != 0) {
            throw new IllegalStateException("index failed: " + r.stderr());
        }
        return store;
    }
}
