package dev.schemabrain.bench;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.engine.Engines;
import dev.schemabrain.engine.LoggedStatement;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.mining.LogAnalysis;
import dev.schemabrain.mining.QueryLogMiner;
import dev.schemabrain.pii.PiiTags;
import dev.schemabrain.sql.lex.Lexical;
import dev.schemabrain.store.CatalogRepository;
import dev.schemabrain.store.Store;
import dev.schemabrain.store.StoreLocation;
import dev.schemabrain.store.Stores;
import dev.schemabrain.testing.InProcessCli;
import dev.schemabrain.testing.TestPostgres;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 16's figure: mining 10,000 distinct statements. They run on a Chinook copy in the embedded PostgreSQL
 * (pg_stat_statements.max raised to hold them), then {@code mine-queries} reads, parses, resolves and stores them
 * end to end; the analysis alone is timed too. Run with {@code mvn -Pbench test -Dtest=MiningBenchmark};
 * figures go to target/bench/mining.txt.
 */
@Tag("benchmark")
class MiningBenchmark {

    private static final Lexical POSTGRESQL_LOG = Engines.POSTGRESQL.sqlRules().orElseThrow().logged();

    static final int STATEMENTS = 10_000;
    private static final String DB = "sb_mining_bench";

    /** Pairs joined along Chinook's keys: many side, one side, the key column. */
    private static final String[][] PAIRS = {
            {"invoice_line", "track", "track_id"}, {"invoice_line", "invoice", "invoice_id"}, {"track", "album", "album_id"},
            {"track", "genre", "genre_id"}, {"track", "media_type", "media_type_id"}, {"album", "artist", "artist_id"},
            {"invoice", "customer", "customer_id"}, {"playlist_track", "track", "track_id"}};
    private static final String[][] COLUMNS = {
            {"invoice_line", "invoice_line_id", "unit_price", "quantity", "invoice_id", "track_id"},
            {"track", "track_id", "name", "composer", "milliseconds", "bytes", "unit_price"},
            {"invoice", "invoice_id", "billing_city", "billing_country", "total", "invoice_date"},
            {"album", "album_id", "title"}, {"genre", "genre_id", "name"}, {"media_type", "media_type_id", "name"},
            {"artist", "artist_id", "name"}, {"customer", "customer_id", "first_name", "last_name", "city", "country", "email"},
            {"playlist_track", "playlist_id", "track_id"}};
    private static final String[] OPS = {"=", ">", "<", "<>", ">=", "<="};

    @TempDir
    Path dir;

    @Test
    void tenThousandDistinctStatements() throws Exception {
        TestPostgres.loadSample("chinook", "chinook.sql");
        try (Connection c = TestPostgres.connect("postgres"); Statement st = c.createStatement()) {
            st.execute("DROP DATABASE IF EXISTS " + DB + " WITH (FORCE)");
            st.execute("CREATE DATABASE " + DB + " TEMPLATE chinook");
        }
        Path store = dir.resolve("bench.db");
        String url = TestPostgres.url(DB);
        assertEquals(0, InProcessCli.run("--store", store.toString(), "index", "--source", url).exitCode());
        List<String> statements = statements();
        try (Connection c = TestPostgres.connect(DB); Statement st = c.createStatement()) {
            st.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
            st.execute("SELECT pg_stat_statements_reset()");
            for (String sql : statements) {
                st.execute(sql);
            }
        }
        List<String> lines = new ArrayList<>();
        long t = System.nanoTime();
        QueryLogMiner.Report report;
        try (Store s = Stores.open(StoreLocation.file(store))) {
            report = new QueryLogMiner().mine(SourceUrl.parse(url), s, Optional.empty());
        }
        long mineMillis = (System.nanoTime() - t) / 1_000_000;
        LogAnalysis.Result a = report.analysis();
        assertTrue(a.examples() >= STATEMENTS, "every distinct statement became an example: " + a.examples());
        lines.add(String.format(Locale.ROOT, "mine-queries, PostgreSQL: %d statements read, %d parsed, parse rate %.1f%%, %d examples,"
                        + " %d joins observed, %d ms end to end (read, parse, resolve, store)", a.read(), a.parsed(),
                100 * a.parseRate(), a.examples(), a.joins(), mineMillis));

        Catalog catalog;
        try (Store s = Stores.open(StoreLocation.file(store))) {
            String sourceId = SourceUrl.parse(url).sourceId();
            catalog = s.read(c -> CatalogRepository.catalog(c, sourceId));
        }
        List<LoggedStatement> logged = statements.stream().map(sql -> new LoggedStatement(sql, 1)).toList();
        LogAnalysis.analyze(logged, catalog, List.of("public"), PiiTags.NONE, POSTGRESQL_LOG);   // warm-up
        t = System.nanoTime();
        LogAnalysis.Result alone = LogAnalysis.analyze(logged, catalog, List.of("public"), PiiTags.NONE, POSTGRESQL_LOG);
        long analyzeMillis = (System.nanoTime() - t) / 1_000_000;
        lines.add(String.format(Locale.ROOT, "analysis alone (normalize, JSqlParser, resolve): %d statements in %d ms, %.0f statements/s,"
                + " parse rate %.1f%%", alone.read(), analyzeMillis, alone.read() * 1000.0 / Math.max(1, analyzeMillis), 100 * alone.parseRate()));
        Path out = Path.of("target", "bench", "mining.txt");
        Files.createDirectories(out.getParent());
        Files.write(out, lines);
        lines.forEach(System.out::println);
    }

    /**
     * 10,000 shapes distinct after normalization (constants do not count, so the variety is structural): a join
     * along a key, the selected columns, the filtered column and operator, ordering, aggregation and a LIMIT.
     */
    static List<String> statements() {
        Set<String> out = new LinkedHashSet<>();
        for (boolean aggregate : new boolean[] {false, true}) {
            for (boolean limited : new boolean[] {false, true}) {
                for (String order : new String[] {"ASC", "DESC"}) {
                    for (String op : OPS) {
                        for (int f = 1; f < 7; f++) {
                            for (int b = 1; b < 7; b++) {
                                for (int a = 1; a < 7; a++) {
                                    for (String[] pair : PAIRS) {
                                        String[] many = columns(pair[0]);
                                        String[] one = columns(pair[1]);
                                        if (a >= many.length || f >= many.length || b >= one.length) {
                                            continue;
                                        }
                                        String select = aggregate ? "m." + many[a] + ", count(o." + one[b] + ")" : "m." + many[a] + ", o." + one[b];
                                        out.add("SELECT " + select + " FROM " + pair[0] + " m JOIN " + pair[1] + " o ON o." + pair[2]
                                                + " = m." + pair[2] + " WHERE m." + many[f] + " IS NOT NULL AND m." + pair[2] + " " + op + " 7"
                                                + (aggregate ? " GROUP BY m." + many[a] : "") + " ORDER BY 1 " + order
                                                + (limited ? " LIMIT 25" : ""));
                                        if (out.size() == STATEMENTS) {
                                            return List.copyOf(out);
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        throw new IllegalStateException("only " + out.size() + " shapes");
    }

    private static String[] columns(String table) {
        for (String[] c : COLUMNS) {
            if (c[0].equals(table)) {
                return c;
            }
        }
        throw new IllegalArgumentException(table);
    }
}
