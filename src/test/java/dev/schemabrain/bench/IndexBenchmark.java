package dev.schemabrain.bench;

import dev.schemabrain.index.IndexListener;
import dev.schemabrain.index.IndexResult;
import dev.schemabrain.index.Indexer;
import dev.schemabrain.source.SchemaSource;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.source.Sources;
import dev.schemabrain.testing.TestPostgres;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 2's scale target: a PostgreSQL schema of 2,000 tables / 20,000 columns with foreign keys,
 * indexed from scratch in under 60 s, re-indexed unchanged in under 10% of that.
 * Run with {@code mvn -Pbench test -Dtest=IndexBenchmark}; figures go to target/bench/index.txt.
 */
@Tag("benchmark")
class IndexBenchmark {

    static final int TABLES = 2000;
    static final int ROWS = 20;

    @Test
    void twoThousandTables() throws Exception {
        TestPostgres.createDatabase("bench_2000");
        try (Connection c = TestPostgres.connect("bench_2000"); Statement st = c.createStatement()) {
            StringBuilder ddl = new StringBuilder();
            for (int i = 0; i < TABLES; i++) {
                // 10 columns each: a key, up to two references to earlier tables, and typed payload.
                ddl.append("CREATE TABLE t").append(i).append(" (id integer PRIMARY KEY, ")
                        .append(i > 0 ? "parent_id integer REFERENCES t" + (i - 1) + "(id), " : "parent_id integer, ")
                        .append(i > 1 ? "other_id integer REFERENCES t" + (i / 2) + "(id), " : "other_id integer, ")
                        .append("name text, amount numeric(12,2), quantity integer, created_at timestamptz,")
                        .append(" status text, email text, notes varchar(200));\n");
                ddl.append("INSERT INTO t").append(i).append(" (id, name, amount, quantity, created_at, status, email)")
                        .append(" SELECT g, 'item ' || g, g * 1.5, g, now() - g * interval '1 day',")
                        .append(" CASE WHEN g % 2 = 0 THEN 'open' ELSE 'closed' END, 'user' || g || '@example.com'")
                        .append(" FROM generate_series(1, ").append(ROWS).append(") g;\n");
                if (ddl.length() > 1_000_000) {
                    st.execute(ddl.toString());
                    ddl.setLength(0);
                }
            }
            st.execute(ddl.toString());
            st.execute("ANALYZE");
        }
        Thread.sleep(1500); // let the cumulative statistics (the data-version tokens) settle

        Path store = Files.createTempDirectory("bench").resolve("bench.db");
        SourceUrl url = SourceUrl.parse(TestPostgres.url("bench_2000"));
        IndexResult first = run(url, store);
        IndexResult second = run(url, store);
        assertEquals(TABLES, first.tables());
        assertEquals(TABLES * 10, first.columns());
        assertEquals(TABLES, second.counts().tablesUnchanged());

        String report = String.format(Locale.ROOT, """
                index benchmark: %d tables, %d columns, %d foreign keys (PostgreSQL %s rows/table)
                first run:  %6d ms  (introspect %d ms alongside store read %d ms, compare %d ms, write %d ms)
                re-index:   %6d ms  (introspect %d ms alongside store read %d ms, compare %d ms, write %d ms) = %.1f%% of the first run
                store size: %d bytes
                """, first.tables(), first.columns(), first.foreignKeys(), ROWS,
                first.totalMillis(), first.introspectMillis(), first.loadMillis(), first.diffMillis(), first.writeMillis(),
                second.totalMillis(), second.introspectMillis(), second.loadMillis(), second.diffMillis(), second.writeMillis(),
                100.0 * second.totalMillis() / first.totalMillis(), Files.size(store));
        Path out = Path.of("target", "bench", "index.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report);
        System.out.print(report);
        assertTrue(first.totalMillis() < 60_000, report);
        assertTrue(second.totalMillis() < first.totalMillis() / 10, report);
    }

    private static IndexResult run(SourceUrl url, Path store) throws Exception {
        try (SchemaSource source = Sources.open(url)) {
            return new Indexer().run(url, source, store, false, IndexListener.SILENT);
        }
    }
}
