package dev.schemabrain.execute;

import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.testing.TestPostgres;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A get_metric-shaped statement (a grouped sum with a bound filter) through QueryExecutor against embedded PostgreSQL at
 * concurrency 8: pooled sessions against a new connection per call, in alternating rounds, with the PostgreSQL
 * sessions each opened (pg_stat_database.sessions). Run with {@code mvn -Pbench test -Dtest=SessionPoolBenchmark};
 * figures in target/bench/session-pool.txt.
 */
@Tag("benchmark")
class SessionPoolBenchmark {

    private static final String SQL = "SELECT date_trunc('month', added) AS month, SUM(price) FROM item WHERE price > ? GROUP BY 1 ORDER BY 1";

    @Test
    void pooledAgainstNewConnectionPerCall() throws Exception {
        TestPostgres.createDatabase("sb_poolbench", "CREATE TABLE item (id int PRIMARY KEY, price numeric(8,2), added date)",
                "INSERT INTO item SELECT g, g % 100, DATE '2024-01-01' + g % 365 FROM generate_series(1, 10000) g", "ANALYZE item");
        SourceUrl url = SourceUrl.parse(TestPostgres.url("sb_poolbench"));
        ExecutorSettings settings = new ExecutorSettings(30_000, 1_000, 8, 10_000, null);
        int calls = Integer.getInteger("pool.bench.calls", 4_000);
        List<String> lines = new ArrayList<>();
        try (QueryExecutor pooled = new QueryExecutor(url, settings); QueryExecutor unpooled = new QueryExecutor(url, settings, 0)) {
            run(pooled, 8, 2_000);
            run(unpooled, 8, 500);
            for (int round = 0; round < 3; round++) {
                for (QueryExecutor ex : List.of(unpooled, pooled)) {
                    long sessions = sessions();
                    long t = System.nanoTime();
                    run(ex, 8, calls);
                    double seconds = (System.nanoTime() - t) / 1e9;
                    lines.add(String.format(Locale.ROOT, "round %d %-26s %6.0f calls/s, %.3f PostgreSQL sessions per call (%d calls, c=8)",
                            round, ex == pooled ? "pooled sessions:" : "new connection per call:", calls / seconds,
                            (sessions() - sessions) / (double) calls, calls));
                }
            }
        }
        Path out = Path.of("target", "bench", "session-pool.txt");
        Files.createDirectories(out.getParent());
        Files.write(out, lines);
        lines.forEach(System.out::println);
    }

    private static void run(QueryExecutor ex, int concurrency, int total) throws Exception {
        AtomicInteger next = new AtomicInteger();
        ExecutorService workers = Executors.newFixedThreadPool(concurrency);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < concurrency; w++) {
                done.add(workers.submit(() -> {
                    for (int i; (i = next.getAndIncrement()) < total; ) {
                        assertEquals(12, ex.execute(new BoundQuery(SQL, List.of(i % 50)), 100).rows().size());
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            workers.shutdownNow();
        }
    }

    /** Sessions PostgreSQL has opened on the database so far (its statistics lag by up to a second: a pause first). */
    private static long sessions() throws Exception {
        Thread.sleep(1_100);
        try (Connection c = TestPostgres.connect("postgres"); Statement st = c.createStatement()) {
            st.execute("SELECT pg_stat_clear_snapshot()");
            try (ResultSet rs = st.executeQuery("SELECT sessions FROM pg_stat_database WHERE datname = 'sb_poolbench'")) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
