package dev.schemabrain.gate;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.demo.DemoDatabase;
import dev.schemabrain.engine.Engines;
import dev.schemabrain.engine.IntrospectionOptions;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.source.Sources;
import dev.schemabrain.sql.guard.BoundSelect;
import dev.schemabrain.sql.guard.SqlGuard;
import dev.schemabrain.sql.guard.SqlRules;
import dev.schemabrain.sql.guard.WrittenSql;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What the last look at agent SQL costs (issue 45), not part of the suite:
 * {@code mvn -B test -Dtest=GateCostFigures -Dsurefire.failIfNoSpecifiedTests=false}. A three-table grouped join on
 * the demo's SQLite catalog, 3,000 checks a round after two warm rounds: the guard (parse, bind, census, rendering)
 * and WrittenSql (the engine's lexical reading and the parse back).
 *
 * <p>Measured 2026-11-28 on the two-core machine while other builds ran (load 4-5), two runs: guard 387-706 us,
 * last look 447-648 us a call; the guard without the rendering (fd533e8) 377-818 us. The last look about doubles the
 * gate's CPU time, about half a millisecond a call, almost all of it JSqlParser's parse back.
 */
class GateCostFigures {

    @Test
    void theLastLookCostsAboutAsMuchAsTheGuard() throws Exception {
        Path dir = Files.createTempDirectory("gate-cost");
        Path database = DemoDatabase.ensure(dir.resolve("demo.sqlite"));
        Catalog catalog;
        try (SchemaSource source = Sources.open(SourceUrl.parse("sqlite:" + database))) {
            catalog = source.introspect(IntrospectionOptions.withoutSamples());
        }
        SqlRules rules = Engines.SQLITE.sqlRules().orElseThrow();
        String sql = "SELECT o.industry, count(*) AS n, sum(i.total_cents) AS total FROM invoices i JOIN subscriptions s"
                + " ON s.id = i.subscription_id JOIN organizations o ON o.id = s.organization_id WHERE i.status = 'paid'"
                + " AND i.issued_at >= '2024-01-01' GROUP BY o.industry ORDER BY total DESC LIMIT 10";
        for (int round = 0; round < 3; round++) {
            long guard = 0;
            long look = 0;
            int n = 3000;
            for (int i = 0; i < n; i++) {
                long t0 = System.nanoTime();
                BoundSelect bound = (BoundSelect) SqlGuard.check(sql, rules, catalog);
                long t1 = System.nanoTime();
                if (WrittenSql.check(bound.ast().toString(), rules, bound.literals()).isPresent()) {
                    throw new IllegalStateException("the rendering did not pass its own last look");
                }
                guard += t1 - t0;
                look += System.nanoTime() - t1;
            }
            System.out.printf("round %d: guard %.1f us, last look %.1f us a call%n", round, guard / 1e3 / n,
                    look / 1e3 / n);
        }
    }
}
