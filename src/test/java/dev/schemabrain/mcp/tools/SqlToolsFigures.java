package dev.schemabrain.mcp.tools;

import dev.schemabrain.access.Access;
import dev.schemabrain.execute.BoundQuery;
import dev.schemabrain.mcp.envelope.Envelope;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * The SQL tools' cost over the bare query, on embedded PostgreSQL (Chinook), not part of the suite:
 * {@code mvn -B -q test -Dtest=SqlToolsFigures -Dsurefire.failIfNoSpecifiedTests=false}. Per query and iteration
 * (interleaved, after a warm-up), the bare statement through the same QueryExecutor (fresh read-only session,
 * as execute uses), execute, and validate_query (whose time includes its EXPLAIN round trip); the overhead is
 * each iteration's execute minus its bare run.
 *
 * <p>Measured 2026-11-26 (2 shared cores, 500 runs after 100 warm-up, ms): overhead p50/p99 1.3/7 for a listing
 * without people, 3.1/25 for a grouped join without people, 8.6/44 and 12.8/47 for aggregates over people, which
 * pay a second statement (a fresh read-only session) counting the withheld groups; validate_query p50 4.6-11.9,
 * p99 11-48, mostly its EXPLAIN round trip.
 */
class SqlToolsFigures {

    static final List<String> QUERIES = List.of(
            "SELECT g.name, count(*) AS tracks FROM track t JOIN genre g ON g.genre_id = t.genre_id GROUP BY g.name ORDER BY tracks DESC",
            "SELECT billing_country, sum(total) AS revenue FROM invoice GROUP BY billing_country ORDER BY 2 DESC",
            "SELECT extract(year FROM i.invoice_date) AS y, c.country, sum(i.total) FROM invoice i"
                    + " JOIN customer c ON c.customer_id = i.customer_id GROUP BY 1, 2 ORDER BY 1, 2",
            "SELECT t.name, t.unit_price, a.title FROM track t JOIN album a ON a.album_id = t.album_id WHERE t.genre_id = 2 ORDER BY t.name");

    @Test
    void overheadOverTheBareQuery() throws Exception {
        SqlToolsPostgresTest.dir = Files.createTempDirectory("sqltools-figures");
        SqlToolsPostgresTest.serve();
        StringBuilder out = new StringBuilder("validate_query and execute over the bare query (PostgreSQL Chinook, ms)\n");
        int warm = 100;
        int n = 500;
        for (String sql : QUERIES) {
            List<Double> bare = new ArrayList<>();
            List<Double> execute = new ArrayList<>();
            List<Double> validate = new ArrayList<>();
            List<Double> overhead = new ArrayList<>();
            for (int i = 0; i < warm + n; i++) {
                long a = System.nanoTime();
                SqlToolsPostgresTest.executor.execute(new BoundQuery(sql, List.of()), 1000);
                long b = System.nanoTime();
                Envelope e = SqlToolsPostgresTest.tools.call("execute", Map.of("sql", sql), "figures", Access.UNRESTRICTED);
                long c = System.nanoTime();
                SqlToolsPostgresTest.tools.call("validate_query", Map.of("sql", sql), "figures", Access.UNRESTRICTED);
                long d = System.nanoTime();
                assertFalse(e.isError(), e::toJson);
                if (i >= warm) {
                    bare.add((b - a) / 1e6);
                    execute.add((c - b) / 1e6);
                    validate.add((d - c) / 1e6);
                    overhead.add(((c - b) - (b - a)) / 1e6);
                }
            }
            out.append(String.format("%s%n  bare p50 %.2f p99 %.2f | execute p50 %.2f p99 %.2f | overhead p50 %.2f p99 %.2f"
                            + " | validate_query p50 %.2f p99 %.2f%n", sql.substring(0, Math.min(70, sql.length())),
                    p(bare, 50), p(bare, 99), p(execute, 50), p(execute, 99), p(overhead, 50), p(overhead, 99),
                    p(validate, 50), p(validate, 99)));
        }
        SqlToolsPostgresTest.close();
        System.out.println(out);
    }

    static double p(List<Double> values, int percentile) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(percentile / 100.0 * sorted.size()) - 1));
    }
}
